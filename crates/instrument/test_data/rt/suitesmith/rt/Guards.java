/**
 * A test-only stand-in for java/runtime's guards: one public static method per guard named in
 * crates/rt-abi `REDIRECTS`, with the same descriptor. Escaping calls (exit, processes, file writes,
 * network) throw SecurityException; time and randomness return fixed values; threads start normally.
 * JDK only; compiled by the instrument crate's tests so that instrumented classes link and run.
 */
package suitesmith.rt;

import java.io.BufferedWriter;
import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.Charset;
import java.nio.file.CopyOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

public final class Guards {
    private Guards() {}

    /** The fixed instant every time guard reports: 2020-09-13T12:26:40Z. */
    private static final long NOW_MILLIS = 1_600_000_000_000L;

    private static SecurityException deny(String what) {
        return new SecurityException("suitesmith guard: " + what + " is not allowed in a test");
    }

    public static void systemExit(int status) { throw deny("System.exit(" + status + ")"); }
    public static void runtimeExit(Runtime r, int status) { throw deny("Runtime.exit(" + status + ")"); }
    public static void runtimeHalt(Runtime r, int status) { throw deny("Runtime.halt(" + status + ")"); }
    public static void runtimeAddShutdownHook(Runtime r, Thread hook) { throw deny("Runtime.addShutdownHook"); }
    public static Process runtimeExec(Runtime r, String command) { throw deny("Runtime.exec"); }
    public static Process runtimeExec(Runtime r, String[] command) { throw deny("Runtime.exec"); }
    public static Process runtimeExec(Runtime r, String command, String[] env) { throw deny("Runtime.exec"); }
    public static Process runtimeExec(Runtime r, String[] command, String[] env) { throw deny("Runtime.exec"); }
    public static Process runtimeExec(Runtime r, String command, String[] env, File dir) { throw deny("Runtime.exec"); }
    public static Process runtimeExec(Runtime r, String[] command, String[] env, File dir) { throw deny("Runtime.exec"); }
    public static Process processBuilderStart(ProcessBuilder b) { throw deny("ProcessBuilder.start"); }
    public static void threadStart(Thread t) { t.start(); }

    public static long currentTimeMillis() { return NOW_MILLIS; }
    public static long nanoTime() { return NOW_MILLIS * 1_000_000L; }
    public static double mathRandom() { return 0.5; }
    public static UUID randomUUID() { return new UUID(0x5175_17e5_0000_0000L, 1L); }
    public static Clock clock() { return Clock.fixed(Instant.ofEpochMilli(NOW_MILLIS), ZoneOffset.UTC); }
    public static Instant instantNow() { return Instant.ofEpochMilli(NOW_MILLIS); }
    public static LocalDateTime localDateTimeNow() { return LocalDateTime.now(clock()); }
    public static LocalDate localDateNow() { return LocalDate.now(clock()); }
    public static long randomSeed() { return 42L; }

    public static boolean fileDelete(File f) { throw deny("File.delete"); }
    public static boolean fileCreateNewFile(File f) { throw deny("File.createNewFile"); }
    public static boolean fileMkdir(File f) { throw deny("File.mkdir"); }
    public static boolean fileMkdirs(File f) { throw deny("File.mkdirs"); }
    public static boolean fileRenameTo(File f, File to) { throw deny("File.renameTo"); }
    public static void fileDeleteOnExit(File f) { throw deny("File.deleteOnExit"); }
    public static boolean fileSetReadOnly(File f) { throw deny("File.setReadOnly"); }
    public static boolean fileSetLastModified(File f, long t) { throw deny("File.setLastModified"); }
    public static boolean fileSetWritable(File f, boolean on) { throw deny("File.setWritable"); }
    public static boolean fileSetWritable(File f, boolean on, boolean o) { throw deny("File.setWritable"); }
    public static boolean fileSetReadable(File f, boolean on) { throw deny("File.setReadable"); }
    public static boolean fileSetReadable(File f, boolean on, boolean o) { throw deny("File.setReadable"); }
    public static boolean fileSetExecutable(File f, boolean on) { throw deny("File.setExecutable"); }
    public static boolean fileSetExecutable(File f, boolean on, boolean o) { throw deny("File.setExecutable"); }
    public static File fileCreateTempFile(String prefix, String suffix) { throw deny("File.createTempFile"); }
    public static File fileCreateTempFile(String prefix, String suffix, File dir) { throw deny("File.createTempFile"); }
    public static Path filesCreateTempFile(String prefix, String suffix, FileAttribute<?>[] attrs) {
        throw deny("Files.createTempFile");
    }
    public static Path filesCreateTempFile(Path dir, String prefix, String suffix, FileAttribute<?>[] attrs) {
        throw deny("Files.createTempFile");
    }
    public static Path filesCreateTempDirectory(String prefix, FileAttribute<?>[] attrs) {
        throw deny("Files.createTempDirectory");
    }
    public static Path filesCreateTempDirectory(Path dir, String prefix, FileAttribute<?>[] attrs) {
        throw deny("Files.createTempDirectory");
    }
    public static String checkWritePath(String path) { throw deny("writing " + path); }
    public static File checkWriteFile(File file) { throw deny("writing " + file); }
    public static void denyFileWrite() { throw deny("writing a file"); }
    public static int checkZipOpenMode(int mode) {
        if ((mode & java.util.zip.ZipFile.OPEN_DELETE) != 0) throw deny("ZipFile.OPEN_DELETE");
        return mode;
    }
    public static void filesDelete(Path p) { throw deny("Files.delete"); }
    public static boolean filesDeleteIfExists(Path p) { throw deny("Files.deleteIfExists"); }
    public static Path filesWrite(Path p, byte[] bytes, OpenOption[] options) { throw deny("Files.write"); }
    public static Path filesCreateFile(Path p, FileAttribute<?>[] attrs) { throw deny("Files.createFile"); }
    public static Path filesWrite(Path p, Iterable<? extends CharSequence> lines, OpenOption[] options) {
        throw deny("Files.write");
    }
    public static Path filesWrite(Path p, Iterable<? extends CharSequence> lines, Charset cs, OpenOption[] options) {
        throw deny("Files.write");
    }
    public static BufferedWriter filesNewBufferedWriter(Path p, OpenOption[] options) { throw deny("Files.newBufferedWriter"); }
    public static BufferedWriter filesNewBufferedWriter(Path p, Charset cs, OpenOption[] options) {
        throw deny("Files.newBufferedWriter");
    }
    public static Path filesCreateDirectory(Path p, FileAttribute<?>[] attrs) { throw deny("Files.createDirectory"); }
    public static Path filesCreateDirectories(Path p, FileAttribute<?>[] attrs) { throw deny("Files.createDirectories"); }
    public static Path filesMove(Path from, Path to, CopyOption[] options) { throw deny("Files.move"); }
    public static Path filesCopy(Path from, Path to, CopyOption[] options) { throw deny("Files.copy"); }
    public static OutputStream filesNewOutputStream(Path p, OpenOption[] options) { throw deny("Files.newOutputStream"); }

