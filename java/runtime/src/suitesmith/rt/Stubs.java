/**
 * What the methods of stub classes answer. A stub is an anonymous implementation of an abstract
 * class or interface that a test creates; the engine generates its class (crate
 * stubgen), whose every method calls {@link #answer} with its own {@link Answers} and its
 * arguments. The semantics are those of the anonymous class the JUnit renderer writes: the answers
 * in turn, then the return type's default value (so that a loop on a stub's {@code hasNext()}
 * ends); a method that runs its {@code Runnable} arguments runs them first, in order (a direct
 * executor); a method with a value to throw throws it once, at the call after its answers (the
 * written test's {@code if (callsA == answers.length) { callsA++; throw e; }}).
 */
package suitesmith.rt;

public final class Stubs {
    private Stubs() {}

    /** The answers of one method of one stub instance, and how many times it was called. */
    public static final class Answers {
        final char ret;
        final boolean[] runnable;
        final Object[] values;
        int calls;
        /** Whether the method is yet to throw {@link #thrown} after its answers (null: {@code throw null}). */
        boolean throwPending;
        Throwable thrown;

        Answers(String descriptor, boolean runs, Object[] values) {
            int close = descriptor.indexOf(')');
            this.ret = descriptor.charAt(close + 1);
            this.values = values;
            // Which parameters are Runnables to run: their positions in the descriptor.
            java.util.List<Boolean> marks = new java.util.ArrayList<>();
            int i = 1;
            while (i < close) {
                int start = i;
                while (descriptor.charAt(i) == '[') i++;
                if (descriptor.charAt(i) == 'L') i = descriptor.indexOf(';', i);
                i++;
                marks.add(runs && descriptor.substring(start, i).equals("Ljava/lang/Runnable;"));
            }
            this.runnable = new boolean[marks.size()];
            for (int k = 0; k < runnable.length; k++) runnable[k] = marks.get(k);
        }

        /** Makes the method throw {@code t} after its answers; a null throws as {@code throw null} does. */
        void willThrow(Object t) {
            throwPending = true;
            thrown = t instanceof Throwable ? (Throwable) t : null;
        }
    }

    /** The answer of a stub method: called by generated stub classes only. */
    public static Object answer(Object answers, Object[] args) {
        Answers a = (Answers) answers;
        for (int i = 0; i < args.length && i < a.runnable.length; i++) {
            if (a.runnable[i]) ((Runnable) args[i]).run();
        }
        if (a.ret == 'V') {
            throwDue(a);
            return null;
        }
        // The written test builds its array of answers on every call: a null among them for a
        // primitive type throws there, whichever answer is due.
        if (a.ret != 'L' && a.ret != '[') {
            for (Object v : a.values) {
                if (v == null) throw new NullPointerException("a null answer for a primitive return type");
            }
        }
        if (a.calls >= a.values.length) {
            throwDue(a);
            return defaultValue(a.ret);
        }
        return coerce(a.ret, a.values[a.calls++]);
    }

    /** Throws the method's value if it has one and has not thrown it yet (the answers are used up). */
    private static void throwDue(Answers a) {
        if (!a.throwPending) return;
        a.throwPending = false;
        if (a.thrown == null) throw new NullPointerException();
        Stubs.<RuntimeException>sneaky(a.thrown);
    }

    /**
     * Throws a checked exception where the stub's method declares it but {@link #answer} does not
     * (the generated class calls it from the overriding method: the JVM checks no throws clause).
     */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }

    private static Object defaultValue(char ret) {
        switch (ret) {
            case 'Z': return Boolean.FALSE;
            case 'B': return (byte) 0;
            case 'C': return (char) 0;
            case 'S': return (short) 0;
            case 'I': return 0;
            case 'J': return 0L;
            case 'F': return 0f;
            case 'D': return 0d;
            default: return null;
        }
    }

    /**
     * A value as the method's primitive return type, widened as Java widens the elements of the
     * answer array the renderer writes (`long[] answers = {int0}`); `answer` has ruled out nulls.
     */
    private static Object coerce(char ret, Object v) {
        if (ret == 'L' || ret == '[') return v;
        if (v instanceof Character && ret != 'C') v = (int) (Character) v;
        switch (ret) {
            case 'Z': return (Boolean) v;
            case 'C': return (Character) v;
            case 'B': return ((Number) v).byteValue();
            case 'S': return ((Number) v).shortValue();
            case 'I': return ((Number) v).intValue();
            case 'J': return ((Number) v).longValue();
            case 'F': return ((Number) v).floatValue();
            default: return ((Number) v).doubleValue();
        }
    }
}
