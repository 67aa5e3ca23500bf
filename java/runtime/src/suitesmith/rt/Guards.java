/**
 * Replacements for calls that would escape a test or make it non-deterministic (DESIGN.md §3.4).
 * Instrumentation redirects each call listed in `crates/rt-abi` `REDIRECTS` to the public static
 * method here with the same name and descriptor; a Rust test checks the compiled class against that
 * table.
 *
 * Policy:
 * - Process exit, halt, process creation and shutdown hooks throw {@link GuardException} (an Error,
 *   see there).
 * - Thread starts are counted per test; beyond `max_threads` they throw GuardException, otherwise the
 *   thread is made a daemon (so it cannot keep the worker alive) and started.
 * - Files: writes, creations, renames and deletes are allowed only under the scratch directory
 *   (canonical paths, so `..` and symlinks cannot escape). Outside it the guard fails the way the JDK
 *   reports a permission problem (`false` for the boolean File methods, FileNotFoundException /
 *   AccessDeniedException / IOException otherwise), so the SUT's own error handling runs.
 * - Files through java.nio.file: {@link GuardedFileSystemProvider}, the default provider of every
 *   JVM that runs code under test, refuses the same way whatever the call site; the nio guards
 *   below remain for call sites the instrumenter sees. A denial by the operating system's sandbox
 *   outside scratch counts as a refusal ({@link Denials}).
 * - Reflection and method handles onto any redirected method end in its guard ({@link Reflective}).
 * - Network: connects and server sockets fail with {@link ConnectException}, an IOException the SUT
 *   is written to handle; `file:` and `jar:` URLs (reads) are allowed.
 * - Time advances by 1 ms per query from `time_base_ms`; seeds, Math.random and UUIDs come from a
 *   per-test deterministic sequence. All of it restarts at every test ({@link #beginTest}).
 *
 * Every refusal is recorded ({@link #fired}), first one wins: the test's outcome is Guard even if the
 * SUT caught the exception or ignored the `false`.
 *
 * Verification mode ({@link #VERIFYING}): the same redirections in a plain JVM that runs the written
 * JUnit tests (suitesmith.tools.RunTests), configured from system properties instead of a Setup.
 */
package suitesmith.rt;

import java.io.BufferedWriter;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.Charset;
import java.nio.file.AccessDeniedException;
import java.nio.file.CopyOption;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

public final class Guards {
    private Guards() {}

    /** Seed of the per-test Random behind Math.random and UUID.randomUUID. */
    private static final long RANDOM_SEED = 0x5EED5EED5EEDL;

    // Configuration (Setup).
    private static volatile long timeBaseMs = 1_700_000_000_000L;
    private static volatile int maxThreads = 100;
    private static volatile String scratch = null; // canonical path, no trailing separator
    /** The stand-ins for the user's own directories below the scratch directory (see {@link #inScratch}). */
    private static volatile String[] userDirs = new String[0];
    /**
     * The scratch directory itself and the temporary directory ({@code java.io.tmpdir}, canonical) when
     * it lies below it: files may be made in them, but the directories themselves may not be deleted,
     * renamed or changed. For the user they are the machine's /tmp (a written test that deletes it would
     * delete everything the user may there), and a worker whose temporary directory a test removed would
     * show every later test a different machine.
     */
    private static volatile String[] fixedDirs = new String[0];

    // Per-test state.
    private static final AtomicLong tick = new AtomicLong();
    private static final AtomicLong seeds = new AtomicLong();
    private static final Random random = new Random(RANDOM_SEED);
    private static volatile String fired;
    private static final List<Thread> started = new ArrayList<Thread>();

    /** The system property that turns verification mode on and names its scratch directory. */
    public static final String VERIFY_SCRATCH_PROPERTY = "suitesmith.verify.scratch";

    /**
     * Verification mode: the engine's verification runs the written tests in plain JVMs against
     * guard-instrumented classes under test, with {@code -Dsuitesmith.verify.scratch=DIR}. There the
     * escape guards (exit, halt, exec, files outside DIR, sockets, the thread limit) refuse exactly as
     * in a worker, so a test that would act on the user's machine fails instead. The determinism
     * redirections (clock, seeds of {@code new Random()}, Math.random, UUIDs) pass through to the JDK:
     * verification exists to catch assertions on values that differ from run to run for the user, and
     * the workers' fixed clock and seeded sequences would make exactly those pass every run.
     */
    static final boolean VERIFYING;

