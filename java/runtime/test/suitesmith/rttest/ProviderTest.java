/**
 * Tests of the guarded file system provider (suitesmith.rt.GuardedFileSystemProvider) and
 * of what goes with it: reflection and method handles onto guarded methods, and denials by the
 * operating system counted as refusals. Real workers and JVMs with the provider installed (as
 * crates/worker installs it); every operation of subjects.FileOps runs once on a canary outside the
 * scratch directory, which must be refused as a guard and stay intact, and once inside, where it
 * must work. Run from RuntimeTest (java/runtime/test/run.sh).
 */
package suitesmith.rttest;

import static suitesmith.rttest.RuntimeTest.expect;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

final class ProviderTest {
    private ProviderTest() {}

    /** Every operation of FileOps.run that changes a file, and how its guard names itself. */
    static final String[][] OPS = {
        {"delete", "Files.delete("},
        {"deleteIfExists", "Files.deleteIfExists("},
        {"move", "Files.move("},
        {"moveInto", "Files.move("},
        {"copy", "Files.copy("},
        {"write", "Files.newOutputStream("},
        {"byteChannel", "Files.newByteChannel("},
        {"fileChannel", "FileChannel.open("},
        {"outputStream", "Files.newOutputStream("},
        {"symlink", "Files.createSymbolicLink("},
        {"hardlink", "Files.createLink("},
        {"createDirectory", "Files.createDirectory("},
        {"lastModified", "BasicFileAttributeView.setTimes("},
        {"permissions", "PosixFileAttributeView.setPermissions("},
        {"attribute", "Files.setAttribute("},
        {"attributeView", "BasicFileAttributeView.setTimes("},
        {"secureDelete", "SecureDirectoryStream.delete"},
        {"secureWrite", "SecureDirectoryStream.newByteChannel("},
        {"secureAttributes", "BasicFileAttributeView.setTimes("},
        {"reflectFilesDelete", "Files.delete("},
        {"reflectFileDelete", "File.delete("},
        {"handleFilesDelete", "Files.delete("},
        {"handleFileDelete", "File.delete("},
        {"handleFileWriter", "write "},
        {"reflectFileOutputStream", "write "},
        {"fileSetLastModified", "File.setLastModified("},
        {"reflectSetWritable", "File.setWritable("},
    };

    /** Operations that act on a directory (a tree with files) rather than a file. */
    static boolean onTree(String kind) {
        return kind.equals("secureDelete");
    }

    static void run() throws Exception {
        File canary = Files.createTempDirectory("suitesmith-rt-canary").toFile();
        File inside = new File(RuntimeTest.scratch, "provider");
        inside.mkdirs();
        try {
            workers(canary, inside);
            denials(canary, inside);
            temporaryDirectory();
            verification(canary, inside);
            writtenTestSide();
        } finally {
            deleteTree(canary);
            deleteTree(inside);
        }
    }

    /** A file or tree named for `kind` in `dir`, with known contents. */
    static File prepare(File dir, String kind) throws IOException {
        if (onTree(kind)) {
            File t = new File(dir, kind);
            new File(t, "sub/deeper").mkdirs();
            write(new File(t, "top.txt"));
            write(new File(t, "sub/mid.txt"));
            write(new File(t, "sub/deeper/low.txt"));
            return t;
        }
        File f = new File(dir, kind + ".txt");
        write(f);
        return f;
    }

    static void write(File f) throws IOException {
        Files.write(f.toPath(), "alive".getBytes(StandardCharsets.UTF_8));
    }

    /** Every file below `dir` (relative) with its contents; directories as names. */
    static TreeSet<String> snapshot(File dir) throws IOException {
        TreeSet<String> out = new TreeSet<String>();
        snapshot(dir, "", out);
        return out;
    }

    private static void snapshot(File f, String rel, TreeSet<String> out) throws IOException {
        Path p = f.toPath();
        if (Files.isSymbolicLink(p)) {
            out.add(rel + " -> " + Files.readSymbolicLink(p));
        } else if (f.isDirectory()) {
            out.add(rel + "/");
            String[] names = f.list();
            Arrays.sort(names);
            for (String n : names) snapshot(new File(f, n), rel + "/" + n, out);
        } else {
            out.add(rel + " = " + new String(Files.readAllBytes(p), StandardCharsets.UTF_8) + " @"
                + Files.getLastModifiedTime(p).toMillis() + " " + Files.getPosixFilePermissions(p));
        }
    }

