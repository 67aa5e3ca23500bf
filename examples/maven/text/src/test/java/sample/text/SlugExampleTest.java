package sample.text;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** A hand-written test: the generated SlugTest goes beside it. */
public class SlugExampleTest {
    @Test
    public void slugOfATitle() {
        assertEquals("hello-world", new Slug(3).of("Hello, World!"));
    }
}
