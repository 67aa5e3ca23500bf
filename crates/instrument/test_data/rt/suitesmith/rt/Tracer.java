/**
 * A test-only stand-in for java/runtime's tracer: every probe method of crates/rt-abi (same names and
 * descriptors) appends one line to an in-memory log, which is written to the file named by the system
 * property `suitesmith.trace` when the JVM exits (never to stdout, so the program's own output stays
 * comparable with the uninstrumented run). JDK only; compiled by the instrument crate's tests.
 *
 * Log lines: `<method> <id> [values...]`; branch sites are printed as `id/cond` with cond the rt-abi
 * condition code (bit 3, NaN compares greater as in fcmpg/dcmpg, shown as a trailing `/nan>`).
 */
package suitesmith.rt;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class Tracer {
    private Tracer() {}

    /** Bounded so that a long-running program cannot exhaust memory through its own trace. */
    private static final int LIMIT = 1_000_000;
    private static final List<String> LOG = new ArrayList<>();
    private static boolean dumped;

    static {
        final String path = System.getProperty("suitesmith.trace");
        if (path != null) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> dump(path)));
        }
    }

    private static synchronized void dump(String path) {
        if (dumped) return;
        dumped = true;
        try (Writer w = new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8)) {
            for (String s : LOG) {
                w.write(s);
                w.write('\n');
            }
        } catch (IOException e) {
            System.err.println("suitesmith test tracer: cannot write " + path + ": " + e);
        }
    }

    private static synchronized void log(String s) {
        if (LOG.size() < LIMIT) LOG.add(s);
    }

    private static String site(int site) {
        int cond = site & 0xf;
        String[] names = {"eq", "ne", "lt", "ge", "gt", "le"};
        String c = (cond & 7) < names.length ? names[cond & 7] : ("?" + (cond & 7));
        return (site >>> 4) + "/" + c + ((cond & 8) != 0 ? "/nan>" : "");
    }

    private static String obj(Object o) {
        // Identity, not toString(): calling into the code under test from a probe would change behaviour.
        return o == null ? "null" : o.getClass().getName();
    }

    public static void line(int id) { log("line " + id); }
    public static void enter(int id) { log("enter " + id); }
    public static void exit(int id, int enter) { log("exit " + id + " of enter " + enter); }
    public static void callSite(int id) { log("callSite " + id); }
    public static void branchZero(int v, int site) { log("branchZero " + site(site) + " " + v); }
    public static void branchInt(int a, int b, int site) { log("branchInt " + site(site) + " " + a + " " + b); }
    public static void branchRef(Object a, Object b, int site) {
        log("branchRef " + site(site) + " " + (a == b ? "same" : "different"));
    }
    public static void branchNull(Object v, int site) { log("branchNull " + site(site) + " " + obj(v)); }
    public static void cmpLong(long a, long b, int site) { log("cmpLong " + site(site) + " " + a + " " + b); }
    public static void cmpFloat(float a, float b, int site) { log("cmpFloat " + site(site) + " " + a + " " + b); }
    public static void cmpDouble(double a, double b, int site) { log("cmpDouble " + site(site) + " " + a + " " + b); }
    public static void switchKey(int key, int id) { log("switchKey " + id + " " + key); }
    public static void thrown(Throwable t, int id) { log("thrown " + id + " " + obj(t)); }
    public static void caught(Throwable t, int id) { log("caught " + id + " " + obj(t)); }
    public static void returnInt(int v, int id) { log("returnInt " + id + " " + v); }
    public static void returnLong(long v, int id) { log("returnLong " + id + " " + v); }
    public static void returnFloat(float v, int id) { log("returnFloat " + id + " " + v); }
    public static void returnDouble(double v, int id) { log("returnDouble " + id + " " + v); }
    public static void returnRef(Object v, int id) { log("returnRef " + id + " " + obj(v)); }
    public static void operandsInt(int a, int b, int id) { log("operandsInt " + id + " " + a + " " + b); }
    public static void operandsLong(long a, long b, int id) { log("operandsLong " + id + " " + a + " " + b); }
    public static void operandsLongShift(long a, int b, int id) { log("operandsLongShift " + id + " " + a + " " + b); }
    public static void operandsFloat(float a, float b, int id) { log("operandsFloat " + id + " " + a + " " + b); }
    public static void operandsDouble(double a, double b, int id) { log("operandsDouble " + id + " " + a + " " + b); }
    public static void valueInt(int v, int id) { log("valueInt " + id + " " + v); }
    public static void valueLong(long v, int id) { log("valueLong " + id + " " + v); }
    public static void valueFloat(float v, int id) { log("valueFloat " + id + " " + v); }
    public static void valueDouble(double v, int id) { log("valueDouble " + id + " " + v); }
    public static void classInit(int classId) { log("classInit " + classId); }
    public static void record(int id) { log("record " + id); }
    public static void recordInt(int v, int id) { log("recordInt " + id + " " + v); }
    public static void recordLong(long v, int id) { log("recordLong " + id + " " + v); }
    public static void recordFloat(float v, int id) { log("recordFloat " + id + " " + v); }
    public static void recordDouble(double v, int id) { log("recordDouble " + id + " " + v); }
    public static void recordRef(Object v, int id) { log("recordRef " + id + " " + obj(v)); }
    public static void recordIntInt(int a, int b, int id) { log("recordIntInt " + id + " " + a + " " + b); }
    public static void recordLongLong(long a, long b, int id) { log("recordLongLong " + id + " " + a + " " + b); }
    public static void recordFloatFloat(float a, float b, int id) { log("recordFloatFloat " + id + " " + a + " " + b); }
    public static void recordDoubleDouble(double a, double b, int id) {
        log("recordDoubleDouble " + id + " " + a + " " + b);
    }
    public static void recordRefRef(Object a, Object b, int id) { log("recordRefRef " + id + " " + obj(a) + " " + obj(b)); }
}
