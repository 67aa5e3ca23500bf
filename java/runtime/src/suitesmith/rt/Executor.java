/**
 * Runs the tests of an `Execute` request (docs/protocol.md) on one dedicated test thread, and writes
 * one `TestResult` per test and a `BatchDone` to the engine.
 *
 * Threads: the test thread runs statements, ships each result, then resets static state; the main
 * thread only watches the clock. There is no hand-off per test, only per batch. A test (or a static
 * reset) that exceeds `timeout_ms` is abandoned (never `Thread.stop`): the watchdog reports it as
 * Timeout, ends the batch early and the worker exits with status 3, because the abandoned thread may
 * still mutate shared state. The same early end happens when a test leaves threads running that
 * ignore an interrupt.
 *
 * Members are resolved by class + name + descriptor through reflection once per worker (the
 * loader never changes after Setup) and cached.
 */
package suitesmith.rt;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

final class Executor {
    /**
     * Stack size of the test thread. 4 MiB is four times HotSpot's default thread stack on x86-64, so
     * legitimately deep SUT recursion (parsers, tree walks) works, while an unbounded recursion still
     * hits StackOverflowError within milliseconds.
     */
    static final long TEST_STACK_BYTES = 4L << 20;

    /** How long a leaked SUT thread gets to end after its interrupt, before the worker is tainted. */
    static final long LEAK_GRACE_MS = 100;

    // ---------------------------------------------------------------------------------------------
    // The request, decoded.

    static final class Stmt {
        int tag;
        int prim;
        long bits;
        int length;
        String cls, name, desc;
        boolean isStatic;
        int recv = Protocol.NO_VAR;
        int value = Protocol.NO_VAR;
        int[] args = new int[0];
        /** A stub's class file and, per method, its descriptor, whether it runs its Runnables, its answers. */
        byte[] bytes;
        String[] stubDescs;
        boolean[] stubRuns;
        int[][] stubAnswers;
        /** Per stub method, the variable it throws after its answers, or {@code NO_VAR}. */
        int[] stubThrows;
        /** A scratch file's kind (0 file, 1 directory, 2 missing), whether it is a Path, its contents. */
        int fileKind;
        boolean asPath;
        String contents;
    }

    static final class Test {
        int id;
        Stmt[] stmts;
    }

    static Test[] decode(DataInputStream in) throws IOException {
        int nStrings = Protocol.readLen(in);
        String[] strings = new String[nStrings];
        for (int i = 0; i < nStrings; i++) strings[i] = Protocol.readStr(in);
        int nTests = Protocol.readLen(in);
        Test[] tests = new Test[nTests];
        for (int t = 0; t < nTests; t++) {
            Test test = new Test();
            test.id = in.readInt();
            int n = Protocol.readLen(in);
            if (n > Protocol.NO_VAR) throw new IOException("test " + test.id + " has more than 65535 statements");
            test.stmts = new Stmt[n];
            for (int i = 0; i < n; i++) test.stmts[i] = decodeStmt(in, strings, i);
            tests[t] = test;
        }
        return tests;
    }

    private static Stmt decodeStmt(DataInputStream in, String[] strings, int index) throws IOException {
        Stmt s = new Stmt();
        s.tag = in.readUnsignedByte();
        switch (s.tag) {
            case Protocol.S_PRIMITIVE:
                s.prim = in.readUnsignedByte();
                if ("ZBCSIJFD".indexOf(s.prim) < 0) throw new IOException("bad primitive type " + s.prim);
                s.bits = in.readLong();
                break;
            case Protocol.S_STRING:
                // A test writes strings as literals, which Java interns: two equal literals, or a
                // literal and an equal constant of the code under test, are the same object there,
                // so they must be here too (`a == b` before `a.equals(b)` takes another path).
                s.name = sref(in, strings).intern();
                break;
            case Protocol.S_NULL:
                s.desc = sref(in, strings);
                break;
            case Protocol.S_ENUM:
                s.cls = sref(in, strings);
                s.name = sref(in, strings);
                break;
            case Protocol.S_CONSTRUCTOR:
                s.cls = sref(in, strings);
                s.desc = sref(in, strings);
                s.args = vars(in, index);
                break;
            case Protocol.S_METHOD:
                s.cls = sref(in, strings);
                s.name = sref(in, strings);
                s.desc = sref(in, strings);
                s.isStatic = in.readUnsignedByte() != 0;
                s.recv = var(in, index, true);
                s.args = vars(in, index);
                break;
            case Protocol.S_FIELD_GET:
                s.cls = sref(in, strings);
                s.name = sref(in, strings);
                s.desc = sref(in, strings);
                s.isStatic = in.readUnsignedByte() != 0;
                s.recv = var(in, index, true);
                break;
            case Protocol.S_FIELD_SET:
                s.cls = sref(in, strings);
                s.name = sref(in, strings);
                s.desc = sref(in, strings);
                s.isStatic = in.readUnsignedByte() != 0;
                s.recv = var(in, index, true);
                s.value = var(in, index, false);
                break;
            case Protocol.S_NEW_ARRAY:
                s.desc = sref(in, strings);
                s.length = in.readInt();
                break;
            case Protocol.S_ARRAY_STORE:
                s.recv = var(in, index, false);
                s.length = in.readInt();
                s.value = var(in, index, false);
                break;
            case Protocol.S_ARRAY_LOAD:
                s.recv = var(in, index, false);
                s.length = in.readInt();
                break;
            case Protocol.S_COPY:
                s.value = var(in, index, false);
                break;
            case Protocol.S_CLASS_LITERAL:
                s.desc = sref(in, strings);
                break;
            case Protocol.S_STUB: {
                s.cls = sref(in, strings);
                s.bytes = Protocol.readBytes(in);
                s.desc = sref(in, strings);
                s.args = vars(in, index);
                int n = Protocol.readLen(in);
                s.stubDescs = new String[n];
                s.stubRuns = new boolean[n];
                s.stubAnswers = new int[n][];
                s.stubThrows = new int[n];
                for (int i = 0; i < n; i++) {
                    s.stubDescs[i] = sref(in, strings);
                    s.stubRuns[i] = in.readUnsignedByte() != 0;
                    s.stubAnswers[i] = vars(in, index);
                    s.stubThrows[i] = var(in, index, true);
                }
                break;
            }
            case Protocol.S_SCRATCH_FILE:
                s.fileKind = in.readUnsignedByte();
                if (s.fileKind > 2) throw new IOException("bad scratch file kind " + s.fileKind);
                s.asPath = in.readUnsignedByte() != 0;
                s.name = sref(in, strings);
                s.contents = sref(in, strings);
                if (s.name.isEmpty() || s.name.contains("/") || s.name.contains("\\") || s.name.startsWith(".")) {
                    throw new IOException("bad scratch file name " + s.name);
                }
                break;
            case Protocol.S_MUTANT:
                // The active mutant (v15): site, operation, constant bits (crates/rt-abi mutants.rs).
                s.length = in.readInt();
                s.prim = in.readInt();
                s.bits = in.readLong();
                if (s.length < 0) throw new IOException("bad mutant site " + (s.length & 0xFFFFFFFFL));
                break;
            default:
                throw new IOException("unknown statement tag " + s.tag + " at statement " + index);
        }
        return s;
    }

