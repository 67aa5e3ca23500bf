// A JUnit 4 test that never ends but has JUnit's own timeout: JUnit fails it after 300 ms and goes on
// with the next test, while its thread keeps spinning until the runner exits the JVM.
package verify;

import org.junit.Test;

public class TimeoutTest {
    static volatile long sink;

    @Test(timeout = 300)
    public void spinsWithTimeout() {
        while (sink >= 0) {
            sink++;
        }
    }
}
