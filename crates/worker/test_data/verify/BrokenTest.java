// A JUnit 4 test that does not compile: the diagnostic must name this file and the marked line.
package verify;

import org.junit.Test;

public class BrokenTest {
    @Test
    public void typeError() {
        int n = Grade.of(1); // line: typeError
    }
}
