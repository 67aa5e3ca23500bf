/**
 * The probes that instrumented classes call (one public static method per `ProbeKind` of
 * `crates/rt-abi`, same name and descriptor), and the per-test trace they fill: static arrays indexed
 * by probe id, sized at Setup, reset per test in time proportional to the probes touched, and shipped
 * in the sorted layout of docs/protocol.md ("Trace").
 *
 * Hot path: a probe is a bounds check, an array increment and, only on the first hit of a probe in a
 * test, an append to the touched list. Per-probe side tables (switch keys, operand samples, exception
 * classes, extension records) are allocated the first time a probe ever needs them and reused
 * afterwards.
 *
 * Threads: the tables are not synchronised. Probes hit from threads the SUT starts are recorded on a
 * best-effort basis (a lost increment is possible); no probe ever throws into the SUT, and the shipped
 * trace is deduplicated. The call-context stack is only meaningful for the test thread. Nothing here
 * is public except the probe methods.
 */
package suitesmith.rt;

import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;

public final class Tracer {
    private Tracer() {}

    /** Call-site / context value meaning "called from the test directly" (docs/protocol.md). */
    static final int NO_SITE = 0xFFFFFFFF;

    // Flags of what a touched probe recorded besides its hit count.
    private static final byte F_BRANCH = 1, F_SWITCH = 2, F_OPERANDS = 4, F_RETURN = 8, F_EXCEPTION = 16;
    /** The probe's current-context distances (dist[4 id + 2..3], context curContext[id]) are in use. */
    private static final byte F_CONTEXT = 32;
    /** The probe made extension records (`records`, docs/probes.md). */
    private static final byte F_RECORD = 64;

    private static final int MAX_SWITCH_KEYS = 16;
    private static final int MAX_SAMPLES = 8;
    private static final int MAX_EXCEPTION_CLASSES = 4;
    private static final int MAX_STACK = 1 << 12;
    /** Distinct (depth, frame, a, b) records kept per extension probe and test, first seen first (rt-abi `record::PER_PROBE`, checked by its tests). */
    private static final int MAX_RECORDS = 64;
    /** Longs per extension record: depth, frame, parent frame, call site, a, b (v5). */
    private static final int RECORD_LONGS = 6;

    // Condition codes of `site & 7`, as in rt-abi `cond`.
    private static final int EQ = 0, NE = 1, LT = 2, GE = 3, GT = 4, LE = 5;
    private static final int NAN_GREATER = 8;

    private static int[] hits = new int[0];
    private static byte[] flags = new byte[0];
    private static int[] touched = new int[0];
    private static int nTouched;
    /**
     * Min distances, four per probe in one cache line: [4 id] to the jump, [4 id + 1] to the
     * fall-through, then the same two for the probe's current context only. A branch in a loop sees
     * the same context again and again, so the context table is only touched when it changes.
     */
    private static double[] dist = new double[0];
    private static int[] curContext = new int[0];
    private static int[][] switchKeys = new int[0][];
    private static byte[] switchCount = new byte[0];
    private static long[][] samples = new long[0][];
    private static byte[] sampleCount = new byte[0];
    private static int[] returns = new int[0];
    private static Class<?>[][] exceptions = new Class<?>[0][];
    /** Extension records, `RECORD_LONGS` longs each, allocated on a probe's first record. */
    private static long[][] records = new long[0][];
    private static byte[] recordCount = new byte[0];

    // Class initialisation: this test's order, and every class ever initialised (for static reset).
    private static int[] testInits = new int[16];
    private static int nTestInits;
    private static int[] everInits = new int[16];
    private static int nEverInits;
    private static boolean[] everInit = new boolean[0];

    // Call-context stack: call-site id and method id per frame, plus the outermost real call site.
    private static int pendingSite = NO_SITE;
    private static final int[] stackSite = new int[MAX_STACK];
    private static final int[] stackMethod = new int[MAX_STACK];
    /**
     * Per frame, its invocation number in this test (1, 2, ... in MethodEnter order; 0: none), so
     * that extension records can say which invocation made them and from where (v5, docs/probes.md).
     */
    private static final int[] stackInv = new int[MAX_STACK];
    private static int invocations;
    private static int depth;
    private static int overflow;
    private static int outerSite = NO_SITE;
    private static int outerDepth;
    /**
     * Instrumented frames of this statement entered and not yet left by a normal return (a frame an
     * exception unwinds stays counted): the call depth of extension records. Not `depth`, which
     * counts frames the context stack could not pop (`exit` pops to a frame by method id).
     */
    private static int callDepth;

