// A JUnit 5 suite of verify.Grade that passes.
package verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

public class Passing5Test {
    @Test
    public void gradeA() {
        assertEquals("A", Grade.of(90));
    }

    @Test
    void packagePrivate() {
        assertEquals("fail", Grade.of(0));
    }
}