    private static String sref(DataInputStream in, String[] strings) throws IOException {
        int i = in.readInt();
        if (i < 0 || i >= strings.length) throw new IOException("string index " + (i & 0xFFFFFFFFL) + " out of range");
        return strings[i];
    }

    /** A variable must name an earlier statement (or be "none" where allowed). */
    private static int var(DataInputStream in, int index, boolean noneAllowed) throws IOException {
        int v = in.readUnsignedShort();
        if (v == Protocol.NO_VAR && noneAllowed) return v;
        if (v >= index) throw new IOException("statement " + index + " uses variable " + v);
        return v;
    }

    private static int[] vars(DataInputStream in, int index) throws IOException {
        int n = Protocol.readLen(in);
        int[] vs = new int[n];
        for (int i = 0; i < n; i++) vs[i] = var(in, index, false);
        return vs;
    }

    // ---------------------------------------------------------------------------------------------
    // Outcomes.

    static final class Outcome {
        static final Outcome NOT_EXECUTED = new Outcome(Protocol.O_NOT_EXECUTED);
        static final Outcome TIMEOUT = new Outcome(Protocol.O_TIMEOUT);
        static final Outcome VOID = value(Protocol.V_VOID, 0, null, null);

        final int tag;
        int vtag;
        long num;
        String s1, s2;
        boolean fromSut;

        Outcome(int tag) {
            this.tag = tag;
        }

        static Outcome value(int vtag, long num, String s1, String s2) {
            Outcome o = new Outcome(Protocol.O_VALUE);
            o.vtag = vtag;
            o.num = num;
            o.s1 = s1;
            o.s2 = s2;
            return o;
        }

        static Outcome threw(String cls, String msg, boolean fromSut, String thrownIn, String topFrame) {
            Outcome o = new Outcome(Protocol.O_THREW);
            o.s1 = cls;
            o.s2 = msg;
            o.fromSut = fromSut;
            o.thrownIn = thrownIn;
            o.topFrame = topFrame;
            return o;
        }

        static Outcome guard(String what) {
            Outcome o = new Outcome(Protocol.O_GUARD);
            o.s1 = what;
            return o;
        }

        String thrownIn;
        String topFrame = "";

        void write(DataOutputStream out) throws IOException {
            out.writeByte(tag);
            switch (tag) {
                case Protocol.O_VALUE:
                    out.writeByte(vtag);
                    switch (vtag) {
                        case Protocol.V_BOOL:
                            out.writeByte((int) num);
                            break;
                        case Protocol.V_BYTE:
                        case Protocol.V_CHAR:
                        case Protocol.V_SHORT:
                        case Protocol.V_INT:
                        case Protocol.V_FLOAT:
                            out.writeInt((int) num);
                            break;
                        case Protocol.V_LONG:
                        case Protocol.V_DOUBLE:
                            out.writeLong(num);
                            break;
                        case Protocol.V_STRING:
                        case Protocol.V_OBJECT:
                            Protocol.writeStr(out, s1);
                            break;
                        case Protocol.V_ARRAY:
                            Protocol.writeStr(out, s1);
                            out.writeInt((int) num);
                            break;
                        case Protocol.V_ENUM:
                            Protocol.writeStr(out, s1);
                            Protocol.writeStr(out, s2);
                            break;
                        default: // void, null
                            break;
                    }
                    break;
                case Protocol.O_THREW:
                    Protocol.writeStr(out, s1);
                    Protocol.writeStr(out, s2);
                    out.writeByte(fromSut ? 1 : 0);
                    Protocol.writeStr(out, thrownIn);
                    Protocol.writeStr(out, topFrame);
                    break;
                case Protocol.O_GUARD:
                    Protocol.writeStr(out, s1);
                    break;
                default: // not executed, timeout
                    break;
            }
        }
    }

