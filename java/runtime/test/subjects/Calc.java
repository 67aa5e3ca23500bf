// Hand-instrumented subject for the runtime's own tests: calls the Tracer the way instrumented code
// would (probe ids chosen by hand; site = id << 4 | cond, as rt-abi `cond`).
package subjects;

import suitesmith.rt.Tracer;

public class Calc {
    public static final int LT = 2, EQ = 0, NE = 1, GE = 3;

    public int total;
    public static String label = "calc";

    public Calc() {}

    /** Whether `s` is the interned literal "calc" (as a test's literal "calc" is). */
    public static boolean isCalcLiteral(String s) {
        return s == "calc";
    }

    public Calc(int start) {
        total = start;
    }

    /**
     * Method probe 0 (exits: probe 15, naming the entry 0, as instrumented code does); branch probe
     * 1: `if (x < 10)` jumps when x < 10 (cond LT).
     */
    public static int classify(int x) {
        Tracer.enter(0);
        Tracer.branchInt(x, 10, 1 << 4 | LT);
        if (x < 10) {
            Tracer.line(2);
            Tracer.returnInt(-1, 3);
            Tracer.exit(15, 0);
            return -1;
        }
        Tracer.line(4);
        Tracer.returnInt(1, 3);
        Tracer.exit(15, 0);
        return 1;
    }

    /**
     * Calls classify through call site 5 (a context branch), then branches (probe 17, `r < 0`, line
     * 18) after classify returned: that branch's context is the test's again, since classify's exit
     * popped its frame. Method probe 6, exit probe 16.
     */
    public static int outer(int x) {
        Tracer.enter(6);
        Tracer.callSite(5);
        int r = classify(x);
        Tracer.branchInt(r, 0, 17 << 4 | LT);
        if (r < 0) {
            Tracer.line(18);
        }
        Tracer.exit(16, 6);
        return r;
    }

    /** Switch probe 7, operand probe 8, double compare probe 9, null branch 10, long compare 11. */
    public int mix(int key, double d, String s, long l) {
        Tracer.switchKey(key, 7);
        Tracer.operandsInt(key, total, 8);
        total += key;
        Tracer.cmpDouble(d, 1.5, 9 << 4 | GE);
        Tracer.branchNull(s, 10 << 4 | EQ);
        Tracer.cmpLong(l, 100L, 11 << 4 | NE);
        Tracer.returnRef(s, 12);
        return total;
    }

    /** Thrown probe 13. */
    public static int fail(String why) {
        IllegalStateException e = new IllegalStateException(why);
        Tracer.thrown(e, 13);
        throw e;
    }

    /** Caught probe 14. */
    public static String swallow() {
        try {
            fail("inner");
            return "no";
        } catch (IllegalStateException e) {
            Tracer.caught(e, 14);
            return "caught " + e.getMessage();
        }
    }

    public int add(int x) {
        total += x;
        return total;
    }

    public static void print(String s) {
        System.out.print(s);
        System.err.print("err:" + s);
    }

    public static int readStdin() throws java.io.IOException {
        return System.in.read();
    }

    public static long sum(long[] xs) {
        long s = 0;
        for (long x : xs) s += x;
        return s;
    }

    public static Color favourite() {
        return Color.GREEN;
    }

    public static int recurse(int n) {
        return recurse(n + 1) + 1;
    }

    public static int allocate() {
        java.util.List<long[]> hog = new java.util.ArrayList<long[]>();
        while (true) hog.add(new long[1 << 20]);
    }

    public static int spin() {
        long i = 0;
        while (i >= 0) i = (i + 1) & 0xFFFFFF;
        return 0;
    }

    /** Probe cost: per iteration a line, an int branch and an operand probe (ids 15, 16, 17). */
    public static int probeLoop(int n) {
        int acc = 0;
        for (int i = 0; i < n; i++) {
            Tracer.line(15);
            Tracer.branchInt(i, n / 2, 16 << 4 | LT);
            Tracer.operandsInt(acc, i, 17);
            acc += i;
        }
        return acc;
    }

    /** The same loop without probes, to subtract the loop's own cost. */
    public static int plainLoop(int n) {
        int acc = 0;
        for (int i = 0; i < n; i++) acc += i;
        return acc;
    }

    /** Replaces System.out: the worker must restore its capture for the next test. */
    public static void hijackStdout() {
        System.setOut(new java.io.PrintStream(new java.io.ByteArrayOutputStream()));
    }

    /** Leaves the test thread interrupted and the default locale changed. */
    public static void pollute() {
        Thread.currentThread().interrupt();
        java.util.Locale.setDefault(java.util.Locale.GERMANY);
        // System properties: one added, one changed, and then the whole object replaced.
        java.util.Properties copy = new java.util.Properties();
        copy.putAll(System.getProperties());
        System.setProperty("rttest.polluted", "polluted");
        copy.setProperty("rttest.polluted", "polluted");
        copy.setProperty("user.home", "/elsewhere");
        System.setProperties(copy);
    }

    public static String pollution() {
        return Thread.currentThread().isInterrupted() + " " + java.util.Locale.getDefault() + " "
            + System.getProperty("rttest.polluted") + " " + System.getProperty("user.home");
    }

    /** Calc is sent as bytes in the tests: its package must still be defined. */
    public static String packageName() {
        return Calc.class.getPackage().getName();
    }

    public enum Color { RED, GREEN }
}