    static {
        String dir = null;
        try {
            dir = System.getProperty(VERIFY_SCRATCH_PROPERTY);
        } catch (RuntimeException e) {
            dir = null; // a security manager forbids reading properties: not a verification run
        }
        boolean verifying = false;
        if (dir != null && !dir.isEmpty()) {
            try {
                scratch = new File(dir).getCanonicalPath();
                userDirs = userDirsBelow(scratch);
        fixedDirs = fixedDirsOf(scratch);
                fixedDirs = fixedDirsOf(scratch);
                verifying = true;
            } catch (IOException e) {
                // No usable scratch: scratch stays null, so every file write outside is refused.
                verifying = true;
            }
        }
        VERIFYING = verifying;
    }

    /** Whether this JVM runs in verification mode (for RunTests, in another package). */
    public static boolean verifying() {
        return VERIFYING;
    }

    /** Verification mode: a JUnit test starts (RunTests); see {@link #beginTest}. */
    public static void beginVerifiedTest() {
        beginTest();
    }

    /** Verification mode: the first refusal since {@link #beginVerifiedTest}, or null. */
    public static String verifiedTestFired() {
        return fired;
    }

    /**
     * Verification mode: a test failed with {@code t}. A denial by the operating system outside the
     * scratch directory in it ({@link Denials}) counts as a refusal: the test fails as a guarded
     * one, since the user, without a sandbox, would see the call succeed.
     */
    public static void verifiedTestThrew(Throwable t) {
        if (!VERIFYING || t == null) return;
        String denial = Denials.find(t);
        if (denial != null) record(denial);
    }

    /** The canonical scratch directory, or null when there is none. */
    static String scratchDir() {
        return scratch;
    }

    static void configure(long timeBase, int threads, String scratchDir) throws IOException {
        timeBaseMs = timeBase;
        maxThreads = threads;
        scratch = new File(scratchDir).getCanonicalPath();
        userDirs = userDirsBelow(scratch);
        beginTest();
    }

    /** Restarts time, seeds and thread counting, and forgets the last refusal. */
    static void beginTest() {
        tempFiles.set(0);
        tick.set(0);
        seeds.set(0);
        random.setSeed(RANDOM_SEED);
        fired = null;
        synchronized (started) {
            started.clear();
        }
    }

    /** The first refusal of this test, or null. */
    static String fired() {
        return fired;
    }

    /** Threads this test started through {@link #threadStart} (a copy). */
    static List<Thread> startedThreads() {
        synchronized (started) {
            return new ArrayList<Thread>(started);
        }
    }

    private static void record(String what) {
        if (fired == null) {
            String shown = shown(what);
            synchronized (Guards.class) {
                if (fired == null) fired = shown;
            }
        }
    }

    /** Records a refusal made elsewhere in the runtime (the file system provider, an OS denial). */
    static void recordRefusal(String what) {
        record(what);
    }

    private static GuardException refuse(String what) {
        record(what);
        return new GuardException(shown(what));
    }

    /**
     * A refusal as the engine reports it: a path in the scratch directory (a name made absolute
     * from the working directory) shows as {@code <scratch>/...}, so that the report does not
     * depend on which worker, with its random directory name, ran the test.
     */
    private static String shown(String what) {
        String root = scratch;
        return root == null ? what : what.replace(root, "<scratch>");
    }

    // ---------------------------------------------------------------------------------------------
    // String comparisons: compare as the JDK does (a null receiver throws the same
    // NullPointerException), and record the strings for the engine's dynamic value pool.

    // The boolean tests also hand their operands to `StringTests`, which files them under the
    // branch probe that tests the result (docs/strings.md): the engine grades how far the
    // operands are from the other outcome.

    public static boolean stringEquals(String s, Object other) {
        boolean r = s.equals(other);
        Tracer.observeStrings(s, other);
        if (other instanceof String) StringTests.compared(StringTests.EQUALS, 0, s, (String) other);
        return r;
    }

    public static boolean stringEqualsIgnoreCase(String s, String other) {
        boolean r = s.equalsIgnoreCase(other);
        Tracer.observeStrings(s, other);
        StringTests.compared(StringTests.EQUALS_IGNORE_CASE, 0, s, other);
        return r;
    }

    public static boolean stringStartsWith(String s, String prefix) {
        boolean r = s.startsWith(prefix);
        Tracer.observeStrings(s, prefix);
        StringTests.compared(StringTests.STARTS_WITH, 0, s, prefix);
        return r;
    }

    public static boolean stringEndsWith(String s, String suffix) {
        boolean r = s.endsWith(suffix);
        Tracer.observeStrings(s, suffix);
        StringTests.compared(StringTests.ENDS_WITH, 0, s, suffix);
        return r;
    }