    static void workers(File canary, File inside) throws Exception {
        for (String[] op : OPS) {
            prepare(canary, op[0]);
            prepare(inside, op[0]);
        }
        // A symbolic link in the scratch directory to the canary: writing through it is writing the canary.
        File target = new File(canary, "linked.txt");
        write(target);
        File out = new File(inside, "link-out");
        Files.createSymbolicLink(out.toPath(), target.toPath());
        File in = new File(inside, "link-in");
        Files.createSymbolicLink(in.toPath(), new File(inside, "write.txt").toPath());
        File removable = new File(inside, "link-removable");
        Files.createSymbolicLink(removable.toPath(), target.toPath());
        write(new File(canary, "dotdot.txt"));
        TreeSet<String> before = snapshot(canary);

        RuntimeTest.Worker w = RuntimeTest.Worker.start(3000, "-Dsuitesmith.test.scratch=" + inside.getPath());
        RuntimeTest.Batch b = new RuntimeTest.Batch();
        int id = 0;
        List<String[]> cases = new ArrayList<String[]>();
        for (String[] op : OPS) {
            String name = onTree(op[0]) ? op[0] : op[0] + ".txt";
            cases.add(new String[] {op[0], new File(canary, name).getPath(), "guard", op[1]});
            cases.add(new String[] {op[0], new File(inside, name).getPath(), "ok", null});
        }
        // The refusal names the path as the code gave it (in the scratch directory, so shown as <scratch>).
        cases.add(new String[] {"throughLink", out.getPath(), "guard", "Files.newOutputStream(<scratch>/provider/link-out)"});
        cases.add(new String[] {"throughLink", in.getPath(), "ok", null});
        cases.add(new String[] {"deleteLink", removable.getPath(), "ok", null});
        cases.add(new String[] {"zipOpenDelete", target.getPath(), "guard", "ZipFile.OPEN_DELETE"});
        // `inside/../..` is the scratch directory's parent, where the canary directory is.
        cases.add(new String[] {"dotdot", "../" + canary.getName() + "/dotdot.txt", "guard", "Files.delete("});
        for (String[] c : cases) {
            RuntimeTest.T t = b.test(id++);
            t.method("subjects.FileOps", "run", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;", true, -1,
                t.str(c[0]), t.str(c[1]));
        }
        List<RuntimeTest.Result> rs = w.execute(b);
        w.shutdown();
        for (int i = 0; i < cases.size(); i++) {
            String[] c = cases.get(i);
            String outcome = rs.get(i).outcomes.get(2);
            String what = c[0] + " on " + c[1];
            if (c[2].equals("guard")) {
                expect(outcome.startsWith("guard " + c[3]), true, what + " refused as a guard: " + outcome);
                expect(rs.get(i).status, 2, what + ": status Guard");
            } else {
                expect(outcome.equals("string ok") || outcome.equals("string deleted true"), true,
                    what + " allowed in scratch: " + outcome);
            }
        }
        expect(snapshot(canary), before, "the canary directory is intact");
        // What the allowed operations did in the scratch directory.
        expect(new File(inside, "delete.txt").exists(), false, "deleted in scratch");
        expect(new File(inside, "move.txt.moved").exists(), true, "moved in scratch");
        expect(new File(inside, "secureDelete").list().length, 0, "SecureDirectoryStream deleted in scratch");
        expect(Files.isSymbolicLink(new File(inside, "symlink.txt.link").toPath()), true, "link made in scratch");
        expect(new String(Files.readAllBytes(new File(inside, "write.txt").toPath()), "UTF-8"), "changed",
            "written through a link in scratch");
        expect(removable.exists() || Files.isSymbolicLink(removable.toPath()), false, "a link to outside removed");
        expect(target.exists(), true, "its target stays");
    }

    /**
     * The worker's temporary directory may hold files, but is itself not deleted (through the
     * provider here; java.io's call sites are redirected only in instrumented classes, which this
     * harness's subjects are not).
     */
    static void temporaryDirectory() throws Exception {
        String[] hows = {"nio"};
        RuntimeTest.Worker w = RuntimeTest.Worker.start(3000);
        RuntimeTest.Batch b = new RuntimeTest.Batch();
        for (int i = 0; i < hows.length; i++) {
            RuntimeTest.T t = b.test(i);
            t.method("subjects.FileOps", "deleteTemporaryDirectory", "(Ljava/lang/String;)Ljava/lang/String;", true, -1,
                t.str(hows[i]));
        }
        List<RuntimeTest.Result> rs = w.execute(b);
        w.shutdown();
        for (int i = 0; i < hows.length; i++) {
            String outcome = rs.get(i).outcomes.get(1);
            expect(outcome.startsWith("guard"), true, "deleting the temporary directory (" + hows[i] + "): " + outcome);
        }
    }