    // Context branch distances: open addressing on (context << 32 | probe), with the used slots listed.
    private static long[] ctxKeys = newKeys(1024);
    private static double[] ctxTrue = new double[1024];
    private static double[] ctxFalse = new double[1024];
    private static int[] ctxUsed = new int[512];
    private static int nCtx;

    /** Sizes every per-probe array (Setup's `probe_count`) and clears the trace. */
    static synchronized void init(int probeCount) {
        hits = new int[probeCount];
        flags = new byte[probeCount];
        touched = new int[probeCount];
        nTouched = 0;
        dist = new double[4 * probeCount];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        curContext = new int[probeCount];
        switchKeys = new int[probeCount][];
        switchCount = new byte[probeCount];
        samples = new long[probeCount][];
        sampleCount = new byte[probeCount];
        returns = new int[probeCount];
        exceptions = new Class<?>[probeCount][];
        records = new long[probeCount][];
        recordCount = new byte[probeCount];
        StringTests.init(probeCount);
        everInit = new boolean[0];
        nEverInits = 0;
        reset();
    }

    /** Declares how many class ids exist (Setup's `class_ids`), so ClassInit can be checked. */
    static synchronized void initClasses(int maxClassId) {
        everInit = new boolean[maxClassId + 1];
        nEverInits = 0;
    }

    /** Clears everything one test recorded, in O(probes touched). */
    static void reset() {
        PathConditions.reset();
        int[] t = touched;
        int n = Math.min(nTouched, t.length);
        for (int i = 0; i < n; i++) {
            int id = t[i];
            hits[id] = 0;
            byte f = flags[id];
            if (f != 0) {
                flags[id] = 0;
                Arrays.fill(dist, 4 * id, 4 * id + 4, Double.POSITIVE_INFINITY);
                switchCount[id] = 0;
                sampleCount[id] = 0;
                returns[id] = 0;
                recordCount[id] = 0;
                Class<?>[] e = exceptions[id];
                if (e != null) Arrays.fill(e, null);
            }
        }
        nTouched = 0;
        for (int i = 0; i < nCtx; i++) ctxKeys[ctxUsed[i]] = -1L;
        nCtx = 0;
        nTestInits = 0;
        synchronized (strings) {
            strings.clear();
        }
        pendingSite = NO_SITE;
        StringTests.reset();
        depth = 0;
        overflow = 0;
        outerSite = NO_SITE;
        outerDepth = 0;
        callDepth = 0;
        invocations = 0;
    }

    /** Starts a statement: the test calls the SUT directly, so no call site is pending. */
    static void beginStatement() {
        pendingSite = NO_SITE;
        depth = 0;
        overflow = 0;
        outerSite = NO_SITE;
        callDepth = 0;
    }

    /** Class ids whose initialisation was seen so far, in order (for static reset). */
    static int[] everInitialised() {
        return Arrays.copyOf(everInits, nEverInits);
    }

    // ---------------------------------------------------------------------------------------------
    // Recording helpers.

    /**
     * Probe hits one test may make before it is stopped with a guard: the counterpart of EvoSuite's
     * LoopCounter (`max_loop_iterations=10000` per loop, anchors §1.6), counted over all probes so
     * that it needs no probe of its own. A loop iteration makes some 3-10 hits, so this allows about
     * as much work as EvoSuite's bound on a few loops; at 5-50 ns per hit a runaway loop in the
     * instrumented classes ends within tens of milliseconds, where the per-test timeout (3 s) would
     * also cost a worker restart, and unlike a timeout it fires at the same point on every run.
     */
    static final long MAX_HITS_PER_TEST = 1000000L;

    /** Hits left in this test; Long.MAX_VALUE outside tests (set-up, static reset). */
    private static long hitsLeft = Long.MAX_VALUE;

    /** Turns the per-test hit limit on (at the start of a test) or off (at its end). */
    static void limitHits(boolean on) {
        hitsLeft = on ? MAX_HITS_PER_TEST : Long.MAX_VALUE;
    }