    /** Summarises a value as it is now (later mutation does not change the outcome). */
    static Outcome summarise(Object v) {
        if (v == null) return Outcome.value(Protocol.V_NULL, 0, null, null);
        Class<?> c = v.getClass();
        if (c == String.class) return Outcome.value(Protocol.V_STRING, 0, (String) v, null);
        if (c == Integer.class) return Outcome.value(Protocol.V_INT, (Integer) v, null, null);
        if (c == Boolean.class) return Outcome.value(Protocol.V_BOOL, ((Boolean) v) ? 1 : 0, null, null);
        if (c == Long.class) return Outcome.value(Protocol.V_LONG, (Long) v, null, null);
        if (c == Double.class) {
            return Outcome.value(Protocol.V_DOUBLE, Double.doubleToRawLongBits((Double) v), null, null);
        }
        if (c == Float.class) return Outcome.value(Protocol.V_FLOAT, Float.floatToRawIntBits((Float) v), null, null);
        if (c == Character.class) return Outcome.value(Protocol.V_CHAR, (Character) v, null, null);
        if (c == Byte.class) return Outcome.value(Protocol.V_BYTE, (Byte) v, null, null);
        if (c == Short.class) return Outcome.value(Protocol.V_SHORT, (Short) v, null, null);
        if (c.isArray()) return Outcome.value(Protocol.V_ARRAY, Array.getLength(v), c.getName(), null);
        if (v instanceof Enum) {
            Enum<?> e = (Enum<?>) v;
            return Outcome.value(Protocol.V_ENUM, 0, e.getDeclaringClass().getName(), e.name());
        }
        return Outcome.value(Protocol.V_OBJECT, 0, GuardedFileSystemProvider.visibleClass(v).getName(), null);
    }

    /** Threw for a call that failed before reaching SUT code (null receiver, bad argument, access). */
    static Outcome callFailed(Throwable t) {
        return Outcome.threw(t.getClass().getName(), message(t), false, "", "");
    }

    /**
     * What the SUT threw. A denial by the operating system outside the scratch directory anywhere
     * in it (however the library wrapped it) is recorded as a refusal, so the statement ends as a
     * guarded one and no written test expects an exception the user's unsandboxed run would not
     * throw ({@link Denials}).
     */
    Outcome sutThrew(Throwable t) {
        String denial = Denials.find(t);
        if (denial != null) Guards.recordRefusal(denial);
        return Outcome.threw(t.getClass().getName(), message(t), true, thrownIn(t), topFrame(t));
    }

    /**
     * The class of the exception's top stack frame, as a written test sees it in
     * `e.getStackTrace()[0]`: frames of this runtime (the guards that stand in for redirected JDK
     * calls, the tracer) are skipped, since the test runs without them. Empty when unknown.
     */
    static String topFrame(Throwable t) {
        for (StackTraceElement e : frames(t)) {
            if (e == null) return "";
            if (!e.getClassName().startsWith("suitesmith.rt.")) return e.getClassName();
        }
        return "";
    }

    /** The exception's stack trace; none when it cannot be had (getStackTrace may be overridden). */
    static StackTraceElement[] frames(Throwable t) {
        try {
            StackTraceElement[] st = t.getStackTrace();
            return st == null ? new StackTraceElement[0] : st;
        } catch (Throwable broken) {
            return new StackTraceElement[0];
        }
    }

    /** getMessage is SUT code for SUT exceptions: it may throw itself. */
    static String message(Throwable t) {
        try {
            String m = t.getMessage();
            return m == null ? "" : m;
        } catch (Throwable broken) {
            return "";
        }
    }

    /**
     * `class.method` of the topmost frame of a class the SUT loader defined, or empty. An error the
     * JVM raised on the SUT's behalf (ExceptionInInitializerError) has no SUT frame itself: its
     * cause's frames are used then.
     */
    String thrownIn(Throwable t) {
        String in = sutFrame(t);
        if (in.isEmpty() && t.getCause() != null && t.getCause() != t) in = sutFrame(t.getCause());
        return in;
    }

    private String sutFrame(Throwable t) {
        for (StackTraceElement e : frames(t)) {
            if (e != null && loader.isSut(e.getClassName())) return e.getClassName() + "." + e.getMethodName();
        }
        return "";
    }

    // ---------------------------------------------------------------------------------------------
    // State.

    private final Loader loader;
    private final String[] classNames; // by class id, for static reset
    private final long timeoutNanos;
    private final Capture stdout;
    private final Capture stderr;
    // The standard streams the worker gives the SUT (captures and an empty input).
    private final java.io.PrintStream sutOut = System.out;
    private final java.io.PrintStream sutErr = System.err;
    private final java.io.InputStream sutIn = System.in;
    private final OutputStream out;
    private final Protocol.Buf buf = new Protocol.Buf();
    private final Map<String, Object> members = new HashMap<String, Object>();
    private final Map<String, Class<?>> classes = new HashMap<String, Class<?>>();
    private final Map<Integer, Method> resets = new HashMap<Integer, Method>();
    private final ThreadGroup group = new ThreadGroup("suitesmith-tests");
    private final Thread thread;
    private final java.util.Locale locale = java.util.Locale.getDefault();
    private final java.util.TimeZone timeZone = java.util.TimeZone.getDefault();
    // Taken when the worker is ready, after the class initialisers: every test starts from it.
    private final SystemProperties properties = SystemProperties.snapshot();

    // Hand-off of batches to the test thread.
    private Test[] pending;

    // Shared with the watchdog, under `lock`.
    private final Object lock = new Object();
    private static final int IDLE = 0, RUNNING = 1, RESETTING = 2;
    private int phase = IDLE;
    private long phaseStart;
    private int current;
    private boolean done;
    private boolean abandoned;
    private int exitStatus; // 0, or 3 when the worker must be replaced after this batch
    private volatile Outcome[] outcomes = new Outcome[0];
    private volatile int executed;

    Executor(Loader loader, String[] classNames, int timeoutMs, Capture stdout, Capture stderr, OutputStream out) {
        this.loader = loader;
        this.classNames = classNames;
        this.timeoutNanos = timeoutMs * 1_000_000L;
        this.stdout = stdout;
        this.stderr = stderr;
        this.out = out;
        this.thread = new Thread(group, new Runnable() {
            @Override
            public void run() {
                loop();
            }
        }, "suitesmith-test", TEST_STACK_BYTES);
        thread.setDaemon(true);
        thread.setContextClassLoader(loader);
        thread.start();
    }

