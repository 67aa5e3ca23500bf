// Hand-instrumented subject whose static initialiser throws (class id 1).
package subjects;

import suitesmith.rt.Tracer;

public class BadInit {
    static int value = boom();

    static int boom() {
        Tracer.classInit(1);
        throw new IllegalStateException("clinit fails");
    }

    public static void __suitesmith_reset() {
        value = boom();
    }

    public static int get() {
        return value;
    }
}
