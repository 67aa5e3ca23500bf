/**
 * Entry point of a JVM worker (`java -cp suitesmith-runtime.jar suitesmith.rt.WorkerMain`): speaks
 * docs/protocol.md on the process's real stdin/stdout, and gives the SUT an empty System.in and
 * capture buffers for System.out/err, so nothing the SUT does with the standard streams can reach or
 * corrupt the protocol. The worker's own diagnostics go to the real stderr ({@link #diag}).
 *
 * Exit statuses: 0 after Shutdown or at end of input, 3 after a batch cut short by a timed-out test
 * or leaked threads (the engine replaces the worker), 4 on an internal failure. The worker leaves with
 * `Runtime.halt`, so shutdown hooks the SUT may have registered never run.
 */
package suitesmith.rt;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.net.URL;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

public final class WorkerMain {
    private static final PrintStream DIAG = System.err;

    private final DataInputStream in;
    private final DataOutputStream out;
    private final Capture stdout = new Capture();
    private final Capture stderr = new Capture();
    private Executor executor;
    /** The class initialisers' trace, from `setup` until SetupDone carries it. */
    private byte[] initTrace;

    private WorkerMain(DataInputStream in, DataOutputStream out) {
        this.in = in;
        this.out = out;
    }

    /** A line on the worker's real stderr (free text for the engine's error reports). */
    static void diag(String msg) {
        DIAG.println("suitesmith worker: " + msg);
        DIAG.flush();
    }

