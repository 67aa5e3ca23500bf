/**
 * Runs every ordered pair of the test methods of a JUnit 4 class, one pair after another in one JVM
 * (`java OrderedPairs <test class>`): a test that passes alone but fails after another depends on
 * what the other left behind. Prints each failure as `FAIL <first> then <second>: <failure>` and a
 * last line `pairs: <n> failures`; exits 1 when any pair failed. Used by
 * crates/cli/tests/system_properties.rs on written tests; JUnit 4 alone.
 */
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.Test;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;

public final class OrderedPairs {
    private OrderedPairs() {}

    public static void main(String[] args) throws Exception {
        Class<?> c = Class.forName(args[0]);
        List<String> methods = new ArrayList<String>();
        for (Method m : c.getMethods()) {
            if (m.isAnnotationPresent(Test.class)) methods.add(m.getName());
        }
        Collections.sort(methods);
        JUnitCore core = new JUnitCore();
        int failures = 0;
        for (String first : methods) {
            for (String second : methods) {
                if (first.equals(second)) continue;
                for (String m : new String[] {first, second}) {
                    Result r = core.run(Request.method(c, m));
                    if (!r.wasSuccessful()) {
                        failures++;
                        System.out.println("FAIL " + first + " then " + second + ": " + r.getFailures().get(0));
                    }
                }
            }
        }
        System.out.println("pairs: " + failures + " failures");
        System.exit(failures == 0 ? 0 : 1);
    }
}
