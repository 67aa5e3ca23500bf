package sample.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/**
 * A hand-written test of part of Counter (counting up to the limit): in complement mode the
 * generated CounterTest goes beside it and covers the rest (a bad limit, isFull, reset).
 */
public class CounterLimitTest {
    @Test
    public void countsUpToTheLimitThenRefuses() {
        Counter c = new Counter(2);
        assertTrue(c.increment());
        assertTrue(c.increment());
        assertFalse(c.increment());
        assertEquals(2, c.count());
    }
}
