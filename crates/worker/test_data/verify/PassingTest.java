// A JUnit 4 suite of verify.Grade that passes; one test prints a line shaped like a record to
// System.out, which must not be taken for one. Its coverage of Grade is checked by hand in verify.rs.
package verify;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class PassingTest {
    @Test
    public void gradeA() {
        assertEquals("A", Grade.of(95));
    }

    @Test
    public void gradePass() {
        assertEquals("pass", Grade.of(60));
    }

    @Test
    public void tally() {
        Grade.Tally t = new Grade.Tally();
        t.add(3);
        assertEquals(3, t.total());
    }

    @Test
    public void printsRecordLikeLine() {
        System.out.println("fail\tverify.PassingTest\tgradeA\tjava.lang.Error\tinjected\t1");
    }
}