    /** Distinct strings one test may report (`Trace.strings`), and the longest one kept. */
    static final int MAX_STRINGS = 32;
    static final int MAX_STRING_CHARS = 1024;

    /** Strings the SUT compared in this test (String.equals and friends), distinct, first seen first. */
    private static final ArrayList<String> strings = new ArrayList<String>();

    /** Records the operands of a string comparison (called by the string guards after comparing). */
    static void observeStrings(String a, Object b) {
        synchronized (strings) {
            observe(a);
            if (b instanceof String) observe((String) b);
            else if (b != null && b instanceof CharSequence) observe(b.toString());
        }
    }

    private static void observe(String s) {
        if (s == null || s.length() > MAX_STRING_CHARS || strings.size() >= MAX_STRINGS) return;
        if (!strings.contains(s)) strings.add(s);
    }

    /** The hit counter's state, which every probe hit changes (`StringTests` compares it). */
    static long hitMark() {
        return hitsLeft;
    }

    /** Counts a hit; false if the id is out of range (an instrumenter bug must not break the SUT). */
    private static boolean hit(int id) {
        if (--hitsLeft < 0) {
            // Every later hit of this test throws again, so a SUT that catches the error and goes on
            // looping is stopped at its next probe.
            hitsLeft = 0;
            throw Guards.tooManyProbeHits(MAX_HITS_PER_TEST);
        }
        int[] h = hits;
        if (id < 0 || id >= h.length) return false;
        int c = h[id];
        if (c == 0) {
            int n = nTouched;
            int[] t = touched;
            if (n < t.length) {
                t[n] = id;
                nTouched = n + 1;
            }
        }
        if (c != -1) h[id] = c + 1; // saturates at u32::MAX
        return true;
    }

    private static void branch(int id, double t, double f) {
        byte[] fl = flags;
        byte flag = fl[id];
        double[] d = dist;
        int i = 4 * id;
        if (t < d[i]) d[i] = t;
        if (f < d[i + 1]) d[i + 1] = f;
        int ctx = outerSite;
        if ((flag & F_CONTEXT) != 0 && curContext[id] == ctx) {
            if (t < d[i + 2]) d[i + 2] = t;
            if (f < d[i + 3]) d[i + 3] = f;
            return;
        }
        if ((flag & F_CONTEXT) != 0) flushContext(id);
        curContext[id] = ctx;
        d[i + 2] = t;
        d[i + 3] = f;
        fl[id] = (byte) (flag | F_BRANCH | F_CONTEXT);
    }

    /** Moves a probe's current-context distances into the context table. */
    private static void flushContext(int id) {
        try {
            context(curContext[id], id, dist[4 * id + 2], dist[4 * id + 3]);
        } catch (RuntimeException racedWithAnotherThread) {
            // Only possible when SUT threads trace concurrently; the context entry is dropped.
        }
    }

    private static long[] newKeys(int n) {
        long[] k = new long[n];
        Arrays.fill(k, -1L);
        return k;
    }

    /** Merges distances for (context, probe) into the table; returns the entry's slot. */
    private static int context(int ctx, int id, double t, double f) {
        long key = ((long) ctx << 32) | (id & 0xFFFFFFFFL);
        long[] keys = ctxKeys;
        int mask = keys.length - 1;
        long h = key * 0x9E3779B97F4A7C15L;
        int slot = (int) (h >>> 32) & mask;
        while (true) {
            long k = keys[slot];
            if (k == key) {
                if (t < ctxTrue[slot]) ctxTrue[slot] = t;
                if (f < ctxFalse[slot]) ctxFalse[slot] = f;
                return slot;
            }
            if (k == -1L) break;
            slot = (slot + 1) & mask;
        }
        if ((nCtx + 1) * 2 > keys.length) {
            growContexts();
            return context(ctx, id, t, f);
        }
        keys[slot] = key;
        ctxTrue[slot] = t;
        ctxFalse[slot] = f;
        if (nCtx == ctxUsed.length) ctxUsed = Arrays.copyOf(ctxUsed, nCtx * 2);
        ctxUsed[nCtx++] = slot;
        return slot;
    }

