/**
 * A bounded in-memory sink for the SUT's System.out / System.err. The worker installs it once; the
 * executor clears it before each test and reads the first {@link #MAX_CHARS} characters after it.
 * Output beyond the bound is dropped, so a test printing in a loop cannot exhaust memory.
 */
package suitesmith.rt;

import java.io.OutputStream;
import java.nio.charset.Charset;

final class Capture extends OutputStream {
    static final int MAX_CHARS = 4096;
    /** UTF-8 needs at most 4 bytes per code point; keep enough bytes for MAX_CHARS characters. */
    private static final int MAX_BYTES = MAX_CHARS * 4;
    static final Charset UTF8 = Charset.forName("UTF-8");

    private final byte[] buf = new byte[MAX_BYTES];
    private int count;

    @Override
    public synchronized void write(int b) {
        if (count < buf.length) buf[count++] = (byte) b;
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        int n = Math.min(len, buf.length - count);
        if (n > 0) {
            System.arraycopy(b, off, buf, count, n);
            count += n;
        }
    }

    synchronized void clear() {
        count = 0;
    }

    /** The captured text, first MAX_CHARS UTF-16 code units. */
    synchronized String text() {
        if (count == 0) return "";
        String s = new String(buf, 0, count, UTF8);
        return s.length() > MAX_CHARS ? s.substring(0, MAX_CHARS) : s;
    }
}
