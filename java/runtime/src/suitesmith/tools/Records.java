/**
 * The record stream of the suitesmith.tools programs (docs/verify.md): one record per line on the
 * process's real stdout, fields separated by tabs, each field escaped so that it holds no tab, no line
 * break and no backslash of its own ({@code \\}, {@code \t}, {@code \n}, {@code \r}). The Rust side
 * (crates/worker/src/verify/records.rs) parses exactly this and ignores lines whose tag it does not know.
 * System.out is redirected to System.err before the code under test runs, so that nothing it prints
 * can be mistaken for a record.
 */
package suitesmith.tools;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;

final class Records {
    /** Messages are cut to this many characters (the first line only is kept). */
    static final int MAX_MESSAGE = 300;

    private final PrintStream out;

    private Records(PrintStream out) {
        this.out = out;
    }

    /** Takes over the real stdout and points System.out at System.err for everything else. */
    static Records takeStdout() {
        PrintStream real;
        try {
            real = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException(e); // UTF-8 is always supported (JLS/Charset guarantees it).
        }
        System.setOut(System.err);
        return new Records(real);
    }

    /** Writes one record and flushes it, so that a record survives a later System.exit or kill. */
    synchronized void emit(String tag, Object... fields) {
        StringBuilder sb = new StringBuilder(tag);
        for (Object f : fields) {
            sb.append('\t');
            escape(f == null ? "" : String.valueOf(f), sb);
        }
        sb.append('\n');
        out.print(sb);
        out.flush();
    }

    static void escape(String s, StringBuilder sb) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\': sb.append("\\\\"); break;
                case '\t': sb.append("\\t"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                default: sb.append(c);
            }
        }
    }

    /** The first line of a throwable's message, cut to {@link #MAX_MESSAGE} characters. */
    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        String line = nl >= 0 ? message.substring(0, nl) : message;
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        return line.length() > MAX_MESSAGE ? line.substring(0, MAX_MESSAGE) + "..." : line;
    }

    /**
     * The line of the first stack frame (counting from the throw site) that belongs to the test class
     * or one of its nested classes: for a failed assertion that is the assert statement's line, for an
     * exception of the code under test it is the test's call. "-" when there is no such frame or the
     * class has no LineNumberTable (JVMS §4.7.12).
     */
    static String testLine(Throwable t, String testClass) {
        if (t == null || testClass == null) {
            return "-";
        }
        for (StackTraceElement e : t.getStackTrace()) {
            String c = e.getClassName();
            if (c.equals(testClass) || c.startsWith(testClass + "$")) {
                return e.getLineNumber() > 0 ? Integer.toString(e.getLineNumber()) : "-";
            }
        }
        return "-";
    }
}
