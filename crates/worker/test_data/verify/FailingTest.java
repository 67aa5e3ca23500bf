// A JUnit 4 suite with a failing assertEquals, an exception of the class under test, an ignored test
// and a failed assumption; the lines marked `line:` are the ones verify.rs expects in the report.
package verify;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import org.junit.Ignore;
import org.junit.Test;

public class FailingTest {
    @Test
    public void wrongGrade() {
        String g = Grade.of(95);
        assertEquals("B", g); // line: wrongGrade
    }

    @Test
    public void outOfRange() {
        int score = -1;
        Grade.of(score); // line: outOfRange
    }

    @Ignore("not today")
    @Test
    public void ignored() {
        assertEquals(1, 2);
    }

    @Test
    public void assumption() {
        assumeTrue(false);
    }

    @Test
    public void passes() {
        assertEquals("fail", Grade.of(10));
    }
}
