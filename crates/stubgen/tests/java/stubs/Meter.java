package stubs;

/**
 * An abstract class with two constructors (one with two-slot parameters) whose first constructor
 * calls one of its abstract methods: a stub's answers must already be in place by then.
 */
public abstract class Meter {
    private final String name;
    private final int scale;
    /** Computed by the constructor through an abstract method. */
    private final String early;

    protected Meter(String name, int scale) {
        this.name = name;
        this.scale = scale;
        this.early = label(scale);
    }

    Meter(long start, double factor, char unit) {
        this.name = "from " + start + "*" + factor + unit;
        this.scale = (int) (start * factor);
        this.early = null;
    }

    public abstract long read();

    protected abstract String label(int n);

    public abstract void reset();

    abstract boolean ok(double tolerance, long limit);

    /** Uses every abstract method, as code under test would. */
    public String describe() {
        long v = read();
        reset();
        return name + "/" + scale + " early=" + early + " read=" + v + " label=" + label((int) v)
                + " ok=" + ok(0.5, v);
    }
}
