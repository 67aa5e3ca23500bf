// Hand-instrumented subject: every escape goes through suitesmith.rt.Guards, as the instrumenter's
// redirects (rt-abi REDIRECTS) will make it.
package subjects;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.Socket;
import suitesmith.rt.Guards;

public class Escapes {
    public static int exit(int code) {
        if (code > 0) Guards.systemExit(code);
        return code;
    }

    /** Swallows the guard's exception: the test must still be reported as Guard. */
    public static String exitCaught(int code) {
        try {
            Guards.systemExit(code);
        } catch (Throwable t) {
            return "survived";
        }
        return "no";
    }

    public static void halt() {
        Guards.runtimeHalt(Runtime.getRuntime(), 7);
    }

    public static boolean create(String path) throws java.io.IOException {
        return Guards.fileCreateNewFile(new File(path));
    }

    public static boolean delete(String path) {
        return Guards.fileDelete(new File(path));
    }

    public static String nioWrite(String path) throws java.io.IOException {
        java.nio.file.Path p = new File(path).toPath();
        Guards.filesWrite(p, java.util.Arrays.asList("a", "b"), new java.nio.file.OpenOption[0]);
        return new String(java.nio.file.Files.readAllBytes(p), "UTF-8");
    }

    public static String connect(int port) throws java.io.IOException {
        Socket s = new Socket();
        try {
            Guards.socketConnect(s, new InetSocketAddress("127.0.0.1", port), 1000);
            return "connected";
        } finally {
            s.close();
        }
    }

    public static String timeAndRandom() {
        long t = Guards.currentTimeMillis();
        long n = Guards.nanoTime();
        double r = Guards.mathRandom();
        int k = new java.util.Random(Guards.randomSeed()).nextInt();
        return t + " " + n + " " + r + " " + k + " " + Guards.randomUUID() + " " + Guards.instantNow() + " "
            + Guards.localDateNow() + " " + Guards.clock().millis();
    }

    public static int threads(int n) {
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(new Runnable() {
                public void run() {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        // ends on interrupt
                    }
                }
            });
            Guards.threadStart(t);
        }
        return n;
    }

    /** A thread that ignores interrupts and never ends. */
    public static int stubbornThread() {
        Guards.threadStart(new Thread(new Runnable() {
            public void run() {
                while (true) {
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        // ignored on purpose
                    }
                }
            }
        }));
        return 1;
    }
}
