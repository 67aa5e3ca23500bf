package suitesmith.rt;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Path conditions over heap inputs (paper 003, SUSHI; protocol v9, docs/protocol.md "Path
 * conditions") and their distance, Figure 6 of the paper (digest 003-004 §A.2.4): evaluated on the
 * live receiver and arguments at every call statement of a condition's entry method, before the
 * call, by reading fields reflectively. No SUT code runs here: no getter, no {@code equals}, no
 * class initialiser (a field is read only from an object that exists, so its class is initialised).
 *
 * <p>Per test and condition the clause distances of the call with the smallest total are kept (the
 * first on ties) and shipped after the trace's extension records.
 */
final class PathConditions {
    private PathConditions() {}

    // Clause, root, step and expression tags, as crates/protocol/src/codec.rs writes them.
    private static final int C_NULL = 0, C_ALIAS = 1, C_FRESH = 2, C_NUMERIC = 3;
    private static final int CMP_EQ = 0, CMP_NE = 1, CMP_LT = 2, CMP_LE = 3, CMP_GT = 4, CMP_GE = 5;
    private static final int E_CONST = 0, E_PATH = 1, E_NEG = 2, E_BINARY = 3, E_CONVERT = 4;
    private static final int OP_ADD = 0, OP_SUB = 1, OP_MUL = 2, OP_DIV = 3, OP_REM = 4, OP_AND = 5, OP_OR = 6,
            OP_XOR = 7, OP_SHL = 8, OP_SHR = 9, OP_USHR = 10;
    private static final int MAX_DEPTH = 64;

    /** An undefined value (⊥): a path crossed null, a missing field or an index out of bounds. */
    private static final Object UNDEFINED = new Object();

    /** One step of an access path; a field step resolves its {@link Field} on first use. */
    private static final class Step {
        final int kind; // 0 field, 1 element, 2 length
        final String cls, name;
        final int index;
        /**
         * For {@code value} of a box ({@code java.lang.Integer.value}, ...): the box's class. The
         * box is its value (boxed, as every value here is), and java.base does not open the field.
         */
        final Class<?> box;
        Field field;
        boolean resolved;

        Step(int kind, String cls, String name, int index) {
            this.kind = kind;
            this.cls = cls;
            this.name = name;
            this.index = index;
            this.box = kind == 0 && "value".equals(name) ? BOXES.get(cls) : null;
        }
    }

    private static final Map<String, Class<?>> BOXES = new HashMap<>();

    static {
        for (Class<?> c : new Class<?>[] {Integer.class, Long.class, Short.class, Byte.class, Character.class,
                Boolean.class, Double.class, Float.class}) {
            BOXES.put(c.getName(), c);
        }
    }

    private static final class Path {
        final int param; // -1: the receiver
        final Step[] steps;

        Path(int param, Step[] steps) {
            this.param = param;
            this.steps = steps;
        }
    }

    private static final class Expr {
        final int kind, op;
        final char ty; // descriptor letter of the sort it computes in
        final long bits;
        final Path path;
        final Expr left, right;

        Expr(int kind, int op, char ty, long bits, Path path, Expr left, Expr right) {
            this.kind = kind;
            this.op = op;
            this.ty = ty;
            this.bits = bits;
            this.path = path;
            this.left = left;
            this.right = right;
        }
    }

    private static final class Clause {
        final int kind, cmp;
        final Path a, b;
        final String cls;
        final Expr left, right;

        Clause(int kind, int cmp, Path a, Path b, String cls, Expr left, Expr right) {
            this.kind = kind;
            this.cmp = cmp;
            this.a = a;
            this.b = b;
            this.cls = cls;
            this.left = left;
            this.right = right;
        }
    }

    private static Clause[][] conditions = new Clause[0][];
    /** Entry method ("class.name(desc)") -> indices of the conditions it enters. */
    private static Map<String, int[]> byEntry = new HashMap<String, int[]>();
    private static double epsilon = 1e-6;
    private static ClassLoader loader;

    /**
     * {@link #byEntry} restricted to the conditions this batch evaluates (`Execute`'s focus, v12:
     * the engine sends those of the goals not solved yet, open or spurious), made once per batch.
     * Evaluating the rest would cost every call of their entry methods; with none in focus
     * {@link #atEntry} returns before it builds the key.
     */
    private static Map<String, int[]> active = byEntry;

    /** Per test: the best call's total (NaN: not called) and its clause distances. */
    private static double[] bestTotal = new double[0];
    private static double[][] best = new double[0][];

    // ---------------------------------------------------------------------------------------------
    // Setup.

    /** Field steps resolve their classes through the worker's loader (set once Setup built it). */
    static void useLoader(ClassLoader cl) {
        loader = cl;
    }

    /** Reads Setup's path-condition section (after `time_base_ms`). */
    static void read(DataInputStream in) throws IOException {
        epsilon = Double.longBitsToDouble(in.readLong());
        int n = Protocol.readLen(in);
        Clause[][] pcs = new Clause[n][];
        Map<String, List<Integer>> entries = new HashMap<String, List<Integer>>();
        for (int i = 0; i < n; i++) {
            String key = Protocol.readStr(in) + "." + Protocol.readStr(in) + Protocol.readStr(in);
            int m = Protocol.readLen(in);
            Clause[] cs = new Clause[m];
            for (int j = 0; j < m; j++) cs[j] = readClause(in);
            pcs[i] = cs;
            List<Integer> l = entries.get(key);
            if (l == null) entries.put(key, l = new ArrayList<Integer>());
            l.add(i);
        }
        Map<String, int[]> map = new HashMap<String, int[]>();
        for (Map.Entry<String, List<Integer>> e : entries.entrySet()) {
            int[] ids = new int[e.getValue().size()];
            for (int k = 0; k < ids.length; k++) ids[k] = e.getValue().get(k);
            map.put(e.getKey(), ids);
        }
        conditions = pcs;
        byEntry = map;
        active = map;
        bestTotal = new double[n];
        best = new double[n][];
        reset();
    }

    /** Reads `Execute`'s focus (after its tests): u8 0, every condition, or u8 1 and a list of indices. */
    static void readFocus(DataInputStream in) throws IOException {
        int tag = in.readUnsignedByte();
        if (tag == 0) {
            active = byEntry;
            return;
        }
        if (tag != 1) throw new IOException("unknown focus tag " + tag);
        int n = Protocol.readLen(in);
        boolean[] f = new boolean[conditions.length];
        for (int i = 0; i < n; i++) {
            int id = in.readInt();
            if (id < 0 || id >= f.length) throw new IOException("focus on path condition " + id + " of " + f.length);
            f[id] = true;
        }
        Map<String, int[]> m = new HashMap<String, int[]>();
        for (Map.Entry<String, int[]> e : byEntry.entrySet()) {
            int k = 0;
            for (int id : e.getValue()) if (f[id]) k++;
            if (k == 0) continue;
            int[] ids = new int[k];
            k = 0;
            for (int id : e.getValue()) if (f[id]) ids[k++] = id;
            m.put(e.getKey(), ids);
        }
        active = m;
    }

    private static Clause readClause(DataInputStream in) throws IOException {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case C_NULL:
                return new Clause(C_NULL, 0, readPath(in), null, null, null, null);
            case C_ALIAS: {
                Path a = readPath(in);
                return new Clause(C_ALIAS, 0, a, readPath(in), null, null, null);
            }
            case C_FRESH: {
                Path a = readPath(in);
                return new Clause(C_FRESH, 0, a, null, Protocol.readStr(in), null, null);
            }
            case C_NUMERIC: {
                int cmp = in.readUnsignedByte();
                if (cmp > CMP_GE) throw new IOException("unknown comparison tag " + cmp);
                Expr l = readExpr(in, 0);
                return new Clause(C_NUMERIC, cmp, null, null, null, l, readExpr(in, 0));
            }
            default:
                throw new IOException("unknown clause tag " + tag);
        }
    }

    private static Path readPath(DataInputStream in) throws IOException {
        int root = in.readUnsignedByte();
        int param;
        if (root == 0) param = -1;
        else if (root == 1) param = in.readUnsignedShort();
        else throw new IOException("unknown path root tag " + root);
        int n = Protocol.readLen(in);
        Step[] steps = new Step[n];
        for (int i = 0; i < n; i++) {
            int k = in.readUnsignedByte();
            if (k == 0) steps[i] = new Step(0, Protocol.readStr(in), Protocol.readStr(in), 0);
            else if (k == 1) steps[i] = new Step(1, null, null, in.readInt());
            else if (k == 2) steps[i] = new Step(2, null, null, 0);
            else throw new IOException("unknown path step tag " + k);
        }
        return new Path(param, steps);
    }

    private static char readType(DataInputStream in) throws IOException {
        char c = (char) in.readUnsignedByte();
        if ("ZBCSIJFD".indexOf(c) < 0) throw new IOException("unknown primitive type " + (int) c);
        return c;
    }

    private static Expr readExpr(DataInputStream in, int depth) throws IOException {
        if (depth >= MAX_DEPTH) throw new IOException("expression nested deeper than " + MAX_DEPTH);
        int tag = in.readUnsignedByte();
        switch (tag) {
            case E_CONST: {
                char ty = readType(in);
                return new Expr(E_CONST, 0, ty, in.readLong(), null, null, null);
            }
            case E_PATH: {
                char ty = readType(in);
                return new Expr(E_PATH, 0, ty, 0, readPath(in), null, null);
            }
            case E_NEG: {
                char ty = readType(in);
                return new Expr(E_NEG, 0, ty, 0, null, readExpr(in, depth + 1), null);
            }
            case E_BINARY: {
                int op = in.readUnsignedByte();
                if (op > OP_USHR) throw new IOException("unknown numeric operation tag " + op);
                char ty = readType(in);
                Expr l = readExpr(in, depth + 1);
                return new Expr(E_BINARY, op, ty, 0, null, l, readExpr(in, depth + 1));
            }
            case E_CONVERT: {
                char ty = readType(in);
                return new Expr(E_CONVERT, 0, ty, 0, null, readExpr(in, depth + 1), null);
            }
            default:
                throw new IOException("unknown numeric expression tag " + tag);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Per test.

    /** Forgets the current test's distances (Tracer.reset calls this between tests). */
    static void reset() {
        for (int i = 0; i < bestTotal.length; i++) {
            bestTotal[i] = Double.NaN;
            best[i] = null;
        }
    }

    /**
     * A call statement of `cls.name(desc)` is about to run on `recv` with `args`: evaluates every
     * condition in focus entered there. Never throws: a failure to read a path makes it undefined.
     */
    static void atEntry(String cls, String name, String desc, Object recv, Object[] args) {
        if (active.isEmpty()) return;
        int[] ids = active.get(cls + "." + name + desc);
        if (ids == null) return;
        for (int id : ids) {
            double[] d = distances(conditions[id], recv, args);
            double total = 0;
            for (double x : d) total += x;
            if (Double.isNaN(bestTotal[id]) || total < bestTotal[id]) {
                bestTotal[id] = total;
                best[id] = d;
            }
        }
    }

    /** Writes `path_distances` (count, then per called condition its index and clause distances). */
    static void write(DataOutputStream out) throws IOException {
        int called = 0;
        for (double[] d : best) if (d != null) called++;
        out.writeInt(called);
        for (int i = 0; i < best.length; i++) {
            if (best[i] == null) continue;
            out.writeInt(i);
            out.writeInt(best[i].length);
            for (double x : best[i]) out.writeLong(Double.doubleToRawLongBits(x));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Figure 6.

    /** δ of each clause, in assumption order. */
    static double[] distances(Clause[] cs, Object recv, Object[] args) {
        double[] d = new double[cs.length];
        // referred_objects(t)<c1..c_{i-1}>: the objects earlier fresh clauses named, by identity.
        ArrayList<Object> referred = new ArrayList<Object>();
        for (int i = 0; i < cs.length; i++) {
            Clause c = cs[i];
            try {
                d[i] = distance(c, recv, args, referred);
            } catch (Throwable t) {
                d[i] = 1.0; // an unreadable path is undefined
            }
        }
        return d;
    }

    private static double distance(Clause c, Object recv, Object[] args, ArrayList<Object> referred) {
        switch (c.kind) {
            case C_NULL: {
                Object v = eval(c.a, recv, args);
                return v == null ? 0.0 : 1.0;
            }
            case C_ALIAS: {
                Object a = eval(c.a, recv, args), b = eval(c.b, recv, args);
                return a != UNDEFINED && b != UNDEFINED && a == b ? 0.0 : 1.0;
            }
            case C_FRESH: {
                Object v = eval(c.a, recv, args);
                if (v == UNDEFINED || v == null) return 1.0;
                boolean seen = false;
                for (Object o : referred) seen |= o == v;
                // Added even when the clause fails, as the recursion of Figure 6 says.
                referred.add(v);
                if (seen || !v.getClass().getName().equals(c.cls)) return 1.0;
                return 0.0;
            }
            default:
                return numeric(c, recv, args);
        }
    }

    /** A numeric clause: 0 when it holds, 1 when undefined, else 1 − 1/(1 + |n1 − n2| + ε). */
    private static double numeric(Clause c, Object recv, Object[] args) {
        Object l = value(c.left, recv, args), r = value(c.right, recv, args);
        if (l == null || r == null) return 1.0;
        boolean floating = l instanceof Double || r instanceof Double;
        int order;
        double diff;
        if (floating) {
            double a = asDouble(l), b = asDouble(r);
            if (Double.isNaN(a) || Double.isNaN(b)) return 1.0;
            order = Double.compare(a, b);
            if (a == b) order = 0; // -0.0 == 0.0, as the JVM compares
            diff = Math.abs(a - b);
        } else {
            long a = (Long) l, b = (Long) r;
            order = Long.compare(a, b);
            diff = BigInteger.valueOf(a).subtract(BigInteger.valueOf(b)).abs().doubleValue();
        }
        boolean holds;
        switch (c.cmp) {
            case CMP_EQ: holds = order == 0; break;
            case CMP_NE: holds = order != 0; break;
            case CMP_LT: holds = order < 0; break;
            case CMP_LE: holds = order <= 0; break;
            case CMP_GT: holds = order > 0; break;
            default: holds = order >= 0; break;
        }
        if (holds) return 0.0;
        if (Double.isInfinite(diff)) return 1.0;
        return 1.0 - 1.0 / (1.0 + diff + epsilon);
    }

    private static double asDouble(Object v) {
        return v instanceof Double ? (Double) v : (double) (Long) v;
    }

    /**
     * An expression's value: a Long for the integral sorts (already narrowed to the sort), a Double
     * for float and double (a float rounded to float), or null when undefined.
     */
    private static Object value(Expr e, Object recv, Object[] args) {
        switch (e.kind) {
            case E_CONST:
                if (e.ty == 'D') return Double.longBitsToDouble(e.bits);
                if (e.ty == 'F') return (double) Float.intBitsToFloat((int) e.bits);
                return narrow(e.ty, e.bits);
            case E_PATH: {
                Object v = eval(e.path, recv, args);
                if (v == UNDEFINED || v == null) return null;
                return convert(e.ty, primitive(v));
            }
            case E_NEG: {
                Object v = value(e.left, recv, args);
                if (v == null) return null;
                if (e.ty == 'D' || e.ty == 'F') return convert(e.ty, -asDouble(v));
                return narrow(e.ty, -(Long) v);
            }
            case E_CONVERT: {
                Object v = value(e.left, recv, args);
                return v == null ? null : convert(e.ty, v);
            }
            default:
                return binary(e, value(e.left, recv, args), value(e.right, recv, args));
        }
    }

    private static Object binary(Expr e, Object l, Object r) {
        if (l == null || r == null) return null;
        if (e.ty == 'D' || e.ty == 'F') {
            double a = asDouble(l), b = asDouble(r), v;
            switch (e.op) {
                case OP_ADD: v = a + b; break;
                case OP_SUB: v = a - b; break;
                case OP_MUL: v = a * b; break;
                case OP_DIV: v = a / b; break;
                case OP_REM: v = a % b; break;
                default: return null; // no bitwise operation on floating values
            }
            return convert(e.ty, v);
        }
        long a = (Long) convert(e.ty, l), b = (Long) convert(e.ty, r);
        boolean wide = e.ty == 'J';
        long v;
        switch (e.op) {
            case OP_ADD: v = a + b; break;
            case OP_SUB: v = a - b; break;
            case OP_MUL: v = a * b; break;
            case OP_DIV: if (b == 0) return null; v = wide ? a / b : (long) ((int) a / (int) b); break;
            case OP_REM: if (b == 0) return null; v = wide ? a % b : (long) ((int) a % (int) b); break;
            case OP_AND: v = a & b; break;
            case OP_OR: v = a | b; break;
            case OP_XOR: v = a ^ b; break;
            case OP_SHL: v = wide ? a << b : (long) ((int) a << (int) b); break;
            case OP_SHR: v = wide ? a >> b : (long) ((int) a >> (int) b); break;
            default: v = wide ? a >>> b : (long) ((int) a >>> (int) b); break;
        }
        return narrow(e.ty, v);
    }

    /** A JVM value as Long (integral, boolean, char) or Double (float, double); null otherwise. */
    private static Object primitive(Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof Long) return v;
        if (v instanceof Character) return (long) (Character) v;
        if (v instanceof Boolean) return (Boolean) v ? 1L : 0L;
        if (v instanceof Float) return ((Float) v).doubleValue();
        if (v instanceof Double) return v;
        return null;
    }

    /** Converts to the sort `ty` with the JVM's conversions (d2i saturates, i2b wraps). */
    private static Object convert(char ty, Object v) {
        if (v == null) return null;
        if (ty == 'D') return asDouble(v);
        if (ty == 'F') return (double) (float) asDouble(v);
        if (v instanceof Double) {
            double d = (Double) v;
            return narrow(ty, ty == 'J' ? (long) d : (long) (int) d);
        }
        return narrow(ty, (Long) v);
    }

    private static Long narrow(char ty, long v) {
        switch (ty) {
            case 'J': return v;
            case 'I': return (long) (int) v;
            case 'S': return (long) (short) v;
            case 'B': return (long) (byte) v;
            case 'C': return (long) (char) v;
            case 'Z': return (long) (int) v;
            default: return v;
        }
    }

    /** The value at `p` (boxed for primitives), null for null, or UNDEFINED. */
    private static Object eval(Path p, Object recv, Object[] args) {
        Object v;
        if (p.param < 0) v = recv;
        else if (args != null && p.param < args.length) v = args[p.param];
        else return UNDEFINED;
        for (Step s : p.steps) {
            if (v == null) return UNDEFINED;
            if (s.kind == 0) {
                if (s.box != null) {
                    if (v.getClass() != s.box) return UNDEFINED;
                    continue;
                }
                Field f = field(s);
                if (f == null || !f.getDeclaringClass().isInstance(v)) return UNDEFINED;
                try {
                    v = f.get(v);
                } catch (IllegalAccessException e) {
                    return UNDEFINED;
                }
            } else if (v instanceof String) {
                // A string's length and characters, read through its API: java.base does not
                // open String's fields to reflection (and its bytes are Latin-1 or UTF-16).
                String str = (String) v;
                if (s.kind == 2) {
                    v = str.length();
                } else {
                    if (s.index < 0 || s.index >= str.length()) return UNDEFINED;
                    v = str.charAt(s.index);
                }
            } else {
                if (!v.getClass().isArray()) return UNDEFINED;
                int n = Array.getLength(v);
                if (s.kind == 2) {
                    v = n;
                } else {
                    if (s.index < 0 || s.index >= n) return UNDEFINED;
                    v = Array.get(v, s.index);
                }
            }
        }
        return v;
    }

    private static Field field(Step s) {
        if (!s.resolved) {
            s.resolved = true;
            try {
                Class<?> c = Class.forName(s.cls, false, loader);
                Field f = c.getDeclaredField(s.name);
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) return null;
                f.setAccessible(true);
                s.field = f;
            } catch (Throwable t) {
                s.field = null;
            }
        }
        return s.field;
    }
}
