/**
 * Test driver for the static reset method: changes the static state of behaviour.Closures, calls
 * its `__suitesmith_reset()` through reflection, and prints the state before and after, so the
 * instrument tests can check that statics return to what `<clinit>` made of them.
 */
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;

public final class ResetCheck {
    private ResetCheck() {}

    public static void main(String[] args) throws Exception {
        Class<?> c = Class.forName("behaviour.Closures");
        Field created = c.getDeclaredField("created");
        Field names = c.getDeclaredField("NAMES");
        Method pick = c.getDeclaredMethod("pick", boolean.class, String.class, String.class);
        created.setAccessible(true);
        names.setAccessible(true);
        pick.setAccessible(true);
        pick.invoke(null, true, "a", "b");
        pick.invoke(null, false, "a", "b");
        @SuppressWarnings("unchecked")
        List<String> list = (List<String>) names.get(null);
        list.add("echo");
        Object before = names.get(null);
        System.out.println("before created=" + created.get(null) + " names=" + list);
        Method reset = c.getDeclaredMethod("__suitesmith_reset");
        System.out.println("reset modifiers=" + Modifier.toString(reset.getModifiers())
                + " NAMES final=" + Modifier.isFinal(names.getModifiers()));
        Field constant = c.getDeclaredField("CONSTANT");
        constant.setAccessible(true);
        reset.invoke(null);
        System.out.println("after created=" + created.get(null) + " names=" + names.get(null)
                + " fresh=" + (names.get(null) != before) + " CONSTANT=" + constant.get(null));
    }
}
