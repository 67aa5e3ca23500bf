package pit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

// JUnit 4. Kills max's negated condition and both its returns (the boundary mutant is equivalent and
// survives); calls add without checking the result (both its mutants survive); kills four of
// countdown's mutants and times out on the fifth; never calls neverCalled or Acc (no coverage).
public class CalcTest {
  @Test
  public void maxPicksTheLarger() {
    assertEquals(3, Calc.max(3, 1));
    assertEquals(3, Calc.max(1, 3));
  }

  @Test
  public void addIsCalledButNotChecked() {
    Calc.add(2, 2);
  }

  @Test
  public void countdownCountsSteps() {
    assertEquals(3L, Calc.countdown(3L));
  }
}