    // Reflection and method handles: passed through (java/runtime ends them in the guards).
    public static Object methodInvoke(java.lang.reflect.Method m, Object recv, Object[] args)
        throws IllegalAccessException, java.lang.reflect.InvocationTargetException {
        return m.invoke(recv, args);
    }
    public static Object constructorNewInstance(java.lang.reflect.Constructor<?> k, Object[] args)
        throws InstantiationException, IllegalAccessException, java.lang.reflect.InvocationTargetException {
        return k.newInstance(args);
    }
    public static java.lang.invoke.MethodHandle lookupFindStatic(java.lang.invoke.MethodHandles.Lookup l, Class<?> c,
        String name, java.lang.invoke.MethodType t) throws NoSuchMethodException, IllegalAccessException {
        return l.findStatic(c, name, t);
    }
    public static java.lang.invoke.MethodHandle lookupFindVirtual(java.lang.invoke.MethodHandles.Lookup l, Class<?> c,
        String name, java.lang.invoke.MethodType t) throws NoSuchMethodException, IllegalAccessException {
        return l.findVirtual(c, name, t);
    }
    public static java.lang.invoke.MethodHandle lookupFindConstructor(java.lang.invoke.MethodHandles.Lookup l,
        Class<?> c, java.lang.invoke.MethodType t) throws NoSuchMethodException, IllegalAccessException {
        return l.findConstructor(c, t);
    }
    public static java.lang.invoke.MethodHandle lookupUnreflect(java.lang.invoke.MethodHandles.Lookup l,
        java.lang.reflect.Method m) throws IllegalAccessException {
        return l.unreflect(m);
    }
    public static java.lang.invoke.MethodHandle lookupUnreflectConstructor(java.lang.invoke.MethodHandles.Lookup l,
        java.lang.reflect.Constructor<?> k) throws IllegalAccessException {
        return l.unreflectConstructor(k);
    }

    public static void socketConnect(Socket s, SocketAddress a) { throw deny("Socket.connect"); }
    public static void socketConnect(Socket s, SocketAddress a, int timeout) { throw deny("Socket.connect"); }
    public static void denyNetwork() { throw deny("network access"); }
    public static URLConnection urlOpenConnection(URL u) { throw deny("URL.openConnection"); }
    public static InputStream urlOpenStream(URL u) { throw deny("URL.openStream"); }

    // String comparisons: compare as the JDK does (the real runtime also records the operands).
    public static boolean stringEquals(String s, Object o) { return s.equals(o); }
    public static boolean stringEqualsIgnoreCase(String s, String o) { return s.equalsIgnoreCase(o); }
    public static boolean stringStartsWith(String s, String o) { return s.startsWith(o); }
    public static boolean stringEndsWith(String s, String o) { return s.endsWith(o); }
    public static boolean stringContains(String s, CharSequence o) { return s.contains(o); }
    public static int stringCompareTo(String s, String o) { return s.compareTo(o); }
    public static int stringCompareToIgnoreCase(String s, String o) { return s.compareToIgnoreCase(o); }
    public static boolean stringMatches(String s, String regex) { return s.matches(regex); }
    public static boolean stringRegionMatches(String s, int a, String o, int b, int n) { return s.regionMatches(a, o, b, n); }
    public static boolean stringRegionMatchesCase(String s, boolean c, int a, String o, int b, int n) { return s.regionMatches(c, a, o, b, n); }
    public static boolean patternMatches(String regex, CharSequence input) { return java.util.regex.Pattern.matches(regex, input); }
    public static java.util.regex.Matcher patternMatcher(java.util.regex.Pattern p, CharSequence input) { return p.matcher(input); }
    public static boolean matcherMatches(java.util.regex.Matcher m) { return m.matches(); }
}