    public static boolean stringContains(String s, CharSequence part) {
        boolean r = s.contains(part);
        Tracer.observeStrings(s, part);
        StringTests.compared(StringTests.CONTAINS, 0, s, part.toString());
        return r;
    }

    public static boolean stringMatches(String s, String regex) {
        boolean r = s.matches(regex);
        StringTests.compared(StringTests.MATCHES, 0, s, regex);
        return r;
    }

    public static boolean patternMatches(String regex, CharSequence input) {
        boolean r = java.util.regex.Pattern.matches(regex, input);
        StringTests.compared(StringTests.MATCHES, 0, input.toString(), regex);
        return r;
    }

    public static java.util.regex.Matcher patternMatcher(java.util.regex.Pattern p, CharSequence input) {
        return StringTests.matcher(p, input);
    }

    public static boolean matcherMatches(java.util.regex.Matcher m) {
        boolean r = m.matches();
        StringTests.matcherMatched(m);
        return r;
    }

    public static boolean stringRegionMatches(String s, int offset, String other, int otherOffset, int len) {
        boolean r = s.regionMatches(offset, other, otherOffset, len);
        StringTests.regionMatched(s, false, offset, other, otherOffset, len);
        return r;
    }

    public static boolean stringRegionMatchesCase(
            String s, boolean ignoreCase, int offset, String other, int otherOffset, int len) {
        boolean r = s.regionMatches(ignoreCase, offset, other, otherOffset, len);
        StringTests.regionMatched(s, ignoreCase, offset, other, otherOffset, len);
        return r;
    }

    public static int stringCompareTo(String s, String other) {
        int r = s.compareTo(other);
        Tracer.observeStrings(s, other);
        return r;
    }

    public static int stringCompareToIgnoreCase(String s, String other) {
        int r = s.compareToIgnoreCase(other);
        Tracer.observeStrings(s, other);
        return r;
    }

    /** Thrown by the tracer when a test exceeds its probe-hit limit (a runaway loop). */
    static GuardException tooManyProbeHits(long limit) {
        return refuse("more than " + limit + " probe hits in one test (runaway loop)");
    }

    // ---------------------------------------------------------------------------------------------
    // Process exit and process creation.

    public static void systemExit(int status) {
        throw refuse("System.exit(" + status + ")");
    }

    public static void runtimeExit(Runtime rt, int status) {
        throw refuse("Runtime.exit(" + status + ")");
    }

    public static void runtimeHalt(Runtime rt, int status) {
        throw refuse("Runtime.halt(" + status + ")");
    }

    /** A hook would run at the JVM's exit, after the test, outside any guard's reach. */
    public static void runtimeAddShutdownHook(Runtime rt, Thread hook) {
        throw refuse("Runtime.addShutdownHook(" + (hook == null ? "null" : hook.getName()) + ")");
    }

    public static Process runtimeExec(Runtime rt, String command) {
        throw refuse("Runtime.exec(" + command + ")");
    }

    public static Process runtimeExec(Runtime rt, String[] command) {
        throw refuse("Runtime.exec(" + (command == null ? "null" : Arrays.toString(command)) + ")");
    }

    public static Process runtimeExec(Runtime rt, String command, String[] env) {
        return runtimeExec(rt, command);
    }

    public static Process runtimeExec(Runtime rt, String[] command, String[] env) {
        return runtimeExec(rt, command);
    }

    public static Process runtimeExec(Runtime rt, String command, String[] env, File dir) {
        return runtimeExec(rt, command);
    }

    public static Process runtimeExec(Runtime rt, String[] command, String[] env, File dir) {
        return runtimeExec(rt, command);
    }

    public static Process processBuilderStart(ProcessBuilder pb) {
        throw refuse("ProcessBuilder.start(" + pb.command() + ")");
    }

    // ---------------------------------------------------------------------------------------------
    // Threads.

