package suitesmith.rt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A test double of the runtime's stub support: it records every call and returns the answer
 * itself, or, for a {@link Function}, what the function computes from the arguments.
 */
public final class Stubs {
    /** Every call, as "answer <- [arg:Type, ...]". */
    public static final List<String> LOG = new ArrayList<>();

    private Stubs() {}

    @SuppressWarnings("unchecked")
    public static Object answer(Object a, Object[] args) {
        StringBuilder sb = new StringBuilder();
        for (Object arg : args) {
            sb.append(sb.length() == 0 ? "" : ", ").append(show(arg));
        }
        LOG.add((a instanceof Function ? "fn" : show(a)) + " <- [" + sb + "]");
        return a instanceof Function ? ((Function<Object[], Object>) a).apply(args) : a;
    }

    /** A value with its class, so the boxing of each argument shows. */
    public static String show(Object o) {
        if (o == null) {
            return "null";
        }
        String v = o instanceof Object[] ? Arrays.deepToString((Object[]) o) : String.valueOf(o);
        return v + ":" + o.getClass().getSimpleName();
    }
}
