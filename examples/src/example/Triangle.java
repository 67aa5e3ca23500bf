package example;

/** The classic triangle classification subject of search-based testing papers. */
public final class Triangle {
    public enum Kind { INVALID, EQUILATERAL, ISOSCELES, SCALENE }

    private Triangle() {}

    public static Kind classify(int a, int b, int c) {
        if (a <= 0 || b <= 0 || c <= 0) {
            return Kind.INVALID;
        }
        if ((long) a + b <= c || (long) a + c <= b || (long) b + c <= a) {
            return Kind.INVALID;
        }
        if (a == b && b == c) {
            return Kind.EQUILATERAL;
        }
        if (a == b || b == c || a == c) {
            return Kind.ISOSCELES;
        }
        return Kind.SCALENE;
    }
}
