// A JUnit 4 test that fails only sometimes: every second run in the same working directory, because
// it keeps a marker file there (the sort of hidden state a generated test must not depend on).
package verify;

import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import org.junit.Test;

public class FlakyTest {
    @Test
    public void alternates() throws IOException {
        File marker = new File("flaky.marker");
        if (marker.exists()) {
            marker.delete();
            fail("marker was there"); // line: alternates
        }
        marker.createNewFile();
    }

    @Test
    public void stable() {
        Grade.of(50);
    }
}