    public static void threadStart(Thread t) {
        if (t == null) throw new NullPointerException();
        synchronized (started) {
            if (started.size() >= maxThreads) {
                throw refuse("Thread.start: more than " + maxThreads + " threads");
            }
            if (!t.isAlive()) {
                try {
                    t.setDaemon(true);
                } catch (IllegalThreadStateException alreadyStarted) {
                    // start() below throws the exception the SUT expects.
                }
            }
            t.start();
            started.add(t);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Time and randomness.

    public static long currentTimeMillis() {
        if (VERIFYING) return System.currentTimeMillis();
        return timeBaseMs + tick.getAndIncrement();
    }

    public static long nanoTime() {
        if (VERIFYING) return System.nanoTime();
        return (timeBaseMs + tick.getAndIncrement()) * 1_000_000L;
    }

    /** Replaces the seed of `new Random()`: a per-test sequence (SplitMix64 of a counter). */
    public static long randomSeed() {
        // As `new Random()` seeds itself: different in every JVM and every call.
        if (VERIFYING) return ThreadLocalRandom.current().nextLong() ^ System.nanoTime();
        long z = seeds.incrementAndGet() * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static double mathRandom() {
        if (VERIFYING) return Math.random();
        return random.nextDouble();
    }

    public static UUID randomUUID() {
        if (VERIFYING) return UUID.randomUUID();
        byte[] b = new byte[16];
        random.nextBytes(b);
        b[6] = (byte) ((b[6] & 0x0f) | 0x40); // version 4
        b[8] = (byte) ((b[8] & 0x3f) | 0x80); // IETF variant
        long msb = 0, lsb = 0;
        for (int i = 0; i < 8; i++) msb = (msb << 8) | (b[i] & 0xff);
        for (int i = 8; i < 16; i++) lsb = (lsb << 8) | (b[i] & 0xff);
        return new UUID(msb, lsb);
    }

    /** The "system" clock: UTC, and it advances with {@link #currentTimeMillis}. */
    public static Clock clock() {
        // Clock.systemUTC and systemDefaultZone both come here. Verification answers with the default
        // zone: an assertion on a UTC clock's zone is then removed in vain in some run, which only
        // loses an assertion; answering UTC would keep a zone assertion that fails for the user.
        if (VERIFYING) return Clock.systemDefaultZone();
        return new GuardClock(ZoneOffset.UTC);
    }

    public static Instant instantNow() {
        if (VERIFYING) return Instant.now();
        return Instant.ofEpochMilli(currentTimeMillis());
    }

    public static LocalDateTime localDateTimeNow() {
        if (VERIFYING) return LocalDateTime.now();
        return LocalDateTime.ofInstant(instantNow(), ZoneOffset.UTC);
    }

    public static LocalDate localDateNow() {
        if (VERIFYING) return LocalDate.now();
        return localDateTimeNow().toLocalDate();
    }

    /** A Clock over the guarded time; Java 8 has no public ticking-clock factory we could reuse. */
    static final class GuardClock extends Clock {
        private final ZoneId zone;

        GuardClock(ZoneId zone) {
            this.zone = zone;
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId z) {
            return new GuardClock(z);
        }

        @Override
        public Instant instant() {
            return instantNow();
        }

        @Override
        public long millis() {
            return currentTimeMillis();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Files.

    /**
     * Whether a path is the scratch directory or below it, after canonicalisation, and not in one of
     * the {@link #userDirsBelow stand-ins for the user's directories} there. A relative path
     * never is: in the workers it resolves against a directory inside the scratch directory, but in
     * a written test it names a file in the user's working directory (their project), so a write,
     * rename or delete by a relative name is refused and recorded, and the test is cut before it.
     */
    static boolean inScratch(File f) {
        String root = scratch;
        if (root == null || f == null || !f.isAbsolute()) return false;
        try {
            return allowed(f.getCanonicalPath(), root);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether canonical path {@code p} is below {@code root} and in no user directory; notes an allowed write. */
    private static boolean allowed(String p, String root) {
        if (!below(p, root)) return false;
        for (String user : userDirs) {
            if (below(p, user)) return false;
        }
        allowedWrite.set(true);
        return true;
    }

    /**
     * Set whenever a guard lets a file operation through (every write-side guard asks
     * {@link #inScratch(File)} first): the executor then lists {@code java.io.tmpdir} after the
     * statement, to find what it left there.
     */
    private static final java.util.concurrent.atomic.AtomicBoolean allowedWrite =
        new java.util.concurrent.atomic.AtomicBoolean();

    /** Whether a guard let a file operation through since the last call. */
    static boolean takeAllowedWrite() {
        return allowedWrite.getAndSet(false);
    }

    /** Whether canonical path {@code p} is {@code dir} or below it. */
    private static boolean below(String p, String dir) {
        return p.equals(dir) || p.startsWith(dir + File.separator);
    }

    /**
     * The working and home directories ({@code user.dir}, {@code user.home}) that lie below the
     * scratch directory {@code root}, canonical, read once at configuration (a test that sets the
     * properties later changes nothing). The workers and verification run with their working
     * directory (and verification with its home) inside the scratch directory, where for the user
     * those are the project and {@code ~}. A name made absolute from the working directory
     * ({@code new File("pom.xml").getAbsoluteFile()}, {@code Paths.get("x").toAbsolutePath()}) is
     * therefore refused in both, as a relative name is, instead of being allowed there and acting on
     * the user's project in the written test. A directory outside the scratch directory needs no
     * entry: everything outside is refused anyway.
     */
    /** Whether {@code f} is the scratch or the temporary directory itself ({@link #fixedDirs}). */
    static boolean isFixed(File f) {
        try {
            String c = f.getCanonicalPath();
            for (String fixed : fixedDirs) {
                if (c.equals(fixed)) return true;
            }
        } catch (IOException | RuntimeException e) {
            // Unresolvable: not one of them.
        }
        return false;
    }

    private static String[] fixedDirsOf(String root) {
        List<String> dirs = new ArrayList<String>();
        dirs.add(root);
        try {
            String t = System.getProperty("java.io.tmpdir");
            if (t != null && !t.isEmpty()) {
                String c = new File(t).getCanonicalPath();
                if (below(c, root)) dirs.add(c);
            }
        } catch (IOException | RuntimeException e) {
            // Unresolvable: nothing more to keep.
        }
        return dirs.toArray(new String[0]);
    }

    private static String[] userDirsBelow(String root) {
        List<String> dirs = new ArrayList<String>();
        for (String property : new String[] {"user.dir", "user.home"}) {
            try {
                String d = System.getProperty(property);
                if (d == null || d.isEmpty()) continue;
                String c = new File(d).getCanonicalPath();
                if (!c.equals(root) && below(c, root)) dirs.add(c);
            } catch (IOException | RuntimeException e) {
                // Unreadable or unresolvable: no stand-in to protect.
            }
        }
        return dirs.toArray(new String[0]);
    }

    /**
     * Whether the directory entry {@code f} names is in the scratch directory: its parent after
     * canonicalisation, and its own name, not followed. What deleting, renaming or linking acts on,
     * so that a symbolic link in the scratch directory that points out may be removed (its target
     * stays), while a write through it is checked where it leads ({@link #inScratch(File)}).
     */
    static boolean entryInScratch(File f) {
        if (f == null || !f.isAbsolute() || isFixed(f)) return false;
        String name = f.getName();
        File parent = f.getParentFile();
        if (parent == null || name.isEmpty() || name.equals(".") || name.equals("..")) return inScratch(f);
        String root = scratch;
        if (root == null) return false;
        try {
            return allowed(parent.getCanonicalPath() + File.separator + name, root);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Records a refused file operation {@code what} on {@code p}; the exception to throw. */
    static AccessDeniedException refusedPath(String what, Path p) {
        return deniedPath(what, p);
    }

    static boolean inScratch(Path p) {
        if (p == null || p.getFileSystem() != FileSystems.getDefault()) return false;
        try {
            return inScratch(p.toFile());
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    public static boolean fileDelete(File f) {
        if (inScratch(f) && !isFixed(f)) return f.delete();
        record("File.delete(" + f + ")");
        return false;
    }

    public static boolean fileCreateNewFile(File f) throws IOException {
        if (inScratch(f)) return f.createNewFile();
        record("File.createNewFile(" + f + ")");
        throw new IOException("Permission denied");
    }

    // Temporary files: only in the scratch directory (the workers' `java.io.tmpdir` points into it).
    // In the workers a test's temporary files are named `prefix` + a per-test counter + `suffix`, not
    // by the JDK's random number, so that same-seed runs see the same names; in verification mode
    // the JDK makes them, as it will for the user (an assertion on a name then fails and goes).

    /** Temporary files and directories made by the running test. */
    private static final AtomicLong tempFiles = new AtomicLong();

    private static File tmpdir() {
        return new File(System.getProperty("java.io.tmpdir"));
    }

    public static File fileCreateTempFile(String prefix, String suffix) throws IOException {
        return createTempFile(prefix, suffix, null);
    }

    public static File fileCreateTempFile(String prefix, String suffix, File dir) throws IOException {
        return createTempFile(prefix, suffix, dir);
    }

    private static File createTempFile(String prefix, String suffix, File dir) throws IOException {
        File where = dir != null ? dir : tmpdir();
        if (!inScratch(where)) {
            record("File.createTempFile(" + where + ")");
            throw new IOException("Permission denied");
        }
        if (VERIFYING) return File.createTempFile(prefix, suffix, dir);
        if (prefix.length() < 3) {
            throw new IllegalArgumentException("Prefix string \"" + prefix + "\" too short: length must be at least 3");
        }
        String end = suffix == null ? ".tmp" : suffix;
        while (true) {
            String name = prefix + tempFiles.incrementAndGet() + end;
            File f = new File(where, name);
            if (name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
                throw new IOException("Unable to create temporary file, " + f);
            }
            if (f.createNewFile()) return f;
        }
    }

    public static Path filesCreateTempFile(String prefix, String suffix, FileAttribute<?>[] attrs) throws IOException {
        return createTemp(null, prefix, suffix, false, attrs);
    }

    public static Path filesCreateTempFile(Path dir, String prefix, String suffix, FileAttribute<?>[] attrs)
        throws IOException {
        return createTemp(java.util.Objects.requireNonNull(dir), prefix, suffix, false, attrs);
    }

    public static Path filesCreateTempDirectory(String prefix, FileAttribute<?>[] attrs) throws IOException {
        return createTemp(null, prefix, null, true, attrs);
    }

    public static Path filesCreateTempDirectory(Path dir, String prefix, FileAttribute<?>[] attrs) throws IOException {
        return createTemp(java.util.Objects.requireNonNull(dir), prefix, null, true, attrs);
    }

    private static Path createTemp(Path dir, String prefix, String suffix, boolean directory, FileAttribute<?>[] attrs)
        throws IOException {
        Path where = dir != null ? dir : tmpdir().toPath();
        if (!inScratch(where)) {
            record((directory ? "Files.createTempDirectory(" : "Files.createTempFile(") + where + ")");
            throw new AccessDeniedException(String.valueOf(where));
        }
        if (VERIFYING) {
            if (directory) {
                return dir == null ? Files.createTempDirectory(prefix, attrs) : Files.createTempDirectory(dir, prefix, attrs);
            }
            return dir == null ? Files.createTempFile(prefix, suffix, attrs) : Files.createTempFile(dir, prefix, suffix, attrs);
        }
        String start = prefix == null ? "" : prefix;
        String end = suffix == null ? (directory ? "" : ".tmp") : suffix;
        if ((start + end).indexOf('/') >= 0) {
            throw new IllegalArgumentException("Invalid prefix or suffix");
        }
        while (true) {
            Path p = where.resolve(start + tempFiles.incrementAndGet() + end);
            try {
                return directory ? Files.createDirectory(p, attrs) : Files.createFile(p, attrs);
            } catch (java.nio.file.FileAlreadyExistsException taken) {
                // The next number.
            }
        }
    }

    public static boolean fileMkdir(File f) {
        if (inScratch(f)) return f.mkdir();
        record("File.mkdir(" + f + ")");
        return false;
    }

    public static boolean fileMkdirs(File f) {
        if (inScratch(f)) return f.mkdirs();
        record("File.mkdirs(" + f + ")");
        return false;
    }

    public static boolean fileRenameTo(File f, File dest) {
        if (dest == null) throw new NullPointerException();
        if (inScratch(f) && inScratch(dest) && !isFixed(f) && !isFixed(dest)) return f.renameTo(dest);
        record("File.renameTo(" + f + ", " + dest + ")");
        return false;
    }

    /**
     * Only an existing regular file in the scratch directory, other than verification's canary,
     * may be deleted at exit. The deletion happens after the test, when no check sees it, and
     * for the user a directory is theirs: commons-io's {@code forceDeleteOnExit(getTempDirectory())}
     * registers {@code java.io.tmpdir} and every file in it, and emptied the machine's /tmp when a
     * benchmark ran such a test. A name that exists nowhere here may exist for the user.
     */
    public static void fileDeleteOnExit(File f) {
        if (inScratch(f) && f.isFile() && !CANARY.equals(f.getName())) {
            f.deleteOnExit();
            return;
        }
        record("File.deleteOnExit(" + f + ")");
    }

    // Permissions and modification times: allowed in scratch; outside, `false` as the JDK answers
    // when it may not, and recorded.

    public static boolean fileSetReadOnly(final File f) {
        return fileMetadata("File.setReadOnly", f, () -> f.setReadOnly());
    }

    public static boolean fileSetLastModified(final File f, final long time) {
        if (f == null) throw new NullPointerException();
        if (time < 0) throw new IllegalArgumentException("Negative time");
        return fileMetadata("File.setLastModified", f, () -> f.setLastModified(time));
    }

    public static boolean fileSetWritable(File f, boolean on) {
        return fileSetWritable(f, on, true);
    }

    public static boolean fileSetWritable(final File f, final boolean on, final boolean ownerOnly) {
        return fileMetadata("File.setWritable", f, () -> f.setWritable(on, ownerOnly));
    }

    public static boolean fileSetReadable(File f, boolean on) {
        return fileSetReadable(f, on, true);
    }

    public static boolean fileSetReadable(final File f, final boolean on, final boolean ownerOnly) {
        return fileMetadata("File.setReadable", f, () -> f.setReadable(on, ownerOnly));
    }

    public static boolean fileSetExecutable(File f, boolean on) {
        return fileSetExecutable(f, on, true);
    }

    public static boolean fileSetExecutable(final File f, final boolean on, final boolean ownerOnly) {
        return fileMetadata("File.setExecutable", f, () -> f.setExecutable(on, ownerOnly));
    }

    /**
     * Runs {@code change} (a File permission or time setter) when {@code f} is in scratch; else records
     * {@code what}. In scratch, a setter that fails on a file that exists was refused by the sandbox's
     * seccomp filter (no chmod or utimes anywhere: crates/sandbox): the user's run would succeed, so it
     * is recorded as a refusal too, and no test is written that expects the {@code false}.
     */
    private static boolean fileMetadata(String what, File f, java.util.function.BooleanSupplier change) {
        if (f == null) throw new NullPointerException(); // as the call on a null receiver
        if (inScratch(f) && !isFixed(f)) {
            boolean done = change.getAsBoolean();
            if (!done && f.exists()) record(what + "(" + f + "): denied by the system");
            return done;
        }
        record(what + "(" + f + ")");
        return false;
    }

    /** The file verification keeps in each directory of its runs (`suitesmith.tools.RunTests.CANARY`). */
    public static final String CANARY = "suitesmith-canary";

    /** Checks the path argument of `new FileOutputStream(String)` / `new FileWriter(String)`. */
    public static String checkWritePath(String path) throws FileNotFoundException {
        if (path == null || inScratch(new File(path))) return path;
        record("write " + path);
        throw new FileNotFoundException(path + " (Permission denied)");
    }

    /** Checks the file argument of `new FileOutputStream(File)` / `new FileWriter(File)`. */
    public static File checkWriteFile(File f) throws FileNotFoundException {
        if (f == null || inScratch(f)) return f;
        record("write " + f);
        throw new FileNotFoundException(f + " (Permission denied)");
    }

    /**
     * Checks the mode of {@code new ZipFile(file, mode)} / {@code new JarFile(file, verify, mode)}:
     * with OPEN_DELETE the JDK unlinks the file as it opens it, through its own java.io call that no
     * redirect sees, so the mode is refused wherever the file is (the file is not at hand here).
     */
    public static int checkZipOpenMode(int mode) throws IOException {
        if ((mode & java.util.zip.ZipFile.OPEN_DELETE) == 0) return mode;
        record("ZipFile.OPEN_DELETE");
        throw new AccessDeniedException("ZipFile.OPEN_DELETE");
    }

    /** Before constructors whose target is neither the last argument nor below a one-slot last (RandomAccessFile). */
    public static void denyFileWrite() throws FileNotFoundException {
        record("file write");
        throw new FileNotFoundException("(Permission denied)");
    }

    public static void filesDelete(Path p) throws IOException {
        if (inScratch(p)) {
            Files.delete(p);
            return;
        }
        record("Files.delete(" + p + ")");
        throw new AccessDeniedException(String.valueOf(p));
    }

    public static boolean filesDeleteIfExists(Path p) throws IOException {
        if (inScratch(p)) return Files.deleteIfExists(p);
        record("Files.deleteIfExists(" + p + ")");
        throw new AccessDeniedException(String.valueOf(p));
    }

    public static Path filesWrite(Path p, byte[] bytes, OpenOption[] options) throws IOException {
        if (inScratch(p)) return Files.write(p, bytes, options);
        record("Files.write(" + p + ")");
        throw new AccessDeniedException(String.valueOf(p));
    }

    public static Path filesCreateFile(Path p, FileAttribute<?>[] attrs) throws IOException {
        if (inScratch(p)) return Files.createFile(p, attrs);
        record("Files.createFile(" + p + ")");
        throw new AccessDeniedException(String.valueOf(p));
    }

    public static Path filesWrite(Path p, Iterable<? extends CharSequence> lines, OpenOption[] options)
        throws IOException {
        if (inScratch(p)) return Files.write(p, lines, options);
        throw deniedPath("Files.write", p);
    }

    public static Path filesWrite(Path p, Iterable<? extends CharSequence> lines, Charset cs, OpenOption[] options)
        throws IOException {
        if (inScratch(p)) return Files.write(p, lines, cs, options);
        throw deniedPath("Files.write", p);
    }

    public static BufferedWriter filesNewBufferedWriter(Path p, OpenOption[] options) throws IOException {
        if (inScratch(p)) return Files.newBufferedWriter(p, Charset.forName("UTF-8"), options);
        throw deniedPath("Files.newBufferedWriter", p);
    }

    public static BufferedWriter filesNewBufferedWriter(Path p, Charset cs, OpenOption[] options) throws IOException {
        if (inScratch(p)) return Files.newBufferedWriter(p, cs, options);
        throw deniedPath("Files.newBufferedWriter", p);
    }

    public static Path filesCreateDirectory(Path p, FileAttribute<?>[] attrs) throws IOException {
        if (inScratch(p)) return Files.createDirectory(p, attrs);
        throw deniedPath("Files.createDirectory", p);
    }

    public static Path filesCreateDirectories(Path p, FileAttribute<?>[] attrs) throws IOException {
        if (inScratch(p)) return Files.createDirectories(p, attrs);
        throw deniedPath("Files.createDirectories", p);
    }

    /** A move deletes its source: both ends must be in scratch. */
    public static Path filesMove(Path from, Path to, CopyOption[] options) throws IOException {
        if (inScratch(from) && inScratch(to)) return Files.move(from, to, options);
        throw deniedPath("Files.move", inScratch(from) ? to : from);
    }

    public static Path filesCopy(Path from, Path to, CopyOption[] options) throws IOException {
        if (inScratch(to)) return Files.copy(from, to, options);
        throw deniedPath("Files.copy", to);
    }

    private static AccessDeniedException deniedPath(String what, Path p) {
        record(what + "(" + p + ")");
        return new AccessDeniedException(String.valueOf(p));
    }

    public static OutputStream filesNewOutputStream(Path p, OpenOption[] options) throws IOException {
        if (inScratch(p)) return Files.newOutputStream(p, options);
        record("Files.newOutputStream(" + p + ")");
        throw new AccessDeniedException(String.valueOf(p));
    }

    // ---------------------------------------------------------------------------------------------
    // Reflection and method handles onto a redirected method end in its guard (Reflective).

    public static Object methodInvoke(Method m, Object recv, Object[] args)
        throws IllegalAccessException, InvocationTargetException {
        return Reflective.invoke(m, recv, args);
    }

    public static Object constructorNewInstance(Constructor<?> k, Object[] args)
        throws InstantiationException, IllegalAccessException, InvocationTargetException {
        return Reflective.newInstance(k, args);
    }

    public static MethodHandle lookupFindStatic(MethodHandles.Lookup l, Class<?> c, String name, MethodType t)
        throws NoSuchMethodException, IllegalAccessException {
        return Reflective.findStatic(l, c, name, t);
    }

    public static MethodHandle lookupFindVirtual(MethodHandles.Lookup l, Class<?> c, String name, MethodType t)
        throws NoSuchMethodException, IllegalAccessException {
        return Reflective.findVirtual(l, c, name, t);
    }

    public static MethodHandle lookupFindConstructor(MethodHandles.Lookup l, Class<?> c, MethodType t)
        throws NoSuchMethodException, IllegalAccessException {
        return Reflective.findConstructor(l, c, t);
    }

    public static MethodHandle lookupUnreflect(MethodHandles.Lookup l, Method m) throws IllegalAccessException {
        return Reflective.unreflect(l, m);
    }

    public static MethodHandle lookupUnreflectConstructor(MethodHandles.Lookup l, Constructor<?> k)
        throws IllegalAccessException {
        return Reflective.unreflectConstructor(l, k);
    }

    // ---------------------------------------------------------------------------------------------
    // Network.

    private static ConnectException refuseNetwork(String what) {
        record(what);
        return new ConnectException("Connection refused (suitesmith: no network in tests)");
    }

    public static void socketConnect(Socket s, SocketAddress to) throws IOException {
        throw refuseNetwork("Socket.connect(" + to + ")");
    }

    public static void socketConnect(Socket s, SocketAddress to, int timeout) throws IOException {
        throw refuseNetwork("Socket.connect(" + to + ")");
    }

    /** Before `new Socket(host, port)`, `new Socket(InetAddress, port)`, `new ServerSocket(port)`. */
    public static void denyNetwork() throws IOException {
        throw refuseNetwork("socket");
    }

    private static boolean localUrl(URL u) {
        String p = u.getProtocol();
        // A jar: URL reads its inner URL, which must be local too.
        return "file".equals(p) || ("jar".equals(p) && u.getPath().startsWith("file:"));
    }

    public static URLConnection urlOpenConnection(URL u) throws IOException {
        if (localUrl(u)) return u.openConnection();
        throw refuseNetwork("URL.openConnection(" + u + ")");
    }

    public static InputStream urlOpenStream(URL u) throws IOException {
        if (localUrl(u)) return u.openStream();
        throw refuseNetwork("URL.openStream(" + u + ")");
    }
}
