/**
 * The boolean string tests of the code under test (protocol v13, docs/strings.md): the string
 * guards hand over each test's kind and operands (`compared`), and the tracer files the test
 * under the branch probe that runs next if no other probe ran in between (`Tracer.branchZero`):
 * that jump tests the call's result. Per probe and test the first `MAX_PER_PROBE` distinct tests
 * are kept, operands cut to `MAX_CHARS`, and shipped as the trace's `compares` section. The
 * engine computes the distances; nothing here does.
 */
package suitesmith.rt;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class StringTests {
    private StringTests() {}

    // The kinds, as the protocol's `test` byte.
    static final int EQUALS = 1, EQUALS_IGNORE_CASE = 2, STARTS_WITH = 3, ENDS_WITH = 4, CONTAINS = 5,
            MATCHES = 6;
    /** Distinct tests kept per branch probe and test, first seen first. */
    private static final int MAX_PER_PROBE = 4;
    /** Operands longer than this are cut to it: the trace stays small, the distance approximate. */
    private static final int MAX_CHARS = 256;

    /** Whether tests are recorded at all (Setup's `string_compares`). */
    private static boolean on = true;
    /** Per probe, `MAX_PER_PROBE` entries of (kind, flags, a, b), allocated on its first entry. */
    private static Object[][] entries = new Object[0][];
    private static byte[] counts = new byte[0];
    /** The probes with entries in this test, in filing order. */
    private static int[] filed = new int[16];
    private static int nFiled;

    // The last test, until the next probe: kind (0: none), flags, operands, and the tracer's hit
    // mark when it was made, so the branch probe it feeds knows that no other probe ran since.
    private static int kind;
    private static int flags;
    private static String a, b;
    private static long mark;

    /** The input of each matcher the code under test made (weakly: a matcher may outlive a test). */
    private static final Map<Matcher, CharSequence> matcherInputs =
            Collections.synchronizedMap(new WeakHashMap<Matcher, CharSequence>());

    static void init(int probeCount) {
        entries = new Object[probeCount][];
        counts = new byte[probeCount];
        nFiled = 0;
    }

    static void enable(boolean record) {
        on = record;
    }

    /** Clears this test's entries and the pending test. */
    static void reset() {
        for (int i = 0; i < nFiled; i++) counts[filed[i]] = 0;
        nFiled = 0;
        clear();
    }

    /** A test just computed its result (the string guards call this after the JDK method). */
    static void compared(int k, int f, String x, String y) {
        if (!on || x == null || y == null) return;
        kind = k;
        flags = f;
        a = x;
        b = y;
        mark = Tracer.hitMark();
    }

    /** Whether a test is pending and no probe hit since it was made. */
    static boolean fresh() {
        return kind != 0 && mark == Tracer.hitMark();
    }

    static boolean pending() {
        return kind != 0;
    }

    static void clear() {
        kind = 0;
        a = b = null;
    }

    /** Files the pending test under branch probe `id`, which tests its result. */
    static void file(int id) {
        if (id < 0 || id >= counts.length) return;
        int n = counts[id];
        if (n >= MAX_PER_PROBE) return;
        String x = a.length() > MAX_CHARS ? a.substring(0, MAX_CHARS) : a;
        String y = b.length() > MAX_CHARS ? b.substring(0, MAX_CHARS) : b;
        Object[] e = entries[id];
        if (e == null) {
            e = new Object[4 * MAX_PER_PROBE];
            entries[id] = e;
        }
        Integer k = Integer.valueOf(kind), f = Integer.valueOf(flags);
        for (int i = 0; i < n; i++) {
            int o = 4 * i;
            if (k.equals(e[o]) && f.equals(e[o + 1]) && x.equals(e[o + 2]) && y.equals(e[o + 3])) return;
        }
        int o = 4 * n;
        e[o] = k;
        e[o + 1] = f;
        e[o + 2] = x;
        e[o + 3] = y;
        counts[id] = (byte) (n + 1);
        if (n == 0) {
            if (nFiled == filed.length) filed = Arrays.copyOf(filed, 2 * nFiled);
            filed[nFiled++] = id;
        }
    }

    /** Writes the `compares` section: the probes with entries, sorted by id. */
    static void write(DataOutputStream out) throws IOException {
        int[] ids = Arrays.copyOf(filed, nFiled);
        Arrays.sort(ids);
        out.writeInt(ids.length);
        for (int id : ids) {
            out.writeInt(id);
            int n = counts[id];
            out.writeInt(n);
            Object[] e = entries[id];
            for (int j = 0; j < n; j++) {
                out.writeByte((Integer) e[4 * j]);
                out.writeInt((Integer) e[4 * j + 1]);
                Protocol.writeStr(out, (String) e[4 * j + 2]);
                Protocol.writeStr(out, (String) e[4 * j + 3]);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // What the guards of `Pattern.matcher`, `Matcher.matches` and `regionMatches` need.

    static Matcher matcher(Pattern p, CharSequence input) {
        Matcher m = p.matcher(input);
        if (input != null) matcherInputs.put(m, input);
        return m;
    }

    /** `m.matches()` ran: a test of its input against its pattern, with the pattern's flags. */
    static void matcherMatched(Matcher m) {
        CharSequence input = matcherInputs.get(m);
        // A matcher reset to another input (`reset(CharSequence)`) is not followed: its input is
        // unknown here, and a wrong one would mislead the search.
        if (input != null && m.regionStart() == 0 && m.regionEnd() == input.length()) {
            Pattern p = m.pattern();
            compared(MATCHES, p.flags(), input.toString(), p.pattern());
        }
    }

    /**
     * As EvoSuite's `StringRegionMatches`: the two regions compared as `equals` (or
     * `equalsIgnoreCase`) when both lie inside their strings; otherwise no distance is known.
     */
    static void regionMatched(String s, boolean ignoreCase, int offset, String other, int otherOffset, int len) {
        if (other == null || len <= 0 || offset < 0 || otherOffset < 0
                || (long) offset + len > s.length() || (long) otherOffset + len > other.length()) {
            return;
        }
        String x = s.substring(offset, offset + len);
        String y = other.substring(otherOffset, otherOffset + len);
        Tracer.observeStrings(x, y);
        compared(ignoreCase ? EQUALS_IGNORE_CASE : EQUALS, 0, x, y);
    }
}
