/**
 * Mutant schemata (crates/rt-abi mutants.rs, docs/mutation.md): the static methods that stand in for
 * a mutable instruction of a class instrumented for the mutation runs. Each computes the original
 * operation, unless the active mutant's site is the call's own (the bits of its last argument above
 * {@link #SHIFT}); then it computes the mutant's. A test activates a mutant with the protocol's
 * {@code Mutant} statement (v15); the executor clears it when the test ends, so static reset and
 * the next test run the original code. Only the test thread sets it; threads the test starts see it
 * through {@code Thread.start}'s happens-before edge. One method per operand type, each a switch
 * of the same shape: int and long arithmetic wrap differently, and boxing would cost every call;
 * floats are computed as doubles.
 */
package suitesmith.rt;

public final class Mutants {
    private Mutants() {}

    /** Bits of the last argument holding the original operation (rt-abi SHIFT). */
    static final int SHIFT = 4;
    private static final int LOW = (1 << SHIFT) - 1;

    // Operator codes (rt-abi mutants::op), condition codes (rt-abi cond), unary codes.
    static final int ADD = 0, SUB = 1, MUL = 2, DIV = 3, REM = 4, SHL = 5, SHR = 6, USHR = 7, AND = 8, OR = 9,
        XOR = 10, FIRST = 11, SECOND = 12;
    static final int EQ = 0, NE = 1, LT = 2, GE = 3, GT = 4, LE = 5;
    static final int INC = 0, DEC = 1, NEG = 2;

    /** The active mutant's site, or -1 when none is active. */
    private static int site = -1;
    private static int op;
    private static long bits;

    static void activate(int s, int o, long b) {
        site = s;
        op = o;
        bits = b;
    }

    static void clear() {
        site = -1;
    }

    private static boolean active(int arg) {
        return (arg >>> SHIFT) == site;
    }

    /** The operation a binary schema computes: the mutant's at its site, else the original. */
    private static int binOp(int arg) {
        return active(arg) ? op : arg & LOW;
    }

    public static int binI(int a, int b, int arg) {
        switch (binOp(arg)) {
            case ADD: return a + b;
            case SUB: return a - b;
            case MUL: return a * b;
            case DIV: return a / b;
            case REM: return a % b;
            case SHL: return a << b;
            case SHR: return a >> b;
            case USHR: return a >>> b;
            case AND: return a & b;
            case OR: return a | b;
            case XOR: return a ^ b;
            case FIRST: return a;
            default: return b;
        }
    }

    public static long binJ(long a, long b, int arg) {
        switch (binOp(arg)) {
            case ADD: return a + b;
            case SUB: return a - b;
            case MUL: return a * b;
            case DIV: return a / b;
            case REM: return a % b;
            case AND: return a & b;
            case OR: return a | b;
            case XOR: return a ^ b;
            case FIRST: return a;
            default: return b;
        }
    }

    public static long binJI(long a, int b, int arg) {
        switch (binOp(arg)) {
            case SHL: return a << b;
            case SHR: return a >> b;
            default: return a >>> b;
        }
    }

    /**
     * In double, rounded once to float: exact for + - * / (double rounding is innocuous at 53 bits
     * for 24-bit operands, Figueroa 1995), for % (the remainder of two floats is a float) and for
     * the operands themselves.
     */
    public static float binF(float a, float b, int arg) {
        return (float) binD(a, b, arg);
    }

    public static double binD(double a, double b, int arg) {
        switch (binOp(arg)) {
            case ADD: return a + b;
            case SUB: return a - b;
            case MUL: return a * b;
            case DIV: return a / b;
            case REM: return a % b;
            case FIRST: return a;
            default: return b;
        }
    }

    /** 1 when a condition holds on the sign of a comparison (-1, 0, 1), else 0. */
    private static int holds(int cond, int sign) {
        boolean r;
        switch (cond) {
            case EQ: r = sign == 0; break;
            case NE: r = sign != 0; break;
            case LT: r = sign < 0; break;
            case GE: r = sign >= 0; break;
            case GT: r = sign > 0; break;
            default: r = sign <= 0; break;
        }
        return r ? 1 : 0;
    }

    private static int condOf(int arg) {
        return active(arg) ? op : arg & 7;
    }

    public static int condZ(int v, int arg) {
        return holds(condOf(arg), v < 0 ? -1 : v == 0 ? 0 : 1);
    }

    public static int condII(int a, int b, int arg) {
        return holds(condOf(arg), a < b ? -1 : a == b ? 0 : 1);
    }

    public static int condAA(Object a, Object b, int arg) {
        return holds(condOf(arg), a == b ? 0 : 1);
    }

    public static int condA(Object a, int arg) {
        return holds(condOf(arg), a == null ? 0 : 1);
    }

    public static int unaryI(int v, int arg) {
        if (!active(arg)) return v;
        return op == INC ? v + 1 : op == DEC ? v - 1 : -v;
    }

    public static long unaryJ(long v, int arg) {
        if (!active(arg)) return v;
        return op == INC ? v + 1 : op == DEC ? v - 1 : -v;
    }

    /** In double, rounded once to float, as {@link #binF}. */
    public static float unaryF(float v, int arg) {
        return (float) unaryD(v, arg);
    }

    public static double unaryD(double v, int arg) {
        if (!active(arg)) return v;
        return op == INC ? v + 1 : op == DEC ? v - 1 : -v;
    }

    public static int constI(int c, int arg) {
        return active(arg) ? (int) bits : c;
    }

    public static long constJ(long c, int arg) {
        return active(arg) ? bits : c;
    }

    public static float constF(float c, int arg) {
        return active(arg) ? Float.intBitsToFloat((int) bits) : c;
    }

    public static double constD(double c, int arg) {
        return active(arg) ? Double.longBitsToDouble(bits) : c;
    }
}
