package verify;

/** Compiles only when java.base exports jdk.internal.misc to it (javac's --add-exports). */
public class InternalsTest {
    boolean booted() {
        return jdk.internal.misc.VM.isBooted();
    }
}
