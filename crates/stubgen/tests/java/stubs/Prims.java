package stubs;

/**
 * An abstract method for every primitive return and parameter type, array and interface returns,
 * and a mix of one- and two-slot parameters. Its eleven methods also take answer indices past
 * `iconst_5`.
 */
public abstract class Prims {
    public abstract boolean z(boolean x);

    public abstract byte b(byte x);

    public abstract char c(char x);

    public abstract short s(short x);

    public abstract int i(int x);

    public abstract long j(long x);

    public abstract float f(float x);

    public abstract double d(double x);

    public abstract int[][] grid(String[] names, int n);

    public abstract Object mixed(long a, int b, double c, Object d, float e, boolean f);

    public abstract CharSequence seq();
}
