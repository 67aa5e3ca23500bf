// Hand-instrumented subject: mutable static state, reported by ClassInit (class id 0) and reset by a
// hand-written `__suitesmith_reset` (what the instrumenter will generate).
package subjects;

import suitesmith.rt.Tracer;

public class Counter {
    static int count;
    static final java.util.List<String> LOG = new java.util.ArrayList<String>();

    static {
        Tracer.classInit(0);
        count = 0;
    }

    public static void __suitesmith_reset() {
        count = 0;
        LOG.clear();
    }

    public static int next() {
        LOG.add("x");
        return ++count;
    }

    public static int logSize() {
        return LOG.size();
    }
}
