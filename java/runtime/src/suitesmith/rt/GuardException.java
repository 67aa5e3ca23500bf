/**
 * Thrown by a guard of {@link Guards} that refuses an escape which has no natural failure mode in the
 * JDK API (process exit, halt, process creation, too many threads).
 *
 * It extends {@link Error}, not RuntimeException: SUT code commonly has `catch (Exception e)` or
 * `catch (RuntimeException e)` (retry loops, logging wrappers) and must not swallow an exit and keep
 * running. A `catch (Throwable t)` still can; that is why every guard also records the refusal in
 * {@link Guards} when it fires, and the executor reports the test as Guard whatever the SUT did with
 * the exception afterwards.
 */
package suitesmith.rt;

public final class GuardException extends Error {
    private static final long serialVersionUID = 1L;

    public GuardException(String what) {
        super("suitesmith guard: " + what);
    }
}