    private static void growContexts() {
        long[] oldKeys = ctxKeys;
        double[] oldT = ctxTrue, oldF = ctxFalse;
        int[] oldUsed = ctxUsed;
        int n = nCtx;
        int cap = oldKeys.length * 2;
        ctxKeys = newKeys(cap);
        ctxTrue = new double[cap];
        ctxFalse = new double[cap];
        ctxUsed = new int[cap / 2];
        nCtx = 0;
        for (int i = 0; i < n; i++) {
            int s = oldUsed[i];
            long k = oldKeys[s];
            context((int) (k >>> 32), (int) k, oldT[s], oldF[s]);
        }
    }

    /** Distances (to taking the jump, to falling through) for `a cond b` (EvoSuite's, ≥ 0). */
    private static void compare(double a, double b, int site) {
        int id = site >>> 4;
        if (!hit(id)) return;
        boolean eq = a == b;
        double d = eq ? 0.0 : Math.abs(a - b);
        double t, f;
        switch (site & 7) {
            case EQ:
                t = eq ? 0 : d;
                f = eq ? 1 : 0;
                break;
            case NE:
                t = eq ? 1 : 0;
                f = eq ? 0 : d;
                break;
            case LT:
                t = a < b ? 0 : d + 1;
                f = a < b ? d : 0;
                break;
            case GE:
                t = a >= b ? 0 : d;
                f = a >= b ? d + 1 : 0;
                break;
            case GT:
                t = a > b ? 0 : d + 1;
                f = a > b ? d : 0;
                break;
            case LE:
                t = a <= b ? 0 : d;
                f = a <= b ? d + 1 : 0;
                break;
            default:
                return; // not a condition rt-abi defines
        }
        branch(id, t, f);
    }

    /**
     * `fcmp`/`dcmp` then `if<cond>`: with a NaN operand the compare yields -1 (`l` variants) or +1
     * (`g` variants, NAN_GREATER set), which decides the jump; the taken side gets 0 and the other 1.
     */
    private static void compareFloating(double a, double b, int site) {
        if (!Double.isNaN(a) && !Double.isNaN(b)) {
            compare(a, b, site);
            return;
        }
        int id = site >>> 4;
        if (!hit(id)) return;
        int r = (site & NAN_GREATER) != 0 ? 1 : -1;
        boolean taken;
        switch (site & 7) {
            case EQ: taken = r == 0; break;
            case NE: taken = r != 0; break;
            case LT: taken = r < 0; break;
            case GE: taken = r >= 0; break;
            case GT: taken = r > 0; break;
            case LE: taken = r <= 0; break;
            default: return;
        }
        branch(id, taken ? 0 : 1, taken ? 1 : 0);
    }

    private static void refCompare(boolean same, int site) {
        int id = site >>> 4;
        if (!hit(id)) return;
        boolean taken = (site & 7) == NE ? !same : same;
        branch(id, taken ? 0 : 1, taken ? 1 : 0);
    }

    private static void sample(int id, long a, long b) {
        if (!hit(id)) return;
        if ((flags[id] & F_OPERANDS) == 0) flags[id] |= F_OPERANDS;
        int n = sampleCount[id];
        if (n >= MAX_SAMPLES) return;
        long[] s = samples[id];
        if (s == null) {
            s = new long[2 * MAX_SAMPLES];
            samples[id] = s;
        }
        for (int i = 0; i < n; i++) {
            if (s[2 * i] == a && s[2 * i + 1] == b) return;
        }
        s[2 * n] = a;
        s[2 * n + 1] = b;
        sampleCount[id] = (byte) (n + 1);
    }

    private static void category(int id, int bits) {
        if (!hit(id)) return;
        if ((flags[id] & F_RETURN) == 0) flags[id] |= F_RETURN;
        returns[id] |= bits;
    }

    private static int signBits(double v) {
        if (v < 0) return 1;
        if (v > 0) return 4;
        if (v == 0) return 2;
        return 8; // NaN
    }

    private static void exception(Throwable t, int id) {
        if (!hit(id)) return;
        if ((flags[id] & F_EXCEPTION) == 0) flags[id] |= F_EXCEPTION;
        Class<?> c = t == null ? NullPointerException.class : t.getClass();
        Class<?>[] cs = exceptions[id];
        if (cs == null) {
            cs = new Class<?>[MAX_EXCEPTION_CLASSES];
            exceptions[id] = cs;
        }
        for (int i = 0; i < cs.length; i++) {
            if (cs[i] == c) return;
            if (cs[i] == null) {
                cs[i] = c;
                return;
            }
        }
    }