    /**
     * Runs a batch and writes its replies; returns the worker's exit status if it must now exit
     * (3: a test timed out or leaked threads), or -1 to go on.
     */
    int run(Test[] tests) throws InterruptedException, IOException {
        synchronized (lock) {
            done = false;
            pending = tests;
            lock.notifyAll();
            while (!done) {
                long now = System.nanoTime();
                if (phase != IDLE && now - phaseStart >= timeoutNanos) {
                    abandon(tests);
                    return 3;
                }
                long waitMs = phase == IDLE ? 50 : Math.max(1, (phaseStart + timeoutNanos - now) / 1_000_000L + 1);
                lock.wait(waitMs);
            }
            return exitStatus == 0 ? -1 : exitStatus;
        }
    }

    /** Called with `lock` held when the current test or reset overran: ends the batch early. */
    private void abandon(Test[] tests) throws IOException {
        abandoned = true;
        int sent = current;
        if (phase == RUNNING) {
            Test t = tests[current];
            Protocol.Buf b = new Protocol.Buf();
            DataOutputStream d = b.begin(Protocol.TEST_RESULT).data;
            d.writeInt(t.id);
            d.writeByte(Protocol.STATUS_TIMEOUT);
            d.writeInt((int) Math.min(0xFFFFFFFFL, timeoutNanos / 1000));
            d.writeInt(t.stmts.length);
            int ran = executed;
            Outcome[] os = outcomes;
            for (int i = 0; i < t.stmts.length; i++) {
                Outcome o = i < ran ? os[i] : i == ran ? Outcome.TIMEOUT : Outcome.NOT_EXECUTED;
                o.write(d);
            }
            Tracer.writeEmpty(d);
            Protocol.writeStr(d, stdout.text());
            // Unknown while the test still runs; the worker is replaced after this batch anyway.
            d.writeBoolean(false);
            b.sendTo(out);
        }
        sent++;
        batchDone(sent);
    }

    /** Writes BatchDone; its own buffer, since the watchdog may call it while `buf` is being filled. */
    private void batchDone(int n) throws IOException {
        Protocol.Buf b = new Protocol.Buf();
        b.begin(Protocol.BATCH_DONE).data.writeInt(n);
        b.sendTo(out);
        out.flush();
    }

    // ---------------------------------------------------------------------------------------------
    // The test thread.

