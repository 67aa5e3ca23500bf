// A JUnit 4 test that never ends and has no JUnit timeout: only the JVM's wall-clock limit stops it.
package verify;

import org.junit.Test;

public class LoopTest {
    static volatile long sink;

    @Test
    public void spinsForever() {
        while (sink >= 0) {
            sink++;
        }
    }
}
