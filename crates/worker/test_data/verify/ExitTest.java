// A JUnit 4 test that calls System.exit: the JVM ends in the middle of the run.
package verify;

import org.junit.Test;

public class ExitTest {
    @Test
    public void exits() {
        System.exit(3);
    }
}