    public static void main(String[] args) throws UnsupportedEncodingException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
        DataOutputStream out =
            new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16));
        WorkerMain w = new WorkerMain(in, out);
        System.setIn(new ByteArrayInputStream(new byte[0]));
        System.setOut(new PrintStream(w.stdout, true, "UTF-8"));
        System.setErr(new PrintStream(w.stderr, true, "UTF-8"));
        int status;
        try {
            status = w.serve();
        } catch (Throwable t) {
            diag("fatal: " + t);
            status = 4;
        }
        try {
            out.flush();
        } catch (IOException e) {
            // The engine is gone; nothing to tell it.
        }
        Runtime.getRuntime().halt(status);
    }

    /** Serves requests until Shutdown, end of input, or a cut-short batch; returns the exit status. */
    private int serve() throws IOException, InterruptedException {
        Protocol.Buf buf = new Protocol.Buf();
        while (true) {
            Protocol.Frame f = Protocol.readFrame(in);
            if (f == null) return 0;
            try {
                switch (f.kind) {
                    case Protocol.HELLO: {
                        int v = f.payload.readUnsignedShort();
                        if (v != Protocol.VERSION) {
                            error(buf, "unsupported protocol version " + v + " (worker speaks " + Protocol.VERSION + ")");
                            break;
                        }
                        DataOutputStream d = buf.begin(Protocol.READY).data;
                        d.writeShort(Protocol.VERSION);
                        Protocol.writeStr(d, String.valueOf(System.getProperty("java.version")));
                        d.writeLong(pid());
                        send(buf);
                        break;
                    }
                    case Protocol.SETUP: {
                        if (executor != null) {
                            error(buf, "Setup received twice");
                            break;
                        }
                        int defined = setup(f.payload);
                        DataOutputStream d = buf.begin(Protocol.SETUP_DONE).data;
                        d.writeInt(defined);
                        d.write(initTrace);
                        initTrace = null;
                        send(buf);
                        break;
                    }
                    case Protocol.EXECUTE: {
                        if (executor == null) {
                            error(buf, "Execute before Setup");
                            break;
                        }
                        Executor.Test[] tests = Executor.decode(f.payload);
                        PathConditions.readFocus(f.payload);
                        if (f.payload.available() != 0) throw new IOException("trailing bytes after Execute");
                        int status = executor.run(tests);
                        if (status >= 0) return status;
                        break;
                    }
                    case Protocol.SHUTDOWN:
                        return 0;
                    default:
                        error(buf, "unknown frame kind " + f.kind);
                        break;
                }
            } catch (IOException e) {
                // A malformed payload (the frame itself was read whole, so the stream is still in sync).
                error(buf, "malformed frame of kind " + f.kind + ": " + e.getMessage());
            }
        }
    }

    private void send(Protocol.Buf buf) throws IOException {
        buf.sendTo(out);
        out.flush();
    }

    private void error(Protocol.Buf buf, String message) throws IOException {
        diag(message);
        Protocol.writeStr(buf.begin(Protocol.ERROR).data, message);
        send(buf);
    }

    /** Reads Setup, builds the loader, defines the sent classes, sizes the tracer; returns classes defined. */
    private int setup(DataInputStream p) throws IOException {
        int nCp = Protocol.readLen(p);
        URL[] cp = new URL[nCp];
        for (int i = 0; i < nCp; i++) cp[i] = new File(Protocol.readStr(p)).toURI().toURL();
        int nClasses = Protocol.readLen(p);
        Map<String, byte[]> classes = new LinkedHashMap<String, byte[]>();
        for (int i = 0; i < nClasses; i++) {
            String name = Protocol.readStr(p);
            classes.put(name, Protocol.readBytes(p));
        }
        int probeCount = p.readInt();
        if (probeCount < 0) throw new IOException("probe_count too large");
        int nIds = Protocol.readLen(p);
        int[] ids = new int[nIds];
        String[] names = new String[nIds];
        int maxId = -1;
        for (int i = 0; i < nIds; i++) {
            ids[i] = p.readInt();
            names[i] = Protocol.readStr(p);
            if (ids[i] < 0 || ids[i] > 1 << 24) throw new IOException("class id " + (ids[i] & 0xFFFFFFFFL) + " too large");
            maxId = Math.max(maxId, ids[i]);
        }
        String[] byId = new String[maxId + 1];
        for (int i = 0; i < nIds; i++) byId[ids[i]] = names[i];
        int timeoutMs = p.readInt();
        int maxThreads = p.readInt();
        String scratch = Protocol.readStr(p);
        long timeBase = p.readLong();
        PathConditions.read(p);
        StringTests.enable(p.readBoolean());
        if (p.available() != 0) throw new IOException("trailing bytes after Setup");
        if (timeoutMs <= 0) timeoutMs = 3000;

        Tracer.init(probeCount);
        Tracer.initClasses(maxId);
        Guards.configure(timeBase, maxThreads, scratch);
        Loader loader = new Loader(cp, classes, WorkerMain.class.getClassLoader());
        PathConditions.useLoader(loader);
        // Define the classes under test (those with class ids) now: a class-file error shows up at
        // Setup, in the diagnostics, rather than as a puzzling outcome of the first test that touches
        // the class. Loading does not initialise (no SUT code runs here). The other sent classes, the
        // guarded copies of the classpath's classes that call a redirected method, are defined when
        // first loaded, as the classpath's classes are: most are never used by a run.
        Set<String> underTest = new HashSet<String>(Arrays.asList(names));
        int defined = 0;
        for (String name : classes.keySet()) {
            if (!underTest.contains(name)) continue;
            try {
                Class.forName(name, false, loader);
                defined++;
            } catch (Throwable t) {
                diag("cannot define " + name + ": " + t);
            }
        }
        initTrace = initialiseAll(loader, byId, timeoutMs);
        executor = new Executor(loader, byId, timeoutMs, stdout, stderr, out);
        return defined;
    }

    /**
     * Initialises every instrumented class now, in class-id order, with the guards active. A class
     * is initialised once per JVM, so if tests triggered `<clinit>` the first test to touch a class
     * would trace its initialiser and later ones would not: the same test would give different traces
     * depending on what ran before it on that worker. Initialising here makes every test start from
     * the state the static reset re-creates, whatever ran before and on whichever worker. A `<clinit>`
     * that throws leaves its class erroneous (every test then sees `NoClassDefFoundError`); one that
     * does not finish within the test timeout is abandoned on its daemon thread and reported.
     */
    private static byte[] initialiseAll(final Loader loader, final String[] byId, int timeoutMs) throws IOException {
        final boolean finished = runBounded("suitesmith-init", loader, timeoutMs, new Runnable() {
            @Override
            public void run() {
                for (String name : byId) {
                    if (name == null) continue;
                    try {
                        Class.forName(name, true, loader);
                    } catch (Throwable e) {
                        diag("initialising " + name + " failed: " + e);
                    }
                }
            }
        });
        // The trace of the initialisers goes to the engine (SetupDone, protocol v3): code that only
        // runs there (a singleton's private constructor, a helper filling a static table) is covered
        // for the written tests, which trigger these initialisers themselves, yet no test trace can
        // show it. An initialiser still running owns the tables, so it gets an empty trace.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream trace = new DataOutputStream(bytes);
        if (!finished) {
            diag("class initialisation did not finish within " + timeoutMs + " ms");
            Tracer.writeEmpty(trace);
        } else {
            Tracer.write(trace);
            // After the initialisers' trace is written, so that what it runs is not taken for
            // code that runs while the classes initialise; `Tracer.reset` drops its trace.
            fillEnumConstants(loader, byId, timeoutMs);
        }
        trace.flush();
        Tracer.reset();
        Guards.beginTest();
        return bytes.toByteArray();
    }

    /**
     * Fills each enum under test's JVM-wide table of constants (`Class.getEnumConstants`), which
     * the JDK fills on first use by calling the enum's `values()` reflectively: `valueOf`, `EnumSet`
     * and `EnumMap` all go through it. Left to the tests, the first test of a JVM to call
     * `Kind.valueOf` would trace `values()` and every later one would not, so a test's trace would
     * depend on what ran before it on that worker, and a seed's run on the number of workers. The
     * table lives in the `Class` object, which the static reset does not touch. Run like
     * {@link #initialiseAll}, on a daemon thread within the test timeout.
     */
    private static void fillEnumConstants(final Loader loader, final String[] byId, int timeoutMs) {
        boolean finished = runBounded("suitesmith-enums", loader, timeoutMs, new Runnable() {
            @Override
            public void run() {
                for (String name : byId) {
                    if (name == null) continue;
                    try {
                        Class<?> c = Class.forName(name, false, loader);
                        if (c.isEnum()) c.getEnumConstants();
                    } catch (Throwable e) {
                        diag("filling the constants of " + name + " failed: " + e);
                    }
                }
            }
        });
        if (!finished) diag("filling the enums' constants did not finish within " + timeoutMs + " ms");
    }

    /**
     * Runs `work` on a daemon thread named `name` with `loader` as its context class loader, and
     * waits for it at most `timeoutMs`: whether it finished. A thread still running is abandoned
     * (class initialisers cannot be interrupted safely), and reported by the caller.
     */
    private static boolean runBounded(String name, Loader loader, int timeoutMs, Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.setContextClassLoader(loader);
        t.start();
        try {
            t.join(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !t.isAlive();
    }

    /** The process id: ProcessHandle on Java 9+ (reflectively, for --release 8), /proc on Linux, else -1. */
    static long pid() {
        try {
            Class<?> ph = Class.forName("java.lang.ProcessHandle");
            Object current = ph.getMethod("current").invoke(null);
            return (Long) ph.getMethod("pid").invoke(current);
        } catch (Throwable java8) {
            try {
                return Long.parseLong(new File("/proc/self").getCanonicalFile().getName());
            } catch (Throwable noProc) {
                return -1;
            }
        }
    }
}