    /**
     * An extension record (rt-abi `ProbeKind::Record`): the operands as rt-abi `record` encodes
     * them, the depth of the call-context stack, and the frame on top of the context stack (its
     * invocation number, its caller's, and the call site it was entered from), kept if not seen
     * before at this probe.
     */
    private static void record(int id, long a, long b) {
        if (!hit(id)) return;
        if ((flags[id] & F_RECORD) == 0) flags[id] |= F_RECORD;
        int n = recordCount[id];
        if (n >= MAX_RECORDS) return;
        long[] r = records[id];
        if (r == null) {
            r = new long[RECORD_LONGS * MAX_RECORDS];
            records[id] = r;
        }
        long d = callDepth;
        // The frame is unknown while the context stack overflows (frames past MAX_STACK).
        int top = overflow > 0 ? 0 : Math.min(depth, MAX_STACK);
        long frame = top > 0 ? stackInv[top - 1] : 0;
        for (int i = 0; i < n; i++) {
            int k = RECORD_LONGS * i;
            if (r[k] == d && r[k + 1] == frame && r[k + 4] == a && r[k + 5] == b) return;
        }
        int k = RECORD_LONGS * n;
        r[k] = d;
        r[k + 1] = frame;
        r[k + 2] = top > 1 ? stackInv[top - 2] : 0;
        r[k + 3] = top > 0 ? stackSite[top - 1] : NO_SITE;
        r[k + 4] = a;
        r[k + 5] = b;
        recordCount[id] = (byte) (n + 1);
    }

    /** A reference as a record operand: its identity hash with a non-null flag, or 0 for null. */
    private static long ref(Object o) {
        return o == null ? 0L : (1L << 32) | (System.identityHashCode(o) & 0xFFFFFFFFL);
    }

    private static long bits(float v) {
        return Float.floatToRawIntBits(v) & 0xFFFFFFFFL;
    }

    // ---------------------------------------------------------------------------------------------
    // Probes: names and descriptors exactly as rt-abi `ProbeKind::method()`.

    /** Line: `(I)V`. */
    public static void line(int id) {
        hit(id);
    }

    /** MethodEnter: `(I)V`; pushes a frame with the pending call site. */
    public static void enter(int id) {
        hit(id);
        callDepth++;
        int site = pendingSite;
        pendingSite = NO_SITE;
        int d = depth;
        if (d >= MAX_STACK) {
            overflow++;
            return;
        }
        stackSite[d] = site;
        stackMethod[d] = id;
        stackInv[d] = ++invocations;
        depth = d + 1;
        if (outerSite == NO_SITE && site != NO_SITE) {
            outerSite = site;
            outerDepth = d;
        }
    }

    /**
     * MethodExit: `(II)V`, the exit probe and the method's MethodEnter probe; pops to the innermost
     * frame that probe pushed (frames left by exceptions go too). Matching the exit's own id against
     * the pushed entry ids, as before 2026-11-29, never matched: nothing was popped, so records and
     * context branches after a call returned were charged to the callee's frame.
     */
    public static void exit(int id, int enter) {
        hit(id);
        pendingSite = NO_SITE;
        if (callDepth > 0) callDepth--;
        if (overflow > 0) {
            overflow--;
            return;
        }
        int d = Math.min(depth, MAX_STACK) - 1;
        while (d >= 0 && stackMethod[d] != enter) d--;
        if (d < 0) return; // entered before tracing started or from another thread
        depth = d;
        if (outerSite != NO_SITE && outerDepth >= d) outerSite = NO_SITE;
    }

    /** CallSite: `(I)V`; the next MethodEnter is called from here. */
    public static void callSite(int id) {
        if (hit(id)) pendingSite = id;
    }

    /** BranchZero: `(II)V`, `if<cond>` against 0. */
    public static void branchZero(int value, int site) {
        if (!StringTests.pending()) {
            compare(value, 0, site);
            return;
        }
        // A string test that ran right before this probe is what it tests: checked before this
        // probe's own hit moves the mark on, filed after it.
        boolean fresh = StringTests.fresh();
        compare(value, 0, site);
        if (fresh) StringTests.file(site >>> 4);
        StringTests.clear();
    }

    /** BranchInt: `(III)V`, `if_icmp<cond>`. */
    public static void branchInt(int a, int b, int site) {
        compare(a, b, site);
    }