    /** The executor counts a denial by the operating system outside scratch as a guard, however wrapped. */
    static void denials(File canary, File inside) throws Exception {
        String outside = new File(canary, "denied.txt").getPath();
        String[][] cases = {
            {"nio", outside, "guard denied by the system: java.nio.file.AccessDeniedException " + outside},
            {"eperm", outside, "guard denied by the system: java.nio.file.FileSystemException " + outside
                + ": Operation not permitted"},
            {"erofs", outside, "guard denied by the system: java.nio.file.FileSystemException " + outside
                + ": Read-only file system"},
            {"io", outside, "guard denied by the system: java.io.FileNotFoundException " + outside
                + " (Permission denied)"},
            {"nio", new File(inside, "x").getPath(), "threw java.lang.IllegalStateException"},
            // EPERM in scratch: the sandbox's seccomp filter refuses chmod and utimes there too.
            {"eperm", new File(inside, "x").getPath(), "guard denied by the system: java.nio.file.FileSystemException <scratch>"},
            {"other", outside, "threw java.nio.file.NoSuchFileException"},
        };
        RuntimeTest.Worker w = RuntimeTest.Worker.start(3000);
        RuntimeTest.Batch b = new RuntimeTest.Batch();
        for (int i = 0; i < cases.length; i++) {
            RuntimeTest.T t = b.test(i);
            t.method("subjects.FileOps", "denied", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;", true, -1,
                t.str(cases[i][0]), t.str(cases[i][1]));
        }
        List<RuntimeTest.Result> rs = w.execute(b);
        w.shutdown();
        for (int i = 0; i < cases.length; i++) {
            String outcome = rs.get(i).outcomes.get(2);
            expect(outcome.startsWith(cases[i][2]), true,
                "denial " + cases[i][0] + " on " + cases[i][1] + ": " + outcome + " (expected " + cases[i][2] + ")");
        }
    }

    /** Verification mode (a written test's JVM): refusals and denials recorded for the test. */
    static void verification(File canary, File inside) throws Exception {
        prepare(canary, "verify-delete");
        prepare(inside, "verify-delete");
        TreeSet<String> before = snapshot(canary);
        String outside = new File(canary, "verify-delete.txt").getPath();
        expect(jvm(inside, "verify", "run", "delete", outside).get(0), "Files.delete(" + outside + ")",
            "verification: Files.delete outside refused");
        expect(jvm(inside, "verify", "run", "secureDelete", canary.getPath()).get(0).startsWith("SecureDirectoryStream"),
            true, "verification: SecureDirectoryStream outside refused");
        expect(jvm(inside, "verify", "run", "delete", new File(inside, "verify-delete.txt").getPath()).get(0), "none",
            "verification: Files.delete in scratch allowed");
        expect(jvm(inside, "verify", "denied", "eperm", outside).get(0).startsWith("denied by the system"), true,
            "verification: a failed test's denial counts");
        expect(snapshot(canary), before, "the canary directory is intact after verification");
    }

    /** A JVM with the provider running FileOps.main, in verification mode with `scratch` unless null. */
    static List<String> jvm(File scratch, String... args) throws Exception {
        List<String> cmd = new ArrayList<String>();
        cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
        cmd.add(RuntimeTest.PROVIDER_ARG);
        if (scratch != null) cmd.add("-Dsuitesmith.verify.scratch=" + scratch.getPath());
        cmd.add("-cp");
        cmd.add(RuntimeTest.jar + File.pathSeparator + RuntimeTest.subjects);
        cmd.add("subjects.FileOps");
        cmd.addAll(Arrays.asList(args));
        return output(cmd);
    }

    static List<String> output(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> lines = new ArrayList<String>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) lines.add(l);
        }
        expect(p.waitFor(), 0, "exit status of " + cmd);
        return lines;
    }

    /** What a written test sees of paths is the same with the provider as without. */
    static void writtenTestSide() throws Exception {
        File dir = Files.createTempDirectory("suitesmith-rt-paths").toFile();
        try {
            Files.write(new File(dir, "a.txt").toPath(), "hello\nworld".getBytes(StandardCharsets.UTF_8));
            new File(dir, "sub").mkdirs();
            Files.write(new File(dir, "sub/b.txt").toPath(), "b".getBytes(StandardCharsets.UTF_8));
            List<String> with = jvm(null, dir.getPath());
            List<String> cmd = new ArrayList<String>();
            cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
            cmd.add("-cp");
            cmd.add(RuntimeTest.jar + File.pathSeparator + RuntimeTest.subjects);
            cmd.add("subjects.FileOps");
            cmd.add(dir.getPath());
            List<String> without = output(cmd);
            expect(with.size() > 15, true, "paths seen: " + with);
            for (int i = 0; i < without.size(); i++) {
                String line = without.get(i);
                expect(i < with.size() ? with.get(i) : "(none)", line, "written-test side, line " + i);
            }
        } finally {
            deleteTree(dir);
        }
    }

    static void deleteTree(File f) {
        if (f.isDirectory() && !Files.isSymbolicLink(f.toPath())) {
            File[] cs = f.listFiles();
            if (cs != null) for (File c : cs) deleteTree(c);
        }
        f.delete();
    }
}