    private void loop() {
        while (true) {
            Test[] tests;
            synchronized (lock) {
                while (pending == null) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        // A SUT thread cannot reach us; keep serving.
                    }
                }
                tests = pending;
                pending = null;
            }
            try {
                runBatch(tests);
            } catch (Throwable t) {
                // Our own failure (I/O on the pipe): nothing sensible remains to be done.
                WorkerMain.diag("test thread failed: " + t);
                Runtime.getRuntime().halt(4);
            }
        }
    }

    private void runBatch(Test[] tests) throws IOException {
        for (int i = 0; i < tests.length; i++) {
            synchronized (lock) {
                if (abandoned) return;
                current = i;
                executed = 0;
                phase = RUNNING;
                phaseStart = System.nanoTime();
            }
            runTest(tests[i]);
            synchronized (lock) {
                if (abandoned) return;
                buf.sendTo(out);
                out.flush();
                phase = RESETTING;
                phaseStart = System.nanoTime();
            }
            boolean leaked = stopLeakedThreads();
            resetStatics();
            Guards.beginTest();
            Tracer.reset();
            if (leaked) {
                synchronized (lock) {
                    if (abandoned) return;
                    WorkerMain.diag("test " + tests[i].id + " left threads running; ending the batch early");
                    batchDone(i + 1);
                    phase = IDLE;
                    exitStatus = 3;
                    done = true;
                    lock.notifyAll();
                    return;
                }
            }
        }
        synchronized (lock) {
            if (abandoned) return;
            batchDone(tests.length);
            phase = IDLE;
            done = true;
            lock.notifyAll();
        }
    }

    /** Runs one test and leaves its TestResult frame in `buf`. */
    private void runTest(Test test) throws IOException {
        Stmt[] stmts = test.stmts;
        Outcome[] os = new Outcome[stmts.length];
        outcomes = os;
        Mutants.clear();
        Guards.beginTest();
        Tracer.limitHits(true);
        // The SUT may have replaced the standard streams in an earlier test.
        if (System.out != sutOut) System.setOut(sutOut);
        if (System.err != sutErr) System.setErr(sutErr);
        if (System.in != sutIn) System.setIn(sutIn);
        stdout.clear();
        stderr.clear();
        Object[] vars = new Object[stmts.length];
        scratchFolderReady = false;
        int status = Protocol.STATUS_NORMAL;
        boolean oom = false;
        long t0 = System.nanoTime();
        int i = 0;
        for (; i < stmts.length; i++) {
            Tracer.beginStatement();
            Outcome o;
            try {
                o = execute(stmts[i], vars, i);
            } catch (Throwable t) {
                // Only reachable for our own bookkeeping failing (e.g. OutOfMemoryError while
                // summarising): drop the test's objects first, then report it as thrown by the SUT.
                java.util.Arrays.fill(vars, null);
                o = Outcome.threw(t.getClass().getName(), "", true, "", "");
            }
            if (o.tag == Protocol.O_THREW && "java.lang.OutOfMemoryError".equals(o.s1)) oom = true;
            // A statement leaves a file through a guard that let a file operation through: then
            // the directory is listed (a thread an earlier statement started is caught at the next
            // statement that runs code). After the last statement it is looked at always, for
            // files the JDK makes past every guard, so that no test sees another's; such a file is
            // blamed on the last statement.
            boolean wrote = runsCode(stmts[i].tag) && Guards.takeAllowedWrite();
            String left = wrote || i == stmts.length - 1 ? litter(wrote) : null;
            String g = Guards.fired();
            if (g == null) g = left;
            if (g != null) {
                o = Outcome.guard(g);
                status = Protocol.STATUS_GUARD;
            }
            os[i] = o;
            executed = i + 1;
            if (o.tag != Protocol.O_VALUE) break;
        }
        long elapsedUs = (System.nanoTime() - t0) / 1000;
        // Static reset and the next test run the original code.
        Mutants.clear();
        // Static reset and the next set-up run instrumented code without a limit.
        Tracer.limitHits(false);
        vars = null;
        restoreThreadAndDefaults();
        boolean propertiesChanged = properties.restore();
        if (oom) System.gc();
        DataOutputStream d = buf.begin(Protocol.TEST_RESULT).data;
        d.writeInt(test.id);
        d.writeByte(status);
        d.writeInt((int) Math.min(0xFFFFFFFFL, elapsedUs));
        d.writeInt(stmts.length);
        for (int j = 0; j < stmts.length; j++) (j < os.length && os[j] != null ? os[j] : Outcome.NOT_EXECUTED).write(d);
        Tracer.write(d);
        Protocol.writeStr(d, stdout.text());
        d.writeBoolean(propertiesChanged);
    }

    /**
     * Undoes what a test may have changed in the test thread and in JVM-wide defaults that later tests
     * would observe: the interrupt flag, context class loader, name, priority, uncaught-exception
     * handler, and the default Locale and TimeZone. System properties are restored by
     * {@link SystemProperties#restore}, which also says whether the test changed them.
     */
    private void restoreThreadAndDefaults() {
        Thread self = Thread.currentThread();
        Thread.interrupted();
        if (self.getContextClassLoader() != loader) self.setContextClassLoader(loader);
        if (!"suitesmith-test".equals(self.getName())) self.setName("suitesmith-test");
        if (self.getPriority() != Thread.NORM_PRIORITY) self.setPriority(Thread.NORM_PRIORITY);
        if (self.getUncaughtExceptionHandler() != group) self.setUncaughtExceptionHandler(null);
        if (java.util.Locale.getDefault() != locale) java.util.Locale.setDefault(locale);
        if (!java.util.TimeZone.getDefault().getID().equals(timeZone.getID())) java.util.TimeZone.setDefault(timeZone);
    }

    /** Interrupts threads the test left alive; true if some survive the grace period. */
    private boolean stopLeakedThreads() {
        if (group.activeCount() <= 1) return false;
        Thread[] ts = new Thread[group.activeCount() + 16];
        int n = group.enumerate(ts, true);
        Thread self = Thread.currentThread();
        for (int i = 0; i < n; i++) {
            if (ts[i] != self) ts[i].interrupt();
        }
        long deadline = System.nanoTime() + LEAK_GRACE_MS * 1_000_000L;
        boolean alive = false;
        for (int i = 0; i < n; i++) {
            if (ts[i] == self) continue;
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            try {
                if (left > 0) ts[i].join(left);
            } catch (InterruptedException e) {
                // Not expected on the test thread; treat the thread as alive.
            }
            if (ts[i].isAlive()) alive = true;
        }
        return alive;
    }

    /** Re-runs `__suitesmith_reset` of every class initialised so far, in initialisation order. */
    private void resetStatics() {
        for (int id : Tracer.everInitialised()) {
            Method m;
            if (resets.containsKey(id)) {
                m = resets.get(id);
            } else {
                m = null;
                try {
                    String name = id >= 0 && id < classNames.length ? classNames[id] : null;
                    if (name != null) {
                        Class<?> c = Class.forName(name, false, loader);
                        m = c.getDeclaredMethod("__suitesmith_reset");
                        accessible(m);
                    }
                } catch (Throwable t) {
                    WorkerMain.diag("no static reset for class id " + id + ": " + t);
                }
                resets.put(id, m);
            }
            if (m == null) continue;
            try {
                m.invoke(null);
            } catch (Throwable t) {
                // A class whose <clinit> failed is erroneous (JVMS §5.5): its reset cannot run again.
                resets.put(id, null);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Statements.

    private Outcome execute(Stmt s, Object[] vars, int index) {
        switch (s.tag) {
            case Protocol.S_PRIMITIVE: {
                Object v = box(s.prim, s.bits);
                vars[index] = v;
                return summarise(v);
            }
            case Protocol.S_STRING:
                vars[index] = s.name;
                return summarise(s.name);
            case Protocol.S_NULL:
                return summarise(null);
            case Protocol.S_MUTANT:
                Mutants.activate(s.length, s.prim, s.bits);
                return Outcome.VOID;
            case Protocol.S_COPY: {
                Object v = vars[s.value];
                vars[index] = v;
                return summarise(v);
            }
            case Protocol.S_ENUM: {
                Class<?> c;
                try {
                    c = classFor(s.cls);
                } catch (Throwable t) {
                    return callFailed(t);
                }
                Object v;
                try {
                    Class.forName(c.getName(), true, c.getClassLoader()); // <clinit> errors surface here
                    v = enumConstant(c, s.name);
                } catch (IllegalArgumentException | ClassCastException t) {
                    return callFailed(t);
                } catch (Throwable t) {
                    return sutThrew(t);
                }
                vars[index] = v;
                return summarise(v);
            }
            case Protocol.S_CONSTRUCTOR:
                return construct(s, vars, index);
            case Protocol.S_STUB:
                return stub(s, vars, index);
            case Protocol.S_SCRATCH_FILE:
                return scratchFile(s, vars, index);
            case Protocol.S_METHOD:
                return call(s, vars, index);
            case Protocol.S_FIELD_GET:
            case Protocol.S_FIELD_SET:
                return field(s, vars, index);
            case Protocol.S_NEW_ARRAY: {
                Object a;
                try {
                    a = Array.newInstance(typeOf(s.desc), s.length);
                } catch (Throwable t) {
                    return callFailed(t);
                }
                vars[index] = a;
                return summarise(a);
            }
            case Protocol.S_ARRAY_STORE:
                try {
                    Array.set(vars[s.recv], s.length, vars[s.value]);
                } catch (Throwable t) {
                    return callFailed(t);
                }
                return Outcome.VOID;
            case Protocol.S_CLASS_LITERAL: {
                // As `T.class` in a test: the class is loaded, not initialised (JLS §12.4.1).
                Class<?> c;
                try {
                    c = typeOf(s.desc);
                } catch (Throwable t) {
                    return callFailed(t);
                }
                vars[index] = c;
                return summarise(c);
            }
            case Protocol.S_ARRAY_LOAD: {
                Object v;
                try {
                    v = Array.get(vars[s.recv], s.length);
                } catch (Throwable t) {
                    return callFailed(t);
                }
                vars[index] = v;
                return summarise(v);
            }
            default:
                return callFailed(new IllegalArgumentException("statement tag " + s.tag));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> c, String name) {
        return Enum.valueOf((Class) c, name);
    }

    private Outcome construct(Stmt s, Object[] vars, int index) {
        Constructor<?> k;
        Object[] args;
        try {
            k = constructorFor(s.cls, s.desc);
            args = args(s, vars);
        } catch (Throwable t) {
            return callFailed(t);
        }
        if (args.length > 0 && args[0] == null && takesOuterInstance(k)) {
            // `outer.new Inner(..)` with a null outer throws before the constructor runs (javac
            // checks the outer instance, JLS 15.9.4); reflection would pass the null on, and the
            // written test would fail where the worker's run did not. A null receiver, as for calls.
            return callFailed(new NullPointerException());
        }
        return instantiate(k, args, vars, index);
    }

    /** Whether `k` belongs to an inner (non-static member) class and takes its outer instance first. */
    private static boolean takesOuterInstance(Constructor<?> k) {
        Class<?> c = k.getDeclaringClass();
        Class<?>[] params = k.getParameterTypes();
        return c.isMemberClass()
                && !java.lang.reflect.Modifier.isStatic(c.getModifiers())
                && params.length > 0
                && params[0] == c.getDeclaringClass();
    }

    /** `new` through a resolved constructor: what it throws is the SUT's, what it makes the value. */
    private Outcome instantiate(Constructor<?> k, Object[] args, Object[] vars, int index) {
        Object v;
        try {
            v = k.newInstance(args);
        } catch (InvocationTargetException e) {
            return sutThrew(e.getCause());
        } catch (IllegalArgumentException | IllegalAccessException | InstantiationException e) {
            return callFailed(e);
        } catch (Throwable t) {
            return sutThrew(t);
        }
        vars[index] = v;
        return summarise(v);
    }

    private Outcome call(Stmt s, Object[] vars, int index) {
        Method m;
        Object recv = null;
        Object[] args;
        try {
            m = methodFor(s.cls, s.name, s.desc);
            args = args(s, vars);
            if (!s.isStatic) {
                recv = s.recv == Protocol.NO_VAR ? null : vars[s.recv];
                if (recv == null) throw new NullPointerException("null receiver");
            }
        } catch (Throwable t) {
            return callFailed(t);
        }
        // Paper 003's path conditions read the input heap at the entry of the call (protocol v9).
        PathConditions.atEntry(s.cls, s.name, s.desc, recv, args);
        Object v;
        try {
            v = m.invoke(recv, args);
        } catch (InvocationTargetException e) {
            return sutThrew(e.getCause());
        } catch (IllegalArgumentException | IllegalAccessException | NullPointerException e) {
            return callFailed(e);
        } catch (Throwable t) {
            return sutThrew(t); // ExceptionInInitializerError and the like, from the SUT's <clinit>
        }
        if (m.getReturnType() == void.class) return Outcome.VOID;
        vars[index] = v;
        return summarise(v);
    }

    private Outcome field(Stmt s, Object[] vars, int index) {
        Field f;
        Object recv = null;
        try {
            f = fieldFor(s.cls, s.name, s.desc);
            if (!s.isStatic) {
                recv = s.recv == Protocol.NO_VAR ? null : vars[s.recv];
                if (recv == null) throw new NullPointerException("null receiver");
            }
        } catch (Throwable t) {
            return callFailed(t);
        }
        try {
            if (s.tag == Protocol.S_FIELD_SET) {
                f.set(recv, vars[s.value]);
                return Outcome.VOID;
            }
            Object v = f.get(recv);
            vars[index] = v;
            return summarise(v);
        } catch (IllegalArgumentException | IllegalAccessException | NullPointerException e) {
            return callFailed(e);
        } catch (Throwable t) {
            return sutThrew(t);
        }
    }

    /**
     * A stub: its class defined on first sight (crate stubgen made it), then its constructor
     * mirroring the superclass's, with the answers of each method as the last argument.
     */
    private Outcome stub(Stmt s, Object[] vars, int index) {
        Constructor<?> k;
        Object[] args;
        try {
            loader.defineStub(s.cls, s.bytes);
            int close = s.desc.indexOf(')');
            if (!s.desc.startsWith("(") || close < 0) throw new IllegalArgumentException("bad constructor " + s.desc);
            k = constructorFor(s.cls, "(" + s.desc.substring(1, close) + "[Ljava/lang/Object;)V");
            Object[] answers = new Object[s.stubDescs.length];
            for (int m = 0; m < answers.length; m++) {
                int[] vs = s.stubAnswers[m];
                Object[] values = new Object[vs.length];
                for (int i = 0; i < vs.length; i++) values[i] = vars[vs[i]];
                Stubs.Answers a = new Stubs.Answers(s.stubDescs[m], s.stubRuns[m], values);
                if (s.stubThrows[m] != Protocol.NO_VAR) a.willThrow(vars[s.stubThrows[m]]);
                answers[m] = a;
            }
            Object[] given = args(s, vars);
            args = java.util.Arrays.copyOf(given, given.length + 1);
            args[given.length] = answers;
        } catch (Throwable t) {
            return callFailed(t);
        }
        return instantiate(k, args, vars, index);
    }

    /** The folder below the scratch directory for a test's files (testcase's `SCRATCH_FOLDER`). */
    static final String SCRATCH_FOLDER = "suitesmith-files";

    /** `java.io.tmpdir` when it lies in the scratch directory (the workers' does), else null. */
    private java.io.File tmpDir;

    /** Whether {@link #tmpDir} has been read (at the first statement: the guards know the scratch directory by then). */
    private boolean tmpDirRead;

    /**
     * The modification time (ms) {@link #tmpDir} had when it was last listed empty, read before
     * that listing, and the wall clock (ms) just before the read; {@code Long.MIN_VALUE} when
     * unknown. Adding or removing an entry sets a directory's modification time to the kernel's
     * coarse clock, at most one tick (a few ms) behind the wall clock. So once the recorded time
     * is more than {@link #QUIET_MS} older than the clock reading, any later change gives a later
     * time, and an unchanged time proves the directory still empty: one {@code stat} instead of
     * a listing. While the time is recent the directory is listed. Either way the answer is the
     * listing's, so runs stay deterministic.
     */
    private long tmpDirStamp = Long.MIN_VALUE;

    private long tmpDirStampRead;

    /** How much older than its reading a recorded modification time must be to be trusted. */
    private static final long QUIET_MS = 1000;

    /** Whether a statement of this tag may run code of the SUT or the JDK (and so make a file). */
    private static boolean runsCode(int tag) {
        switch (tag) {
            case Protocol.S_PRIMITIVE:
            case Protocol.S_STRING:
            case Protocol.S_NULL:
            case Protocol.S_NEW_ARRAY:
            case Protocol.S_ARRAY_STORE:
            case Protocol.S_ARRAY_LOAD:
            case Protocol.S_COPY:
            case Protocol.S_CLASS_LITERAL:
            case Protocol.S_MUTANT:
                return false;
            default:
                return true;
        }
    }

    /**
     * Removes what the statement just run left in {@code java.io.tmpdir}, and says so: a guard
     * refusal, so that the test is cut before the statement. A worker's temporary
     * directory is its own, but for the user it is the machine's /tmp: a written test whose code
     * under test keeps a temporary file (Guava's {@code Files.createTempDir()}) would leave it there,
     * and verification drops any test that leaves a file behind. Seen here, at the statement that
     * made it, the search learns to get its files elsewhere (the test's own folder), and a test
     * loses only that statement and what follows, not everything. It also keeps tests from seeing
     * what earlier tests left, so that same-seed runs with 1 and 2 workers agree. A file a statement
     * makes and deletes itself is no litter; one kept for a later statement to delete is (checking
     * after the statement is what shows which statement made it). Listing the directory after
     * every call cost up to 46 % of the executions of classes with cheap methods: it is listed
     * after a statement during which a guard let a file operation through ({@code wrote}), and
     * after the last statement only when a {@code stat} does not prove it empty
     * ({@link #tmpDirStamp}).
     */
    private String litter(boolean wrote) {
        if (!tmpDirRead) {
            tmpDirRead = true;
            java.io.File t = new java.io.File(System.getProperty("java.io.tmpdir", ""));
            if (t.isAbsolute() && t.isDirectory() && Guards.inScratch(t)) tmpDir = t;
        }
        if (tmpDir == null) return null;
        long before = System.currentTimeMillis();
        long stamp = tmpDir.lastModified();
        // Gone (removed past every guard, by JDK code they do not see): made again, so that no later
        // test sees what this one did to it. The stat that tells is the one this check makes anyway.
        if (stamp == 0 && !tmpDir.isDirectory()) tmpDir.mkdirs();
        if (!wrote && stamp != 0 && stamp == tmpDirStamp && tmpDirStampRead - stamp > QUIET_MS) return null;
        String[] names = tmpDir.list();
        if (names == null || names.length == 0) {
            tmpDirStamp = stamp == 0 ? Long.MIN_VALUE : stamp;
            tmpDirStampRead = before;
            return null;
        }
        tmpDirStamp = Long.MIN_VALUE;
        for (String n : names) {
            try {
                deleteTree(new java.io.File(tmpDir, n).toPath());
            } catch (IOException | RuntimeException e) {
                // Seen again (and refused again) after the next statement.
            }
        }
        // No name in the text: a JDK-made temporary name is random, and the refusal is data.
        return "a file left in java.io.tmpdir";
    }

    /** Whether this test's scratch folder has been emptied (at its first scratch file). */
    private boolean scratchFolderReady;

    /**
     * A file, directory or missing name in the test's scratch folder, which is
     * emptied at the test's first one, so that what an earlier test left there is gone. The
     * written test makes the same in its TemporaryFolder / @TempDir.
     */
    private Outcome scratchFile(Stmt s, Object[] vars, int index) {
        Object v;
        try {
            String dir = Guards.scratchDir();
            if (dir == null) throw new IOException("no scratch directory");
            java.nio.file.Path root = java.nio.file.Paths.get(dir, SCRATCH_FOLDER);
            if (!scratchFolderReady) {
                deleteTree(root);
                java.nio.file.Files.createDirectories(root);
                scratchFolderReady = true;
            }
            java.nio.file.Path p = root.resolve(s.name);
            byte[] bytes = s.contents.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (s.fileKind == 0) {
                java.nio.file.Files.write(p, bytes);
            } else if (s.fileKind == 1) {
                java.nio.file.Files.createDirectory(p);
                if (bytes.length > 0) java.nio.file.Files.write(p.resolve("data.txt"), bytes);
            }
            v = s.asPath ? p : p.toFile();
        } catch (Throwable t) {
            return callFailed(t);
        }
        vars[index] = v;
        return summarise(v);
    }

    /** Deletes `p` and everything below it, never following a symbolic link out of it. */
    private static void deleteTree(java.nio.file.Path p) throws IOException {
        if (!java.nio.file.Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        if (java.nio.file.Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // A test may have made a directory read-only: its entries could not be removed.
            p.toFile().setWritable(true);
            p.toFile().setExecutable(true);
            try (java.nio.file.DirectoryStream<java.nio.file.Path> ds = java.nio.file.Files.newDirectoryStream(p)) {
                for (java.nio.file.Path c : ds) deleteTree(c);
            }
        }
        java.nio.file.Files.delete(p);
    }

    private static Object[] args(Stmt s, Object[] vars) {
        Object[] a = new Object[s.args.length];
        for (int i = 0; i < a.length; i++) a[i] = vars[s.args[i]];
        return a;
    }

    static Object box(int prim, long bits) {
        switch (prim) {
            case 'Z': return bits != 0;
            case 'B': return (byte) bits;
            case 'C': return (char) bits;
            case 'S': return (short) bits;
            case 'I': return (int) bits;
            case 'J': return bits;
            case 'F': return Float.intBitsToFloat((int) bits);
            default: return Double.longBitsToDouble(bits);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Resolution (cached).

    private Class<?> classFor(String binaryName) throws ClassNotFoundException {
        Class<?> c = classes.get(binaryName);
        if (c == null) {
            c = Class.forName(binaryName, false, loader);
            classes.put(binaryName, c);
        }
        return c;
    }

    /** The class of a field descriptor (JVMS §4.3.2). */
    private Class<?> typeOf(String desc) throws ClassNotFoundException {
        if (desc.length() == 1) {
            switch (desc.charAt(0)) {
                case 'Z': return boolean.class;
                case 'B': return byte.class;
                case 'C': return char.class;
                case 'S': return short.class;
                case 'I': return int.class;
                case 'J': return long.class;
                case 'F': return float.class;
                case 'D': return double.class;
                case 'V': return void.class;
                default: break;
            }
        }
        if (desc.startsWith("L") && desc.endsWith(";")) return classFor(desc.substring(1, desc.length() - 1).replace('/', '.'));
        if (desc.startsWith("[")) return classFor(desc.replace('/', '.'));
        throw new ClassNotFoundException("bad descriptor " + desc);
    }

    /** Parameter types then return type of a method descriptor. */
    private Class<?>[] signature(String desc) throws ClassNotFoundException {
        if (!desc.startsWith("(")) throw new ClassNotFoundException("bad method descriptor " + desc);
        List<Class<?>> types = new ArrayList<Class<?>>();
        int i = 1;
        while (i < desc.length() && desc.charAt(i) != ')') {
            int start = i;
            while (desc.charAt(i) == '[') i++;
            if (desc.charAt(i) == 'L') {
                i = desc.indexOf(';', i);
                if (i < 0) throw new ClassNotFoundException("bad method descriptor " + desc);
            }
            i++;
            types.add(typeOf(desc.substring(start, i)));
        }
        if (i >= desc.length()) throw new ClassNotFoundException("bad method descriptor " + desc);
        types.add(typeOf(desc.substring(i + 1)));
        return types.toArray(new Class<?>[0]);
    }

    private static void accessible(AccessibleObject o) {
        try {
            o.setAccessible(true);
        } catch (RuntimeException e) {
            // InaccessibleObjectException (Java 9+ modules) or SecurityException: public members of
            // exported packages still work without it, the rest fail as IllegalAccessException.
        }
    }

    private Constructor<?> constructorFor(String cls, String desc) throws ReflectiveOperationException {
        String key = "C" + cls + "." + desc;
        Constructor<?> k = (Constructor<?>) members.get(key);
        if (k == null) {
            Class<?>[] sig = signature(desc);
            Class<?>[] params = java.util.Arrays.copyOf(sig, sig.length - 1);
            k = classFor(cls).getDeclaredConstructor(params);
            accessible(k);
            members.put(key, k);
        }
        return k;
    }

    private Method methodFor(String cls, String name, String desc) throws ReflectiveOperationException {
        String key = "M" + cls + "." + name + desc;
        Method m = (Method) members.get(key);
        if (m == null) {
            Class<?>[] sig = signature(desc);
            Class<?>[] params = java.util.Arrays.copyOf(sig, sig.length - 1);
            Class<?> ret = sig[sig.length - 1];
            m = findMethod(classFor(cls), name, params, ret);
            if (m == null) throw new NoSuchMethodException(cls + "." + name + desc);
            accessible(m);
            members.put(key, m);
        }
        return m;
    }

    /** Looks in the class, its superclasses, then its interfaces (default and static methods). */
    private static Method findMethod(Class<?> c, String name, Class<?>[] params, Class<?> ret) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Method m = declared(k, name, params, ret);
            if (m != null) return m;
        }
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                Method m = findMethod(i, name, params, ret);
                if (m != null) return m;
            }
        }
        return null;
    }

    private static Method declared(Class<?> k, String name, Class<?>[] params, Class<?> ret) {
        for (Method m : k.getDeclaredMethods()) {
            if (m.getName().equals(name) && m.getReturnType() == ret
                && java.util.Arrays.equals(m.getParameterTypes(), params)) {
                return m;
            }
        }
        return null;
    }

    private Field fieldFor(String cls, String name, String desc) throws ReflectiveOperationException {
        String key = "F" + cls + "." + name + ":" + desc;
        Field f = (Field) members.get(key);
        if (f == null) {
            Class<?> type = typeOf(desc);
            f = findField(classFor(cls), name, type);
            if (f == null) throw new NoSuchFieldException(cls + "." + name + ":" + desc);
            accessible(f);
            members.put(key, f);
        }
        return f;
    }

    private static Field findField(Class<?> c, String name, Class<?> type) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (f.getName().equals(name) && f.getType() == type) return f;
            }
            for (Class<?> i : k.getInterfaces()) {
                Field f = findField(i, name, type);
                if (f != null) return f;
            }
        }
        return null;
    }
}