    /** BranchRef: `(Ljava/lang/Object;Ljava/lang/Object;I)V`, `if_acmp<cond>`. */
    public static void branchRef(Object a, Object b, int site) {
        refCompare(a == b, site);
    }

    /** BranchNull: `(Ljava/lang/Object;I)V`, `ifnull` (EQ) / `ifnonnull` (NE). */
    public static void branchNull(Object value, int site) {
        refCompare(value == null, site);
    }

    /** CmpLong: `(JJI)V`. */
    public static void cmpLong(long a, long b, int site) {
        if (a == b) {
            compare(0, 0, site);
        } else {
            // The difference of two longs may not fit a long; the sign and magnitude are what matter.
            double d = Math.abs((double) a - (double) b);
            if (d == 0) d = 1; // distinct longs that round to the same double
            if (a < b) compare(0, d, site);
            else compare(d, 0, site);
        }
    }

    /** CmpFloat: `(FFI)V`. */
    public static void cmpFloat(float a, float b, int site) {
        compareFloating(a, b, site);
    }

    /** CmpDouble: `(DDI)V`. */
    public static void cmpDouble(double a, double b, int site) {
        compareFloating(a, b, site);
    }

    /** SwitchKey: `(II)V`, key of a `tableswitch`/`lookupswitch`. */
    public static void switchKey(int key, int id) {
        if (!hit(id)) return;
        if ((flags[id] & F_SWITCH) == 0) flags[id] |= F_SWITCH;
        int n = switchCount[id];
        if (n >= MAX_SWITCH_KEYS) return;
        int[] ks = switchKeys[id];
        if (ks == null) {
            ks = new int[MAX_SWITCH_KEYS];
            switchKeys[id] = ks;
        }
        for (int i = 0; i < n; i++) {
            if (ks[i] == key) return;
        }
        ks[n] = key;
        switchCount[id] = (byte) (n + 1);
    }

    /** Thrown: `(Ljava/lang/Throwable;I)V`. */
    public static void thrown(Throwable t, int id) {
        exception(t, id);
    }

    /** Caught: `(Ljava/lang/Throwable;I)V`. */
    public static void caught(Throwable t, int id) {
        exception(t, id);
    }

    /** ReturnInt: `(II)V`. */
    public static void returnInt(int v, int id) {
        category(id, v < 0 ? 1 : v == 0 ? 2 : 4);
    }

    /** ReturnLong: `(JI)V`. */
    public static void returnLong(long v, int id) {
        category(id, v < 0 ? 1 : v == 0 ? 2 : 4);
    }

    /** ReturnFloat: `(FI)V`. */
    public static void returnFloat(float v, int id) {
        category(id, signBits(v));
    }

    /** ReturnDouble: `(DI)V`. */
    public static void returnDouble(double v, int id) {
        category(id, signBits(v));
    }

    /**
     * ReturnRef: `(Ljava/lang/Object;I)V`. Only JDK types are inspected (strings, arrays, boxes,
     * bootstrap-loaded collections and maps): calling SUT code from a probe could loop or throw.
     */
    public static void returnRef(Object v, int id) {
        int bits;
        if (v == null) {
            bits = 16;
        } else {
            bits = 32;
            try {
                Class<?> c = v.getClass();
                if (c == String.class) {
                    bits |= ((String) v).isEmpty() ? 256 : 512;
                } else if (c.isArray()) {
                    bits |= Array.getLength(v) == 0 ? 256 : 512;
                } else if (c == Boolean.class) {
                    bits |= ((Boolean) v) ? 64 : 128;
                } else if (v instanceof Number && c.getClassLoader() == null) {
                    bits |= signBits(((Number) v).doubleValue());
                } else if (c.getClassLoader() == null && v instanceof Collection) {
                    bits |= ((Collection<?>) v).isEmpty() ? 256 : 512;
                } else if (c.getClassLoader() == null && v instanceof Map) {
                    bits |= ((Map<?, ?>) v).isEmpty() ? 256 : 512;
                }
            } catch (RuntimeException e) {
                // A broken JDK collection state (e.g. concurrent modification): the category is skipped.
            }
        }
        category(id, bits);
    }

    /** OperandsInt: `(III)V`. */
    public static void operandsInt(int a, int b, int id) {
        sample(id, a, b);
    }

