/**
 * The worker wire format of docs/protocol.md (version 1): frame kinds, tags, and the primitive codecs
 * (big-endian, strings as UTF-16 code units) shared by {@link WorkerMain} and {@link Executor}.
 * It deliberately holds no logic about what a message means.
 */
package suitesmith.rt;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;

final class Protocol {
    private Protocol() {}

    static final int VERSION = 16;

    // Engine -> worker.
    static final int HELLO = 1;
    static final int SETUP = 2;
    static final int EXECUTE = 3;
    static final int SHUTDOWN = 4;

    // Worker -> engine.
    static final int READY = 128;
    static final int SETUP_DONE = 129;
    static final int TEST_RESULT = 130;
    static final int BATCH_DONE = 131;
    static final int ERROR = 132;

    /** Largest frame the worker accepts (a sanity bound against a desynchronised stream). */
    static final int MAX_FRAME = 1 << 30;

    /** `var` value meaning "none". */
    static final int NO_VAR = 0xFFFF;

    // Statement tags.
    static final int S_PRIMITIVE = 0, S_STRING = 1, S_NULL = 2, S_ENUM = 3, S_CONSTRUCTOR = 4, S_METHOD = 5,
        S_FIELD_GET = 6, S_FIELD_SET = 7, S_NEW_ARRAY = 8, S_ARRAY_STORE = 9, S_ARRAY_LOAD = 10, S_COPY = 11,
        S_CLASS_LITERAL = 12, S_STUB = 13, S_SCRATCH_FILE = 14, S_MUTANT = 15;

    // Outcome tags.
    static final int O_NOT_EXECUTED = 0, O_VALUE = 1, O_THREW = 2, O_TIMEOUT = 3, O_GUARD = 4;

    // Value tags.
    static final int V_VOID = 0, V_NULL = 1, V_BOOL = 2, V_BYTE = 3, V_CHAR = 4, V_SHORT = 5, V_INT = 6,
        V_LONG = 7, V_FLOAT = 8, V_DOUBLE = 9, V_STRING = 10, V_OBJECT = 11, V_ARRAY = 12, V_ENUM = 13;

    // TestResult status.
    static final int STATUS_NORMAL = 0, STATUS_TIMEOUT = 1, STATUS_GUARD = 2;

    /** One frame as read: its kind and its payload (the bytes after the kind). */
    static final class Frame {
        final int kind;
        final DataInputStream payload;

        Frame(int kind, DataInputStream payload) {
            this.kind = kind;
            this.payload = payload;
        }
    }

    /** Reads one frame; returns null on a clean end of stream before the frame starts. */
    static Frame readFrame(DataInputStream in) throws IOException {
        int b0 = in.read();
        if (b0 < 0) return null;
        int len = (b0 << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        if (len < 1 || len > MAX_FRAME) throw new IOException("bad frame length " + (len & 0xFFFFFFFFL));
        byte[] body = new byte[len];
        in.readFully(body);
        DataInputStream payload = new DataInputStream(new java.io.ByteArrayInputStream(body, 1, len - 1));
        return new Frame(body[0] & 0xFF, payload);
    }

    static String readStr(DataInputStream in) throws IOException {
        int n = readLen(in);
        char[] cs = new char[n];
        for (int i = 0; i < n; i++) cs[i] = in.readChar();
        return new String(cs);
    }

    static byte[] readBytes(DataInputStream in) throws IOException {
        int n = readLen(in);
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    /** A `u32` count, checked against what the payload can still hold. */
    static int readLen(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) throw new EOFException("length " + (n & 0xFFFFFFFFL) + " past the frame end");
        return n;
    }

    static void writeStr(DataOutputStream out, String s) throws IOException {
        out.writeInt(s.length());
        out.writeChars(s);
    }

    /**
     * A reusable payload buffer: write the payload through {@link #data}, then {@link #sendTo} frames it.
     * It writes straight from the internal array, so sending copies nothing.
     */
    static final class Buf extends ByteArrayOutputStream {
        final DataOutputStream data = new DataOutputStream(this);

        Buf() {
            super(4096);
        }

        /** Starts a new frame of the given kind. */
        Buf begin(int kind) {
            reset();
            write(0);
            write(0);
            write(0);
            write(0);
            write(kind);
            return this;
        }

        /** Patches the length prefix and writes the whole frame (not flushed). */
        void sendTo(OutputStream out) throws IOException {
            int len = count - 4;
            buf[0] = (byte) (len >>> 24);
            buf[1] = (byte) (len >>> 16);
            buf[2] = (byte) (len >>> 8);
            buf[3] = (byte) len;
            out.write(buf, 0, count);
        }
    }
}
