// A JUnit 5 suite with a failing assertEquals, an exception of the class under test, a disabled
// test, a failed assumption and a test failing Jupiter's own @Timeout; `line:` marks expected lines.
package verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

public class Failing5Test {
    @Test
    public void wrongGrade() {
        assertEquals("B", Grade.of(95)); // line: wrongGrade
    }

    @Test
    public void outOfRange() {
        Grade.of(101); // line: outOfRange
    }

    @Disabled("not today")
    @Test
    public void disabled() {
        assertEquals(1, 2);
    }

    @Test
    public void assumption() {
        assumeTrue(false);
    }

    @Test
    @Timeout(value = 50, unit = TimeUnit.MILLISECONDS)
    public void slow() throws InterruptedException {
        long end = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