    /** OperandsLong: `(JJI)V`. */
    public static void operandsLong(long a, long b, int id) {
        sample(id, a, b);
    }

    /** OperandsLongShift: `(JII)V`. */
    public static void operandsLongShift(long a, int b, int id) {
        sample(id, a, b);
    }

    /** OperandsFloat: `(FFI)V`; raw bits, zero-extended. */
    public static void operandsFloat(float a, float b, int id) {
        sample(id, Float.floatToRawIntBits(a) & 0xFFFFFFFFL, Float.floatToRawIntBits(b) & 0xFFFFFFFFL);
    }

    /** OperandsDouble: `(DDI)V`. */
    public static void operandsDouble(double a, double b, int id) {
        sample(id, Double.doubleToRawLongBits(a), Double.doubleToRawLongBits(b));
    }

    /** ValueInt: `(II)V`. */
    public static void valueInt(int v, int id) {
        sample(id, v, 0);
    }

    /** ValueLong: `(JI)V`. */
    public static void valueLong(long v, int id) {
        sample(id, v, 0);
    }

    /** ValueFloat: `(FI)V`. */
    public static void valueFloat(float v, int id) {
        sample(id, Float.floatToRawIntBits(v) & 0xFFFFFFFFL, 0);
    }

    /** ValueDouble: `(DI)V`. */
    public static void valueDouble(double v, int id) {
        sample(id, Double.doubleToRawLongBits(v), 0);
    }

    /** ClassInit: `(I)V`, at the start of an instrumented `<clinit>`; `classId` is not a probe id. */
    public static void classInit(int classId) {
        synchronized (Tracer.class) {
            if (nTestInits == testInits.length) testInits = Arrays.copyOf(testInits, nTestInits * 2);
            testInits[nTestInits++] = classId;
            boolean[] seen = everInit;
            if (classId >= 0 && classId < seen.length && !seen[classId]) {
                seen[classId] = true;
                if (nEverInits == everInits.length) everInits = Arrays.copyOf(everInits, nEverInits * 2);
                everInits[nEverInits++] = classId;
            }
        }
    }

    /** Record(Event): `(I)V`. */
    public static void record(int id) {
        record(id, 0, 0);
    }

    /** Record(Int): `(II)V`. */
    public static void recordInt(int v, int id) {
        record(id, v, 0);
    }

    /** Record(Long): `(JI)V`. */
    public static void recordLong(long v, int id) {
        record(id, v, 0);
    }

    /** Record(Float): `(FI)V`. */
    public static void recordFloat(float v, int id) {
        record(id, bits(v), 0);
    }

    /** Record(Double): `(DI)V`. */
    public static void recordDouble(double v, int id) {
        record(id, Double.doubleToRawLongBits(v), 0);
    }

    /** Record(Ref): `(Ljava/lang/Object;I)V`. */
    public static void recordRef(Object v, int id) {
        record(id, ref(v), 0);
    }

    /** Record(IntInt): `(III)V`. */
    public static void recordIntInt(int a, int b, int id) {
        record(id, a, b);
    }

    /** Record(LongLong): `(JJI)V`. */
    public static void recordLongLong(long a, long b, int id) {
        record(id, a, b);
    }

    /** Record(FloatFloat): `(FFI)V`. */
    public static void recordFloatFloat(float a, float b, int id) {
        record(id, bits(a), bits(b));
    }

    /** Record(DoubleDouble): `(DDI)V`. */
    public static void recordDoubleDouble(double a, double b, int id) {
        record(id, Double.doubleToRawLongBits(a), Double.doubleToRawLongBits(b));
    }

    /** Record(RefRef): `(Ljava/lang/Object;Ljava/lang/Object;I)V`. */
    public static void recordRefRef(Object a, Object b, int id) {
        record(id, ref(a), ref(b));
    }

    // ---------------------------------------------------------------------------------------------
    // Shipping.

