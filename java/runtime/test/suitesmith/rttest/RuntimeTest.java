/**
 * Java-level tests of the worker runtime (not part of the jar): spawns real workers
 * (`java -cp suitesmith-runtime.jar suitesmith.rt.WorkerMain`) and speaks docs/protocol.md to them
 * over pipes, on the hand-instrumented subjects of java/runtime/test/subjects. Also checks that
 * Tracer and Guards have every method crates/rt-abi lists, public static, with the same descriptor.
 * Run with java/runtime/test/run.sh; exits non-zero on the first failed check.
 */
package suitesmith.rttest;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class RuntimeTest {
    /** The protocol version the runtime speaks (docs/protocol.md; crates/protocol VERSION). */
    static final int PROTOCOL = 16;

    /** The JVM option every worker gets (crates/rt-abi GUARDED_PROVIDER_ARG). */
    static final String PROVIDER_ARG =
        "-Djava.nio.file.spi.DefaultFileSystemProvider=suitesmith.rt.GuardedFileSystemProvider";

    static String jar;
    static String subjects;
    static File scratch;
    static String hostile;
    static int checks;

    public static void main(String[] args) throws Exception {
        jar = args[0];
        subjects = args[1];
        String abi = args[2];
        hostile = args[3];
        scratch = Files.createTempDirectory("suitesmith-rt-scratch").toFile();
        checkAbi(abi);
        mark("checkAbi(ab");
        protocolErrors();
        mark("protocolErrors");
        basics();
        mark("basics");
        tracing();
        mark("tracing");
        staticReset();
        mark("staticReset");
        guards();
        mark("guards");
        ProviderTest.run();
        mark("provider");
        hostileResources();
        mark("hostileResources");
        uninstrumentedHostile();
        mark("hostileResources");
        timeout();
        mark("timeout");
        leakedThread();
        mark("leakedThread");
        determinism();
        mark("determinism");
        bench();
        System.out.println("OK: " + checks + " checks passed");
    }

    // ---------------------------------------------------------------------------------------------
    // Test cases.

    /** Requests the worker cannot serve get an Error frame; the stream stays usable. */
    static void protocolErrors() throws Exception {
        Worker w = Worker.spawn();
        w.send(new Enc().u16(99).frame(1));
        expect(w.errorReply(), "unsupported protocol version 99 (worker speaks " + PROTOCOL + ")", "version mismatch");
        w.send(new Batch().encode());
        expect(w.errorReply(), "Execute before Setup", "Execute before Setup");
        w.send(new Enc().u8(7).frame(77));
        expect(w.errorReply(), "unknown frame kind 77", "unknown kind");
        w.send(new Enc().u16(PROTOCOL).frame(1));
        expect(w.reply(128).readUnsignedShort(), PROTOCOL, "Hello after errors");
        w.setup(3000);
        Batch bad = new Batch();
        bad.test(1).copy(5); // a variable that does not exist yet
        w.send(bad.encode());
        expect(w.errorReply(), "malformed frame of kind 3: statement 0 uses variable 5", "forward variable");
        w.shutdown();
    }

    static void basics() throws Exception {
        Worker w = Worker.start(3000, "-Xmx128m");
        Batch b = new Batch();
        T t = b.test(1);
        int five = t.prim('I', 5);
        int s = t.str("hi");
        t.nul("Ljava/lang/String;");
        int calc = t.ctor("subjects.Calc", "(I)V", five);
        t.method("subjects.Calc", "add", "(I)I", false, calc, five);
        t.fieldGet("subjects.Calc", "total", "I", false, calc);
        t.fieldSet("subjects.Calc", "label", "Ljava/lang/String;", true, -1, s);
        t.fieldGet("subjects.Calc", "label", "Ljava/lang/String;", true, -1);
        int arr = t.newArray("J", 3);
        int big = t.prim('J', 1L << 40);
        t.arrayStore(arr, 1, big);
        t.arrayLoad(arr, 1);
        t.method("subjects.Calc", "sum", "([J)J", true, -1, arr);
        t.enumConst("subjects.Calc$Color", "RED");
        t.method("subjects.Calc", "favourite", "()Lsubjects/Calc$Color;", true, -1);
        t.copy(s);
        t.prim('Z', 1);
        t.prim('D', Double.doubleToRawLongBits(2.5));
        t.prim('C', 'x');
        t.method("subjects.Calc", "print", "(Ljava/lang/String;)V", true, -1, s);
        t.method("subjects.Calc", "readStdin", "()I", true, -1);
        T t2 = b.test(2);
        int msg = t2.str("bad");
        t2.method("subjects.Calc", "fail", "(Ljava/lang/String;)I", true, -1, msg);
        t2.str("never");
        T t3 = b.test(3);
        int n = t3.nul("Lsubjects/Calc;");
        t3.method("subjects.Calc", "add", "(I)I", false, n, t3.prim('I', 1));
        T t4 = b.test(4);
        t4.method("subjects.Calc", "nope", "()V", true, -1);
        T t5 = b.test(5);
        t5.method("subjects.Calc", "hijackStdout", "()V", true, -1);
        T t6 = b.test(6);
        t6.method("subjects.Calc", "print", "(Ljava/lang/String;)V", true, -1, t6.str("again"));
        T t7 = b.test(7);
        t7.method("subjects.Calc", "pollution", "()Ljava/lang/String;", true, -1);
        t7.method("subjects.Calc", "pollute", "()V", true, -1);
        t7.method("subjects.Calc", "pollution", "()Ljava/lang/String;", true, -1);
        T t8 = b.test(8);
        t8.method("subjects.Calc", "pollution", "()Ljava/lang/String;", true, -1);
        T t9 = b.test(9);
        t9.method("subjects.Calc", "packageName", "()Ljava/lang/String;", true, -1);
        T t10 = b.test(10);
        t10.method("subjects.Calc", "isCalcLiteral", "(Ljava/lang/String;)Z", true, -1, t10.str("calc"));
        List<Result> rs = w.execute(b);
        Result r = rs.get(0);
        expect(r.status, 0, "status");
        expect(rs.get(6).outcomes.get(2), "string true de_DE polluted /elsewhere", "pollution within a test");
        expect(rs.get(7).outcomes, rs.get(6).outcomes.subList(0, 1),
            "interrupt flag, locale and system properties restored");
        expect(rs.get(6).propertiesChanged, true, "a test that changed system properties says so");
        expect(rs.get(7).propertiesChanged, false, "a test that did not change them says so");
        expect(rs.get(0).propertiesChanged, false, "basic test: no system property changed");
        expect(rs.get(8).outcomes.get(0), "string subjects", "package of a class sent as bytes");
        expect(rs.get(9).outcomes.get(1), "bool 1", "a string statement is the interned literal");
        expect(r.outcomes, Arrays.asList("int 5", "string hi", "null", "object subjects.Calc", "int 10", "int 10",
            "void", "string hi", "array [J 3", "long 1099511627776", "void", "long 1099511627776",
            "long 1099511627776", "enum subjects.Calc$Color RED", "enum subjects.Calc$Color GREEN", "string hi",
            "bool 1", "double 2.5", "char 120", "void", "int -1"), "basic outcomes");
        expect(r.stdout, "hi", "captured stdout");
        expect(rs.get(1).outcomes, Arrays.asList("string bad",
            "threw java.lang.IllegalStateException 'bad' sut=true in=subjects.Calc.fail top=subjects.Calc", "not-executed"), "sut throws");
        expect(rs.get(2).outcomes.get(2), "threw java.lang.NullPointerException 'null receiver' sut=false in= top=",
            "null receiver");
        expect(rs.get(3).outcomes.get(0),
            "threw java.lang.NoSuchMethodException 'subjects.Calc.nope()V' sut=false in= top=", "missing method");
        expect(rs.get(5).stdout, "again", "stdout restored after the SUT replaced it");
        w.shutdown();
    }

    static void tracing() throws Exception {
        Worker w = Worker.start(3000);
        Batch b = new Batch();
        T t = b.test(7);
        t.method("subjects.Calc", "classify", "(I)I", true, -1, t.prim('I', 25));
        t.method("subjects.Calc", "outer", "(I)I", true, -1, t.prim('I', 3));
        int c = t.ctor("subjects.Calc", "()V");
        t.method("subjects.Calc", "mix", "(IDLjava/lang/String;J)I", false, c, t.prim('I', 4),
            t.prim('D', Double.doubleToRawLongBits(1.0)), t.str(""), t.prim('J', 100));
        t.method("subjects.Calc", "mix", "(IDLjava/lang/String;J)I", false, c, t.prim('I', 4),
            t.prim('D', Double.doubleToRawLongBits(Double.NaN)), t.nul("Ljava/lang/String;"), t.prim('J', 90));
        t.method("subjects.Calc", "swallow", "()Ljava/lang/String;", true, -1);
        Result r = w.execute(b).get(0);
        expect(r.status, 0, "tracing status");
        expect(r.trace, Arrays.asList(
            "hit 0 x2", "hit 1 x2", "hit 2 x1", "hit 3 x2", "hit 4 x1", "hit 5 x1", "hit 6 x1", "hit 7 x2", "hit 8 x2",
            "hit 9 x2", "hit 10 x2", "hit 11 x2", "hit 12 x2", "hit 13 x1", "hit 14 x1", "hit 15 x2", "hit 16 x1",
            "hit 17 x1", "hit 18 x1",
            // x=25: x<10 misses by 16 (25-10+1) and falls through; x=3 jumps, 7 (10-3) from falling through.
            "branch 1 t=0.0 f=0.0",
            // d >= 1.5: d=1.0 misses by 0.5; NaN with dcmpl (-1): jump not taken, distance 1.
            "branch 9 t=0.5 f=0.0",
            "branch 10 t=0.0 f=0.0", // s == null: "" is not null, null is
            "branch 11 t=0.0 f=0.0", // l != 100: 100 equal, 90 differs
            "branch 17 t=0.0 f=1.0", // outer: classify(3) returned -1 < 0
            "switch 7 [4]",
            "operands 8 [(4,0), (4,4)]",
            "returns 3 101", // -1 and 1: negative|positive
            "returns 12 100110000", // "": empty (bit8) and non-null (bit5); null (bit4)
            "exception 13 java.lang.IllegalStateException", "exception 14 java.lang.IllegalStateException",
            // Per context: classify(25) from the test, classify(3) through call site 5; outer's own
            // branch after classify returned is the test's context again (classify's exit popped).
            "context 5 1 t=0.0 f=7.0", "context -1 1 t=16.0 f=0.0", "context -1 9 t=0.5 f=0.0",
            "context -1 10 t=0.0 f=0.0", "context -1 11 t=0.0 f=0.0", "context -1 17 t=0.0 f=1.0"), "trace");
        // The trace is reset between tests: the same test again gives the same trace.
        Result again = w.execute(b).get(0);
        expect(again.trace, r.trace, "trace after reset");
        w.shutdown();
    }

    static void staticReset() throws Exception {
        Worker w = Worker.start(3000);
        Batch b = new Batch();
        for (int i = 0; i < 3; i++) {
            T t = b.test(i);
            t.method("subjects.Counter", "next", "()I", true, -1);
            t.method("subjects.Counter", "next", "()I", true, -1);
            t.method("subjects.Counter", "logSize", "()I", true, -1);
        }
        T bad = b.test(10);
        bad.method("subjects.BadInit", "get", "()I", true, -1);
        T bad2 = b.test(11);
        bad2.method("subjects.BadInit", "get", "()I", true, -1);
        List<Result> rs = w.execute(b);
        for (int i = 0; i < 3; i++) expect(rs.get(i).outcomes, Arrays.asList("int 1", "int 2", "int 2"), "reset " + i);
        // Classes are initialised at Setup (docs/protocol.md, Changes), so no test triggers a <clinit>:
        // every test sees the same state and trace, and a failing <clinit> failed before any test.
        expect(rs.get(0).classInits, "[]", "no class init in a test");
        expect(rs.get(1).classInits, "[]", "no class init in a later test");
        expect(rs.get(3).outcomes.get(0).startsWith("threw java.lang.NoClassDefFoundError"), true, "clinit threw at setup");
        expect(rs.get(3).classInits, "[]", "failed clinit not in a test");
        expect(rs.get(4).outcomes.get(0), rs.get(3).outcomes.get(0), "erroneous class, same every time");
        w.shutdown();
    }

    static void guards() throws Exception {
        File canary = new File(scratch.getParentFile(), "suitesmith-canary-" + System.nanoTime());
        Files.write(canary.toPath(), "alive".getBytes("UTF-8"));
        File inside = new File(scratch, "made-by-test");
        Worker w = Worker.start(3000);
        Batch b = new Batch();
        T t = b.test(1);
        t.method("subjects.Escapes", "exit", "(I)I", true, -1, t.prim('I', 0));
        t.method("subjects.Escapes", "exit", "(I)I", true, -1, t.prim('I', 3));
        t.str("never");
        T caught = b.test(2);
        caught.method("subjects.Escapes", "exitCaught", "(I)Ljava/lang/String;", true, -1, caught.prim('I', 4));
        T halt = b.test(3);
        halt.method("subjects.Escapes", "halt", "()V", true, -1);
        T del = b.test(4);
        del.method("subjects.Escapes", "delete", "(Ljava/lang/String;)Z", true, -1, del.str(canary.getPath()));
        T mk = b.test(5);
        mk.method("subjects.Escapes", "create", "(Ljava/lang/String;)Z", true, -1,
            mk.str(canary.getPath() + "-new"));
        T ok = b.test(6);
        int p = ok.str(inside.getPath());
        ok.method("subjects.Escapes", "create", "(Ljava/lang/String;)Z", true, -1, p);
        ok.method("subjects.Escapes", "delete", "(Ljava/lang/String;)Z", true, -1, p);
        T dotdot = b.test(7);
        dotdot.method("subjects.Escapes", "delete", "(Ljava/lang/String;)Z", true, -1,
            dotdot.str(scratch.getPath() + "/../" + canary.getName()));
        T net = b.test(8);
        net.method("subjects.Escapes", "connect", "(I)Ljava/lang/String;", true, -1, net.prim('I', 1));
        T nioOut = b.test(12);
        nioOut.method("subjects.Escapes", "nioWrite", "(Ljava/lang/String;)Ljava/lang/String;", true, -1,
            nioOut.str(canary.getPath()));
        T nioIn = b.test(13);
        nioIn.method("subjects.Escapes", "nioWrite", "(Ljava/lang/String;)Ljava/lang/String;", true, -1,
            nioIn.str(new File(scratch, "nio.txt").getPath()));
        T relative = b.test(14);
        int name = relative.str("pom.xml");
        relative.method("subjects.Escapes", "delete", "(Ljava/lang/String;)Z", true, -1, name);
        T relativeNew = b.test(15);
        relativeNew.method("subjects.Escapes", "create", "(Ljava/lang/String;)Z", true, -1, relativeNew.str("pom.xml"));
        // The thread tests come last: a loaded machine may not end the bomb's 100 sleeping threads
        // within the worker's grace after their interrupt, and the worker then ends the batch
        // early (by design: the engine restarts it), which loses only the test after the bomb.
        T threads = b.test(9);
        threads.method("subjects.Escapes", "threads", "(I)I", true, -1, threads.prim('I', 20));
        T bomb = b.test(10);
        bomb.method("subjects.Escapes", "threads", "(I)I", true, -1, bomb.prim('I', 500));
        T after = b.test(11);
        after.method("subjects.Calc", "classify", "(I)I", true, -1, after.prim('I', 1));
        List<Result> rs = w.execute(b);
        expect(rs.get(0).status, 2, "exit status");
        expect(rs.get(0).outcomes, Arrays.asList("int 0", "int 0", "int 3", "guard System.exit(3)", "not-executed"), "exit");
        expect(rs.get(1).outcomes, Arrays.asList("int 4", "guard System.exit(4)"), "exit caught by SUT");
        expect(rs.get(2).outcomes, Arrays.asList("guard Runtime.halt(7)"), "halt");
        expect(rs.get(3).outcomes, Arrays.asList("string " + canary.getPath(), "guard File.delete(" + canary.getPath() + ")"), "delete outside");
        expect(rs.get(4).outcomes, Arrays.asList("string " + canary.getPath() + "-new",
            "guard File.createNewFile(" + canary.getPath() + "-new)"),
            "create outside");
        expect(rs.get(5).outcomes, Arrays.asList("string " + inside.getPath(), "bool 1", "bool 1"), "scratch allowed");
        expect(rs.get(6).status, 2, "dot-dot escape refused");
        expect(rs.get(7).outcomes.get(1).startsWith("guard Socket.connect(/127.0.0.1:1)"), true, "connect");
        expect(rs.get(8).outcomes.get(1), "guard Files.write(" + canary.getPath() + ")", "nio write outside");
        expect(rs.get(9).outcomes.get(1), "string a\nb\n", "nio write inside scratch");
        // A relative name is the user's working directory in a written test: refused although the
        // worker's working directory is its scratch directory.
        expect(rs.get(10).outcomes, Arrays.asList("string pom.xml", "guard File.delete(pom.xml)"),
            "relative delete refused");
        expect(rs.get(11).outcomes, Arrays.asList("string pom.xml", "guard File.createNewFile(pom.xml)"),
            "relative create refused");
        expect(rs.get(12).outcomes, Arrays.asList("int 20", "int 20"), "threads under the limit");
        expect(rs.get(13).outcomes.get(1), "guard Thread.start: more than 100 threads", "thread bomb");
        // Run, or not run because the batch ended early (above); never run and failed.
        expect(rs.size() == 14 || rs.get(14).status == 0, true, "next test runs normally");
        expect(new String(Files.readAllBytes(canary.toPath()), "UTF-8"), "alive", "canary unchanged");
        expect(canary.exists(), true, "canary survives");
        expect(new File(canary.getPath() + "-new").exists(), false, "nothing created outside scratch");
        canary.delete();
        w.shutdown();
    }

    static void hostileResources() throws Exception {
        Worker w = Worker.start(5000, "-Xmx96m");
        Batch b = new Batch();
        T so = b.test(1);
        so.method("subjects.Calc", "recurse", "(I)I", true, -1, so.prim('I', 0));
        T oom = b.test(2);
        oom.method("subjects.Calc", "allocate", "()I", true, -1);
        T after = b.test(3);
        after.method("subjects.Calc", "classify", "(I)I", true, -1, after.prim('I', 1));
        List<Result> rs = w.execute(b);
        expect(rs.get(0).outcomes.get(1), "threw java.lang.StackOverflowError '' sut=true in=subjects.Calc.recurse top=subjects.Calc",
            "stack overflow");
        expect(rs.get(1).outcomes.get(0), "threw java.lang.OutOfMemoryError 'Java heap space' sut=true in=subjects.Calc.allocate top=subjects.Calc",
            "out of memory");
        expect(rs.get(2).outcomes.get(1), "int -1", "runs after OOM");
        // Still usable for a second batch.
        expect(w.execute(b).get(2).outcomes.get(1), "int -1", "second batch after OOM");
        w.shutdown();
    }

    /** The fixtures/java/hostile subjects that need no guard to be contained. */
    static void uninstrumentedHostile() throws Exception {
        Worker w = Worker.start(5000, "-Xmx96m");
        Batch b = new Batch();
        T t = b.test(1);
        t.method("hostile.Stdin", "readByte", "()I", true, -1);
        t.method("hostile.Stdin", "readLine", "()Ljava/lang/String;", true, -1);
        t.method("hostile.Recursion", "bounded", "(I)I", true, -1, t.prim('I', 20000));
        t.method("hostile.Noisy", "flood", "(I)I", true, -1, t.prim('I', 10000));
        T rec = b.test(2);
        rec.method("hostile.Recursion", "depth", "(I)I", true, -1, rec.prim('I', 0));
        T huge = b.test(3);
        huge.method("hostile.Allocation", "hugeArray", "(I)I", true, -1, huge.prim('I', Integer.MAX_VALUE));
        T heap = b.test(4);
        heap.method("hostile.Allocation", "exhaustHeap", "()I", true, -1);
        T init = b.test(5);
        init.method("hostile.BadInit", "value", "()I", true, -1);
        T loop = b.test(6);
        loop.method("hostile.Loop", "loopOn42", "(I)I", true, -1, loop.prim('I', 41));
        List<Result> rs = w.execute(b);
        expect(rs.get(0).outcomes, Arrays.asList("int -1", "null", "int 20000", "int 20000", "int 10000", "int 10000"),
            "stdin is empty, bounded recursion works");
        expect(rs.get(0).stdout.length(), 4096, "captured output is bounded");
        expect(rs.get(1).outcomes.get(1), "threw java.lang.StackOverflowError '' sut=true in=hostile.Recursion.depth top=hostile.Recursion",
            "unbounded recursion");
        expect(rs.get(2).outcomes.get(1),
            "threw java.lang.OutOfMemoryError 'Requested array size exceeds VM limit' sut=true in=hostile.Allocation.hugeArray top=hostile.Allocation",
            "huge array");
        expect(rs.get(3).outcomes.get(0).startsWith("threw java.lang.OutOfMemoryError"), true, "heap exhausted");
        // The error's own top frame is the reflective call that triggered initialisation (its
        // class differs between JDKs); the SUT frame comes from its cause.
        expect(rs.get(4).outcomes.get(0).startsWith(
            "threw java.lang.ExceptionInInitializerError '' sut=true in=hostile.BadInit.fail top=jdk.internal.reflect."),
            true, "throwing <clinit>: " + rs.get(4).outcomes.get(0));
        expect(rs.get(5).outcomes.get(1), "int 41", "loop on another input");
        w.shutdown();
    }

    static void timeout() throws Exception {
        Worker w = Worker.start(300);
        Batch b = new Batch();
        T ok = b.test(1);
        ok.prim('I', 1);
        T spin = b.test(2);
        spin.prim('I', 1);
        spin.method("subjects.Calc", "spin", "()I", true, -1);
        spin.prim('I', 2);
        T never = b.test(3);
        never.prim('I', 3);
        long t0 = System.nanoTime();
        List<Result> rs = w.execute(b);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        expect(rs.size(), 2, "batch cut short after the timeout");
        expect(w.lastBatchDone, 2, "BatchDone counts the results sent");
        expect(rs.get(1).status, 1, "timeout status");
        expect(rs.get(1).outcomes, Arrays.asList("int 1", "timeout", "not-executed"), "timeout outcomes");
        expect(w.waitExit(), 3, "worker exits 3 after a timeout");
        expect(ms < 1500, true, "timeout detected promptly (" + ms + " ms)");
        System.out.println("timeout: batch with a 300 ms timeout answered in " + ms + " ms");
    }

    static void leakedThread() throws Exception {
        Worker w = Worker.start(3000);
        Batch b = new Batch();
        T t = b.test(1);
        t.method("subjects.Escapes", "stubbornThread", "()I", true, -1);
        T next = b.test(2);
        next.prim('I', 1);
        List<Result> rs = w.execute(b);
        expect(rs.size(), 1, "batch ends after a leaked thread");
        expect(rs.get(0).outcomes, Arrays.asList("int 1"), "leaking test itself is normal");
        expect(w.waitExit(), 3, "worker exits 3 after leaked threads");
    }

    static void determinism() throws Exception {
        Batch b = new Batch();
        for (int i = 0; i < 2; i++) {
            T t = b.test(i);
            t.method("subjects.Escapes", "timeAndRandom", "()Ljava/lang/String;", true, -1);
            t.method("subjects.Escapes", "timeAndRandom", "()Ljava/lang/String;", true, -1);
            t.method("subjects.Counter", "next", "()I", true, -1);
        }
        Worker w1 = Worker.start(3000);
        List<Result> a = w1.execute(b);
        List<Result> a2 = w1.execute(b);
        w1.shutdown();
        Worker w2 = Worker.start(3000);
        List<Result> c = w2.execute(b);
        w2.shutdown();
        expect(a.get(0).outcomes, a.get(1).outcomes, "same test twice in one batch");
        expect(a.get(0).outcomes, a2.get(0).outcomes, "same test in the next batch");
        expect(a.get(0).outcomes, c.get(0).outcomes, "same test in another worker");
        expect(a.get(1).trace, c.get(1).trace, "same trace in another worker");
        expect(a.get(0).outcomes.get(0).equals(a.get(0).outcomes.get(1)), false, "time advances within a test");
        System.out.println("determinism: " + a.get(0).outcomes.get(0));
    }

    static void bench() throws Exception {
        long t0 = System.nanoTime();
        String extra = System.getenv("RT_BENCH_JVM_ARGS"); // e.g. a JFR recording, for profiling
        Worker w = extra == null ? Worker.start(3000) : Worker.start(3000, extra.split(" "));
        long readyMs = (System.nanoTime() - t0) / 1_000_000;
        Batch b = new Batch();
        for (int i = 0; i < 50; i++) {
            T t = b.test(i);
            int c = t.ctor("subjects.Calc", "()V");
            int x = t.prim('I', i);
            t.method("subjects.Calc", "add", "(I)I", false, c, x);
            t.method("subjects.Calc", "classify", "(I)I", true, -1, x);
            t.method("subjects.Calc", "outer", "(I)I", true, -1, x);
        }
        byte[] frame = b.encode();
        List<Result> first = w.execute(b);
        expect(first.get(7).outcomes, Arrays.asList("object subjects.Calc", "int 7", "int 7", "int -1", "int -1"),
            "bench test");
        for (int i = 0; i < 200; i++) w.executeRaw(frame); // warm-up: reflection inflation, JIT
        int batches = 1000;
        long s = System.nanoTime();
        long inTests = 0;
        long cpu0 = w.cpuMs();
        for (int i = 0; i < batches; i++) inTests += w.executeRaw(frame);
        double secs = (System.nanoTime() - s) / 1e9;
        double cpuUsPerTest = (w.cpuMs() - cpu0) * 1000.0 / (batches * 50);
        double rate = batches * 50 / secs;
        w.shutdown();
        System.out.printf("bench: worker start to Ready+SetupDone %d ms; %.0f executions/s (5-statement tests,"
            + " batch 50); %.1f us per test wall, worker CPU %.1f us per test, %.1f us inside statements%n",
            readyMs, rate, secs * 1e6 / (batches * 50), cpuUsPerTest, inTests / (double) (batches * 50));
        expect(rate > 5000, true, "throughput sanity");
        probeCost();
    }

    /** Probe cost inside a worker: three probes per loop iteration, loop cost subtracted. */
    static void probeCost() throws Exception {
        Worker w = Worker.start(10000);
        // 3 probes per iteration: stay under the per-test probe-hit limit (Tracer.MAX_HITS_PER_TEST).
        int n = 300_000;
        Batch b = new Batch();
        for (int i = 0; i < 4; i++) {
            T t = b.test(2 * i);
            t.method("subjects.Calc", "probeLoop", "(I)I", true, -1, t.prim('I', n));
            T u = b.test(2 * i + 1);
            u.method("subjects.Calc", "plainLoop", "(I)I", true, -1, u.prim('I', n));
        }
        List<Result> rs = w.execute(b);
        w.shutdown();
        // Last round only (after JIT warm-up).
        double probed = rs.get(6).elapsedUs, plain = rs.get(7).elapsedUs;
        expect(rs.get(6).trace.get(0), "hit 15 x" + n, "probe counts");
        System.out.printf("probes: %.2f ns per probe (3 probes per iteration, %d iterations)%n",
            (probed - plain) * 1000 / (3.0 * n), n);
    }

    // ---------------------------------------------------------------------------------------------
    // The ABI check (the Rust `worker` crate has the authoritative one, against the jar).

    static void checkAbi(String libRs) throws Exception {
        String src = new String(Files.readAllBytes(new File(libRs).toPath()), "UTF-8");
        TreeSet<String> need = new TreeSet<String>();
        Matcher m = Pattern.compile("(?:ProbeKind|RecordShape)::\\w+\\s*=>\\s*\\(\\s*\"(\\w+)\",\\s*\"([^\"]+)\",?\\s*\\)").matcher(src);
        while (m.find()) need.add("Tracer." + m.group(1) + m.group(2));
        m = Pattern.compile("replace\\(\\s*INVOKE\\w+,\\s*\"[^\"]+\",\\s*\"[^\"]+\",\\s*\"[^\"]+\",\\s*\"(\\w+)\",\\s*\"([^\"]+)\",?\\s*\\)")
            .matcher(src);
        while (m.find()) need.add("Guards." + m.group(1) + m.group(2));
        m = Pattern.compile("(?:CheckLastArgBefore|PushArgAndRetarget)\\s*\\{\\s*name:\\s*\"(\\w+)\",\\s*descriptor:\\s*\"([^\"]+)\"")
            .matcher(src);
        while (m.find()) need.add("Guards." + m.group(1) + m.group(2));
        m = Pattern.compile("DenyBefore\\s*\\{\\s*name:\\s*\"(\\w+)\"").matcher(src);
        while (m.find()) need.add("Guards." + m.group(1) + "()V");
        // The mutant schemata (crates/rt-abi src/mutants.rs, next to lib.rs).
        String schemata = new String(Files.readAllBytes(new File(new File(libRs).getParentFile(), "mutants.rs").toPath()), "UTF-8");
        m = Pattern.compile("Schema::\\w+\\s*=>\\s*\\(\\s*\"(\\w+)\",\\s*\"([^\"]+)\",?\\s*\\)").matcher(schemata);
        int nSchemata = 0;
        while (m.find()) {
            need.add("Mutants." + m.group(1) + m.group(2));
            nSchemata++;
        }
        expect(nSchemata, 17, "parsed rt-abi mutants.rs");
        TreeSet<String> have = new TreeSet<String>();
        ClassLoader rt = new java.net.URLClassLoader(new java.net.URL[] {new File(jar).toURI().toURL()}, null);
        for (String c : new String[] {"Tracer", "Guards", "Mutants"}) {
            for (Method meth : Class.forName("suitesmith.rt." + c, false, rt).getDeclaredMethods()) {
                int mod = meth.getModifiers();
                if (Modifier.isPublic(mod) && Modifier.isStatic(mod)) have.add(c + "." + meth.getName() + descriptor(meth));
            }
        }
        expect(need.size() > 60, true, "parsed rt-abi (" + need.size() + " methods)");
        TreeSet<String> missing = new TreeSet<String>(need);
        missing.removeAll(have);
        expect(missing.toString(), "[]", "rt-abi methods missing from the runtime");
        System.out.println("abi: " + need.size() + " tracer/guard methods present");
    }

    static String descriptor(Method m) {
        StringBuilder sb = new StringBuilder("(");
        for (Class<?> p : m.getParameterTypes()) sb.append(desc(p));
        return sb.append(')').append(desc(m.getReturnType())).toString();
    }

    static String desc(Class<?> c) {
        if (c.isArray()) return c.getName().replace('.', '/');
        if (c == void.class) return "V";
        if (c == int.class) return "I";
        if (c == long.class) return "J";
        if (c == boolean.class) return "Z";
        if (c == double.class) return "D";
        if (c == float.class) return "F";
        if (c == byte.class) return "B";
        if (c == char.class) return "C";
        if (c == short.class) return "S";
        return "L" + c.getName().replace('.', '/') + ";";
    }

    // ---------------------------------------------------------------------------------------------
    // Assertions.

    static long lastMark = System.nanoTime();

    static void mark(String what) {
        long now = System.nanoTime();
        System.out.println("  " + what + ": " + (now - lastMark) / 1_000_000 + " ms");
        lastMark = now;
    }

    static void expect(Object actual, Object expected, String what) {
        checks++;
        if (!String.valueOf(actual).equals(String.valueOf(expected))) {
            System.out.println("FAIL " + what + "\n  expected: " + expected + "\n  actual:   " + actual);
            System.exit(1);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // A protocol client.

    /** One test being built: statements append and return their variable index. */
    static final class T {
        final int id;
        final List<byte[]> stmts = new ArrayList<byte[]>();
        final Batch batch;

        T(Batch batch, int id) {
            this.batch = batch;
            this.id = id;
        }

        private int add(Enc e) {
            stmts.add(e.bytes());
            return stmts.size() - 1;
        }

        int prim(char type, long bits) {
            return add(new Enc().u8(0).u8(type).i64(bits));
        }

        int str(String s) {
            return add(new Enc().u8(1).i32(batch.sref(s)));
        }

        int nul(String type) {
            return add(new Enc().u8(2).i32(batch.sref(type)));
        }

        int enumConst(String cls, String name) {
            return add(new Enc().u8(3).i32(batch.sref(cls)).i32(batch.sref(name)));
        }

        int ctor(String cls, String desc, int... args) {
            return add(new Enc().u8(4).i32(batch.sref(cls)).i32(batch.sref(desc)).vars(args));
        }

        int method(String cls, String name, String desc, boolean isStatic, int recv, int... args) {
            return add(new Enc().u8(5).i32(batch.sref(cls)).i32(batch.sref(name)).i32(batch.sref(desc))
                .u8(isStatic ? 1 : 0).u16(recv < 0 ? 0xFFFF : recv).vars(args));
        }

        int fieldGet(String cls, String name, String desc, boolean isStatic, int recv) {
            return add(new Enc().u8(6).i32(batch.sref(cls)).i32(batch.sref(name)).i32(batch.sref(desc))
                .u8(isStatic ? 1 : 0).u16(recv < 0 ? 0xFFFF : recv));
        }

        int fieldSet(String cls, String name, String desc, boolean isStatic, int recv, int value) {
            return add(new Enc().u8(7).i32(batch.sref(cls)).i32(batch.sref(name)).i32(batch.sref(desc))
                .u8(isStatic ? 1 : 0).u16(recv < 0 ? 0xFFFF : recv).u16(value));
        }

        int newArray(String comp, int len) {
            return add(new Enc().u8(8).i32(batch.sref(comp)).i32(len));
        }

        int arrayStore(int arr, int idx, int value) {
            return add(new Enc().u8(9).u16(arr).i32(idx).u16(value));
        }

        int arrayLoad(int arr, int idx) {
            return add(new Enc().u8(10).u16(arr).i32(idx));
        }

        int copy(int from) {
            return add(new Enc().u8(11).u16(from));
        }
    }

    static final class Batch {
        final Map<String, Integer> strings = new LinkedHashMap<String, Integer>();
        final List<T> tests = new ArrayList<T>();

        int sref(String s) {
            Integer i = strings.get(s);
            if (i == null) {
                i = strings.size();
                strings.put(s, i);
            }
            return i;
        }

        T test(int id) {
            T t = new T(this, id);
            tests.add(t);
            return t;
        }

        byte[] encode() throws IOException {
            Enc e = new Enc();
            e.i32(strings.size());
            for (String s : strings.keySet()) e.str(s);
            e.i32(tests.size());
            for (T t : tests) {
                e.i32(t.id).i32(t.stmts.size());
                for (byte[] s : t.stmts) e.raw(s);
            }
            e.u8(0); // focus (v12): every path condition
            return e.frame(3);
        }
    }

    static final class Enc {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream d = new DataOutputStream(bytes);

        Enc u8(int v) { try { d.writeByte(v); } catch (IOException e) { throw new RuntimeException(e); } return this; }
        Enc u16(int v) { try { d.writeShort(v); } catch (IOException e) { throw new RuntimeException(e); } return this; }
        Enc i32(int v) { try { d.writeInt(v); } catch (IOException e) { throw new RuntimeException(e); } return this; }
        Enc i64(long v) { try { d.writeLong(v); } catch (IOException e) { throw new RuntimeException(e); } return this; }
        Enc raw(byte[] b) { try { d.write(b); } catch (IOException e) { throw new RuntimeException(e); } return this; }
        Enc str(String s) { i32(s.length()); try { d.writeChars(s); } catch (IOException e) { throw new RuntimeException(e); } return this; }
        Enc bytes(byte[] b) { i32(b.length); return raw(b); }

        Enc vars(int[] vs) {
            i32(vs.length);
            for (int v : vs) u16(v);
            return this;
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }

        byte[] frame(int kind) {
            byte[] p = bytes();
            return new Enc().i32(p.length + 1).u8(kind).raw(p).bytes();
        }
    }

    /** A decoded TestResult, rendered as text for the checks. */
    static final class Result {
        int id, status;
        long elapsedUs;
        List<String> outcomes = new ArrayList<String>();
        List<String> trace = new ArrayList<String>();
        String classInits;
        String stdout;
        boolean propertiesChanged;
    }

    static final class Worker {
        final Process p;
        final DataOutputStream out;
        final DataInputStream in;
        int lastBatchDone;
        long pid;

        /** CPU time of the worker process so far, in ms (Linux /proc; 0 elsewhere). */
        long cpuMs() {
            try {
                String stat = new String(Files.readAllBytes(new File("/proc/" + pid + "/stat").toPath()), "UTF-8");
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10; // utime + stime, 100 Hz ticks
            } catch (Exception e) {
                return 0;
            }
        }

        Worker(Process p) {
            this.p = p;
            out = new DataOutputStream(new BufferedOutputStream(p.getOutputStream()));
            in = new DataInputStream(new BufferedInputStream(p.getInputStream()));
        }

        static Worker spawn(String... jvmArgs) throws IOException {
            List<String> cmd = new ArrayList<String>();
            cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
            cmd.addAll(Arrays.asList(jvmArgs));
            // As crates/worker's jvm_args: java.nio.file goes through the guarded provider.
            cmd.add(PROVIDER_ARG);
            cmd.add("-cp");
            cmd.add(jar);
            cmd.add("suitesmith.rt.WorkerMain");
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            return new Worker(p);
        }

        static Worker start(int timeoutMs, String... jvmArgs) throws IOException {
            Worker w = spawn(jvmArgs);
            w.send(new Enc().u16(PROTOCOL).frame(1));
            DataInputStream r = w.reply(128);
            expect(r.readUnsignedShort(), PROTOCOL, "Ready version");
            String version = readStr(r);
            expect(version.isEmpty(), false, "java version");
            w.pid = r.readLong();
            expect(w.pid > 0, true, "pid");
            w.setup(timeoutMs);
            return w;
        }

        void setup(int timeoutMs) throws IOException {
            Worker w = this;
            // Setup: Calc as bytes (wins over the classpath), the rest from the classpath.
            byte[] calc = Files.readAllBytes(new File(subjects, "subjects/Calc.class").toPath());
            Enc e = new Enc();
            e.i32(2).str(subjects).str(hostile);
            e.i32(1).str("subjects.Calc").bytes(calc);
            e.i32(64);
            e.i32(2).i32(0).str("subjects.Counter").i32(1).str("subjects.BadInit");
            e.i32(timeoutMs).i32(100).str(scratch.getPath()).i64(1_700_000_000_000L);
            e.i64(Double.doubleToLongBits(1e-6)).i32(0); // v9: epsilon, no path conditions
            e.u8(1); // v13: record string tests (none of these subjects branches on one)
            w.send(e.frame(2));
            // Calc has no class id, so it is defined on first load, not at Setup (protocol v4 with
            // guard-only classes: only the classes under test are defined eagerly).
            expect(w.reply(129).readInt(), 0, "classes defined");
        }

        String errorReply() throws IOException {
            int len = in.readInt();
            byte[] body = new byte[len];
            in.readFully(body);
            expect(body[0] & 0xFF, 132, "Error kind");
            return readStr(new DataInputStream(new java.io.ByteArrayInputStream(body, 1, len - 1)));
        }

        void send(byte[] frame) throws IOException {
            out.write(frame);
            out.flush();
        }

        DataInputStream reply(int kind) throws IOException {
            int len = in.readInt();
            byte[] body = new byte[len];
            in.readFully(body);
            DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(body, 1, len - 1));
            if ((body[0] & 0xFF) == 132) throw new IOException("worker error: " + readStr(d));
            expect(body[0] & 0xFF, kind, "reply kind");
            return d;
        }

        List<Result> execute(Batch b) throws IOException {
            return execute(b.encode(), b.tests.size());
        }

        List<Result> execute(byte[] frame, int n) throws IOException {
            send(frame);
            List<Result> rs = new ArrayList<Result>();
            while (true) {
                int len = in.readInt();
                byte[] body = new byte[len];
                in.readFully(body);
                DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(body, 1, len - 1));
                int kind = body[0] & 0xFF;
                if (kind == 131) {
                    lastBatchDone = d.readInt();
                    return rs;
                }
                expect(kind, 130, "TestResult kind");
                rs.add(decodeResult(d));
            }
        }

        /** Sends a batch and skips its replies; returns the sum of the tests' elapsed_us. */
        long executeRaw(byte[] frame) throws IOException {
            send(frame);
            long sum = 0;
            byte[] body = new byte[1 << 16];
            while (true) {
                int len = in.readInt();
                if (len > body.length) body = new byte[len];
                in.readFully(body, 0, len);
                if ((body[0] & 0xFF) == 131) return sum;
                sum += ((body[6] & 0xFFL) << 24) | ((body[7] & 0xFF) << 16) | ((body[8] & 0xFF) << 8) | (body[9] & 0xFF);
            }
        }

        void shutdown() throws Exception {
            send(new Enc().frame(4));
            expect(waitExit(), 0, "exit status after Shutdown");
        }

        int waitExit() throws InterruptedException {
            return p.waitFor();
        }
    }

    static String readStr(DataInputStream d) throws IOException {
        int n = d.readInt();
        char[] cs = new char[n];
        for (int i = 0; i < n; i++) cs[i] = d.readChar();
        return new String(cs);
    }

    static Result decodeResult(DataInputStream d) throws IOException {
        Result r = new Result();
        r.id = d.readInt();
        r.status = d.readUnsignedByte();
        r.elapsedUs = d.readInt() & 0xFFFFFFFFL;
        int n = d.readInt();
        for (int i = 0; i < n; i++) r.outcomes.add(outcome(d));
        int k = d.readInt();
        for (int i = 0; i < k; i++) r.trace.add("hit " + d.readInt() + " x" + d.readInt());
        k = d.readInt();
        for (int i = 0; i < k; i++) {
            r.trace.add("branch " + d.readInt() + " t=" + Double.longBitsToDouble(d.readLong()) + " f="
                + Double.longBitsToDouble(d.readLong()));
        }
        k = d.readInt();
        for (int i = 0; i < k; i++) {
            int id = d.readInt();
            int m = d.readInt();
            int[] keys = new int[m];
            for (int j = 0; j < m; j++) keys[j] = d.readInt();
            r.trace.add("switch " + id + " " + Arrays.toString(keys));
        }
        k = d.readInt();
        for (int i = 0; i < k; i++) {
            int id = d.readInt();
            int m = d.readInt();
            List<String> ps = new ArrayList<String>();
            for (int j = 0; j < m; j++) ps.add("(" + d.readLong() + "," + d.readLong() + ")");
            r.trace.add("operands " + id + " " + ps);
        }
        k = d.readInt();
        for (int i = 0; i < k; i++) r.trace.add("returns " + d.readInt() + " " + Integer.toBinaryString(d.readInt()));
        k = d.readInt();
        for (int i = 0; i < k; i++) r.trace.add("exception " + d.readInt() + " " + readStr(d));
        k = d.readInt();
        for (int i = 0; i < k; i++) {
            r.trace.add("context " + d.readInt() + " " + d.readInt() + " t=" + Double.longBitsToDouble(d.readLong())
                + " f=" + Double.longBitsToDouble(d.readLong()));
        }
        k = d.readInt();
        int[] inits = new int[k];
        for (int i = 0; i < k; i++) inits[i] = d.readInt();
        r.classInits = Arrays.toString(inits);
        k = d.readInt();
        for (int i = 0; i < k; i++) r.trace.add("string " + readStr(d));
        k = d.readInt();
        for (int i = 0; i < k; i++) {
            int id = d.readInt();
            int m = d.readInt();
            List<String> rs = new ArrayList<String>();
            for (int j = 0; j < m; j++) rs.add("(" + d.readInt() + "," + d.readLong() + "," + d.readLong() + ")");
            r.trace.add("records " + id + " " + rs);
        }
        k = d.readInt();
        for (int i = 0; i < k; i++) {
            int id = d.readInt();
            int m = d.readInt();
            List<String> ds = new ArrayList<String>();
            for (int j = 0; j < m; j++) ds.add("" + Double.longBitsToDouble(d.readLong()));
            r.trace.add("path " + id + " " + ds);
        }
        k = d.readInt();
        for (int i = 0; i < k; i++) {
            int id = d.readInt();
            int m = d.readInt();
            List<String> cs = new ArrayList<String>();
            for (int j = 0; j < m; j++) {
                cs.add("(" + d.readUnsignedByte() + "," + d.readInt() + "," + readStr(d) + "," + readStr(d) + ")");
            }
            r.trace.add("compares " + id + " " + cs);
        }
        r.stdout = readStr(d);
        r.propertiesChanged = d.readBoolean();
        expect(d.available(), 0, "TestResult fully decoded");
        return r;
    }

    static String outcome(DataInputStream d) throws IOException {
        int tag = d.readUnsignedByte();
        switch (tag) {
            case 0: return "not-executed";
            case 1: return value(d);
            case 2: return "threw " + readStr(d) + " '" + readStr(d) + "' sut=" + (d.readUnsignedByte() == 1) + " in="
                + readStr(d) + " top=" + readStr(d);
            case 3: return "timeout";
            case 4: return "guard " + readStr(d);
            default: throw new IOException("outcome tag " + tag);
        }
    }

    static String value(DataInputStream d) throws IOException {
        int tag = d.readUnsignedByte();
        switch (tag) {
            case 0: return "void";
            case 1: return "null";
            case 2: return "bool " + d.readUnsignedByte();
            case 3: return "byte " + d.readInt();
            case 4: return "char " + d.readInt();
            case 5: return "short " + d.readInt();
            case 6: return "int " + d.readInt();
            case 7: return "long " + d.readLong();
            case 8: return "float " + Float.intBitsToFloat(d.readInt());
            case 9: return "double " + Double.longBitsToDouble(d.readLong());
            case 10: return "string " + readStr(d);
            case 11: return "object " + readStr(d);
            case 12: return "array " + readStr(d) + " " + d.readInt();
            case 13: return "enum " + readStr(d) + " " + readStr(d);
            default: throw new IOException("value tag " + tag);
        }
    }
}
