package pit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

// JUnit 5. max only with a > b: its negated condition and first return are killed, the boundary mutant
// survives, the second return is never reached (no coverage); the nested Acc's two mutants are killed;
// add, countdown and neverCalled are never called (no coverage).
class CalcJupiterTest {
  @Test
  void maxOfALargerFirst() {
    assertEquals(3, Calc.max(3, 1));
  }

  @Test
  void accCounts() {
    Calc.Acc acc = new Calc.Acc();
    acc.inc();
    acc.inc();
    assertEquals(2, acc.count());
  }
}