    /** Writes this test's `Trace` (docs/protocol.md): every list sorted, so equal runs give equal bytes. */
    static void write(DataOutputStream out) throws IOException {
        int[] ids = Arrays.copyOf(touched, Math.min(nTouched, touched.length));
        Arrays.sort(ids);
        int n = 0;
        for (int i = 0; i < ids.length; i++) {
            if (n == 0 || ids[n - 1] != ids[i]) ids[n++] = ids[i];
        }
        int nBranch = 0, nSwitch = 0, nOperand = 0, nReturn = 0, nExc = 0, nRecord = 0;
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            byte f = flags[id];
            if ((f & F_BRANCH) != 0) nBranch++;
            if ((f & F_SWITCH) != 0) nSwitch++;
            if ((f & F_OPERANDS) != 0) nOperand++;
            if ((f & F_RETURN) != 0) nReturn++;
            if ((f & F_RECORD) != 0) nRecord++;
            if ((f & F_EXCEPTION) != 0) {
                for (Class<?> c : exceptions[id]) if (c != null) nExc++;
            }
        }
        out.writeInt(n);
        for (int i = 0; i < n; i++) {
            out.writeInt(ids[i]);
            out.writeInt(hits[ids[i]]);
        }
        out.writeInt(nBranch);
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if ((flags[id] & F_BRANCH) == 0) continue;
            out.writeInt(id);
            out.writeLong(Double.doubleToRawLongBits(dist[4 * id]));
            out.writeLong(Double.doubleToRawLongBits(dist[4 * id + 1]));
        }
        out.writeInt(nSwitch);
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if ((flags[id] & F_SWITCH) == 0) continue;
            out.writeInt(id);
            int k = switchCount[id];
            out.writeInt(k);
            for (int j = 0; j < k; j++) out.writeInt(switchKeys[id][j]);
        }
        out.writeInt(nOperand);
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if ((flags[id] & F_OPERANDS) == 0) continue;
            out.writeInt(id);
            int k = sampleCount[id];
            out.writeInt(k);
            for (int j = 0; j < 2 * k; j++) out.writeLong(samples[id][j]);
        }
        out.writeInt(nReturn);
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if ((flags[id] & F_RETURN) == 0) continue;
            out.writeInt(id);
            out.writeInt(returns[id]);
        }
        out.writeInt(nExc);
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if ((flags[id] & F_EXCEPTION) == 0) continue;
            for (Class<?> c : exceptions[id]) {
                if (c == null) continue;
                out.writeInt(id);
                Protocol.writeStr(out, c.getName());
            }
        }
        // Contexts: sorted by (site, probe) as unsigned numbers.
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if ((flags[id] & F_CONTEXT) != 0) {
                flushContext(id);
                flags[id] &= ~F_CONTEXT;
            }
        }
        long[] keys = new long[nCtx];
        for (int i = 0; i < nCtx; i++) keys[i] = ctxKeys[ctxUsed[i]] ^ Long.MIN_VALUE;
        Arrays.sort(keys);
        out.writeInt(keys.length);
        for (long sk : keys) {
            long key = sk ^ Long.MIN_VALUE;
            int slot = findContext(key);
            out.writeInt((int) (key >>> 32));
            out.writeInt((int) key);
            out.writeLong(Double.doubleToRawLongBits(ctxTrue[slot]));
            out.writeLong(Double.doubleToRawLongBits(ctxFalse[slot]));
        }
        out.writeInt(nTestInits);
        for (int i = 0; i < nTestInits; i++) out.writeInt(testInits[i]);
        synchronized (strings) {
            out.writeInt(strings.size());
            for (String s : strings) Protocol.writeStr(out, s);
        }
        out.writeInt(nRecord);
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            if ((flags[id] & F_RECORD) == 0) continue;
            out.writeInt(id);
            int k = recordCount[id];
            out.writeInt(k);
            long[] r = records[id];
            for (int j = 0; j < k; j++) {
                int o = RECORD_LONGS * j;
                out.writeInt((int) r[o]);
                out.writeInt((int) r[o + 1]);
                out.writeInt((int) r[o + 2]);
                out.writeInt((int) r[o + 3]);
                out.writeLong(r[o + 4]);
                out.writeLong(r[o + 5]);
            }
        }
        PathConditions.write(out);
        StringTests.write(out);
    }

    private static int findContext(long key) {
        long[] keys = ctxKeys;
        int mask = keys.length - 1;
        int slot = (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
        while (keys[slot] != key) slot = (slot + 1) & mask;
        return slot;
    }

    /** Writes an empty `Trace` (for a test abandoned at its timeout, whose tables are still in use). */
    static void writeEmpty(DataOutputStream out) throws IOException {
        for (int i = 0; i < 12; i++) out.writeInt(0);
    }
}
