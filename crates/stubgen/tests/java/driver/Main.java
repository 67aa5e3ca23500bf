package driver;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import stubs.Meter;
import stubs.Prims;
import stubs.Source;
import suitesmith.rt.Stubs;

/**
 * Instantiates every generated stub by reflection (its constructors take the answers as an extra
 * last Object[]), calls every method, and prints the results with the calls the runtime recorded.
 * The answers are listed in the order of the abstract methods in the class file, which is the
 * spec's order.
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        meter();
        source();
        prims();
    }

    static void meter() throws Exception {
        Class<?> c = shape("stubs.Meter$SuitesmithStub");
        // read, label, reset, ok
        Function<Object[], Object> label = a -> "label" + a[0];
        Object[] answers = {42L, label, "ignored", Boolean.TRUE};
        Meter m = (Meter) make(c, new Class<?>[] {String.class, int.class}, new Object[] {"m", 7}, answers);
        show("describe()", m::describe);
        Class<?>[] wide = {long.class, double.class, char.class};
        Meter w = (Meter) make(c, wide, new Object[] {3L, 2.5, 'u'}, answers);
        show("describe() (long, double, char)", w::describe);
        answers[0] = 5; // an Integer where a long is expected
        show("read() answering an Integer", w::read);
        answers[0] = null;
        show("read() answering null", w::read);
        answers[1] = null;
        show("label(1) answering null", () -> call(w, "label", new Class<?>[] {int.class}, 1));
    }

    static void source() throws Exception {
        Class<?> c = shape("stubs.Source$SuitesmithStub");
        // next, size
        Function<Object[], Object> size = a -> (int) (Character) a[0] + ((Object[]) a[1]).length;
        @SuppressWarnings("unchecked")
        Source<String> s = (Source<String>) make(c, new Class<?>[] {}, new Object[] {}, new Object[] {"n1", size});
        show("next()", s::next);
        show("size('a', {null})", () -> s.size('a', new Object[] {null}));
        show("both()", s::both);
    }

    static void prims() throws Exception {
        Class<?> c = shape("stubs.Prims$SuitesmithStub");
        Function<Object[], Object> all = a -> Stubs.show(a);
        Object[] answers = {
            true, (byte) -7, 'q', (short) 300, 100000, 1L << 40, 1.5f, -2.25,
            new int[][] {{1, 2}, {3}}, all, new StringBuilder("sb"),
        };
        Prims p = (Prims) make(c, new Class<?>[] {}, new Object[] {}, answers);
        show("z(false)", () -> p.z(false));
        show("b(1)", () -> p.b((byte) 1));
        show("c('x')", () -> p.c('x'));
        show("s(-2)", () -> p.s((short) -2));
        show("i(-1)", () -> p.i(-1));
        show("j(MAX)", () -> p.j(Long.MAX_VALUE));
        show("f(0.25)", () -> p.f(0.25f));
        show("d(NaN)", () -> p.d(Double.NaN));
        show("grid({a, b}, 9)", () -> Arrays.deepToString(p.grid(new String[] {"a", "b"}, 9)));
        show("mixed(...)", () -> p.mixed(-1L, 2, 3.5, "four", 5f, true));
        show("seq()", p::seq);
        answers[10] = "a String is a CharSequence too";
        show("seq() answering a String", p::seq);
        answers[10] = 17;
        show("seq() answering an Integer", p::seq);
    }

    /** Loads a stub and prints its shape: modifiers, supertypes, field, constructors, methods. */
    static Class<?> shape(String name) throws Exception {
        Class<?> c = Class.forName(name);
        System.out.println("== " + c.getName() + ": " + java.lang.reflect.Modifier.toString(c.getModifiers())
                + (c.isSynthetic() ? " synthetic" : "") + ", extends " + c.getSuperclass().getName()
                + ", implements " + Arrays.toString(c.getInterfaces()));
        System.out.println("  field " + Arrays.toString(c.getDeclaredFields()));
        List<Member> members = new ArrayList<>();
        members.addAll(Arrays.asList(c.getDeclaredConstructors()));
        members.addAll(Arrays.asList(c.getDeclaredMethods()));
        members.stream().map(Object::toString).sorted().forEach(m -> System.out.println("  " + m));
        return c;
    }

    /** A stub made with the constructor mirroring `params`, which takes the answers last. */
    static Object make(Class<?> c, Class<?>[] params, Object[] args, Object[] answers) throws Exception {
        Class<?>[] withAnswers = Arrays.copyOf(params, params.length + 1);
        withAnswers[params.length] = Object[].class;
        Constructor<?> k = c.getDeclaredConstructor(withAnswers);
        Object[] withArgs = Arrays.copyOf(args, args.length + 1);
        withArgs[args.length] = answers;
        return k.newInstance(withArgs);
    }

    static Object call(Object o, String name, Class<?>[] params, Object... args) throws Exception {
        try {
            return o.getClass().getMethod(name, params).invoke(o, args);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    interface Thunk {
        Object get() throws Exception;
    }

    /** Prints the result (with its class) or the exception, then the calls the runtime recorded. */
    static void show(String what, Thunk t) {
        String res;
        try {
            res = Stubs.show(t.get());
        } catch (Exception e) {
            res = "threw " + e.getClass().getName();
        }
        System.out.println(what + " = " + res);
        for (String call : Stubs.LOG) {
            System.out.println("    answer " + call);
        }
        Stubs.LOG.clear();
    }
}
