// Subject of the guarded file system provider's tests (RuntimeTest.provider): every way java.nio.file
// and reflection onto the guards change a file, each by name, on a path the driver chooses (a canary
// outside the worker's scratch directory, or a copy inside it). Calls the JDK directly, as code
// under test does, except where instrumentation would redirect: reflection and method handles go
// through suitesmith.rt.Guards, as the instrumenter's redirects (rt-abi REDIRECTS) will make them.
// Its main prints what code of a written test sees of paths, to compare with and without the provider.
package subjects;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import suitesmith.rt.Guards;

public class FileOps {
    /** The operations, by the name the driver sends; each acts on `path` (a file, or a directory for the tree ones). */
    public static String run(String kind, String path) throws Throwable {
        Path p = Paths.get(path);
        byte[] data = "changed".getBytes(StandardCharsets.UTF_8);
        switch (kind) {
            case "delete":
                Files.delete(p);
                break;
            case "deleteIfExists":
                return "deleted " + Files.deleteIfExists(p);
            case "move":
                Files.move(p, p.resolveSibling(p.getFileName() + ".moved"));
                break;
            case "moveInto": {
                // The source is a scratch file: only the target may be outside.
                Path src = Paths.get(System.getProperty("suitesmith.test.scratch"), "move-src");
                Files.write(src, data);
                Files.move(src, p, StandardCopyOption.REPLACE_EXISTING);
                break;
            }
            case "copy": {
                Path src = Paths.get(System.getProperty("suitesmith.test.scratch"), "copy-src");
                Files.write(src, data);
                Files.copy(src, p, StandardCopyOption.REPLACE_EXISTING);
                break;
            }
            case "write":
                Files.write(p, data);
                break;
            case "byteChannel":
                try (SeekableByteChannel c = Files.newByteChannel(p, StandardOpenOption.WRITE)) {
                    c.write(ByteBuffer.wrap(data));
                }
                break;
            case "fileChannel":
                try (FileChannel c = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                    c.write(ByteBuffer.wrap(data));
                }
                break;
            case "outputStream":
                try (OutputStream o = Files.newOutputStream(p)) {
                    o.write(data);
                }
                break;
            case "symlink":
                Files.createSymbolicLink(p.resolveSibling(p.getFileName() + ".link"), p);
                break;
            case "hardlink":
                Files.createLink(p.resolveSibling(p.getFileName() + ".hard"), p);
                break;
            case "createDirectory":
                Files.createDirectory(p.resolveSibling(p.getFileName() + ".dir"));
                break;
            case "lastModified":
                Files.setLastModifiedTime(p, FileTime.fromMillis(0));
                break;
            case "permissions":
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxrwxrwx"));
                break;
            case "attribute":
                Files.setAttribute(p, "basic:lastModifiedTime", FileTime.fromMillis(0));
                break;
            case "attributeView":
                Files.getFileAttributeView(p, BasicFileAttributeView.class).setTimes(FileTime.fromMillis(0), null, null);
                break;
            case "secureDelete":
                // As Guava's MoreFiles.deleteRecursively: through the SecureDirectoryStream when there is one.
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                    if (!(ds instanceof SecureDirectoryStream)) return "not secure";
                    deleteContentsSecure((SecureDirectoryStream<Path>) ds);
                }
                break;
            case "secureWrite":
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(p.getParent())) {
                    SecureDirectoryStream<Path> s = (SecureDirectoryStream<Path>) ds;
                    try (SeekableByteChannel c = s.newByteChannel(p.getFileName(),
                        Collections.singleton(StandardOpenOption.WRITE))) {
                        c.write(ByteBuffer.wrap(data));
                    }
                }
                break;
            case "secureAttributes":
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(p.getParent())) {
                    SecureDirectoryStream<Path> s = (SecureDirectoryStream<Path>) ds;
                    s.getFileAttributeView(p.getFileName(), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                        .setTimes(FileTime.fromMillis(0), null, null);
                }
                break;
            case "reflectFilesDelete": {
                Method m = Files.class.getMethod("delete", Path.class);
                Guards.methodInvoke(m, null, new Object[] {p});
                break;
            }
            case "reflectFileDelete": {
                Method m = File.class.getMethod("delete");
                return "deleted " + Guards.methodInvoke(m, p.toFile(), new Object[0]);
            }
            case "handleFilesDelete": {
                MethodHandle h = Guards.lookupFindStatic(MethodHandles.lookup(), Files.class, "delete",
                    MethodType.methodType(void.class, Path.class));
                h.invoke(p);
                break;
            }
            case "handleFileDelete": {
                MethodHandle h = Guards.lookupFindVirtual(MethodHandles.lookup(), File.class, "delete",
                    MethodType.methodType(boolean.class));
                return "deleted " + (boolean) h.invoke(p.toFile());
            }
            case "handleFileWriter": {
                // A constructor handle: the guard checks the file argument first.
                MethodHandle h = Guards.lookupFindConstructor(MethodHandles.lookup(), java.io.FileWriter.class,
                    MethodType.methodType(void.class, File.class));
                ((java.io.Writer) h.invoke(p.toFile())).close();
                break;
            }
            case "reflectFileOutputStream": {
                java.lang.reflect.Constructor<?> k = java.io.FileOutputStream.class.getConstructor(String.class);
                ((OutputStream) Guards.constructorNewInstance(k, new Object[] {path})).close();
                break;
            }
            case "fileSetLastModified":
                return Guards.fileSetLastModified(p.toFile(), 0) ? "ok" : "refused";
            case "reflectSetWritable": {
                // A primitive argument through reflection onto a guard.
                Method m = File.class.getMethod("setWritable", boolean.class, boolean.class);
                return Boolean.TRUE.equals(Guards.methodInvoke(m, p.toFile(), new Object[] {false, false})) ? "ok" : "refused";
            }
            case "zipOpenDelete": {
                // As instrumented: the mode is checked before the constructor (OPEN_DELETE unlinks the file).
                int mode = Guards.checkZipOpenMode(java.util.zip.ZipFile.OPEN_READ | java.util.zip.ZipFile.OPEN_DELETE);
                new java.util.zip.ZipFile(p.toFile(), mode).close();
                break;
            }
            case "throughLink": {
                // `path` is a symbolic link in the scratch directory; the write follows it.
                Files.write(p, data);
                break;
            }
            case "deleteLink":
                // Removing a link in the scratch directory leaves its target alone, wherever it is.
                Files.delete(p);
                break;
            case "dotdot":
                Files.delete(Paths.get(System.getProperty("suitesmith.test.scratch"), "..", path));
                break;
            default:
                return "unknown " + kind;
        }
        return "ok";
    }

    private static void deleteContentsSecure(SecureDirectoryStream<Path> dir) throws IOException {
        List<Path> names = new ArrayList<Path>();
        for (Path entry : dir) names.add(entry.getFileName());
        for (Path name : names) {
            BasicFileAttributes a = dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
            if (a.isDirectory()) {
                try (SecureDirectoryStream<Path> child = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    deleteContentsSecure(child);
                }
                dir.deleteDirectory(name);
            } else {
                dir.deleteFile(name);
            }
        }
    }

    /**
     * Deletes the JVM's temporary directory itself (`how`: "nio" through Files.delete, "io" through
     * File.delete, "rename" through File.renameTo), as commons-io's forceDelete(getTempDirectory())
     * would: for the user that is /tmp.
     */
    public static String deleteTemporaryDirectory(String how) throws Throwable {
        java.io.File tmp = new java.io.File(System.getProperty("java.io.tmpdir"));
        if (how.equals("nio")) java.nio.file.Files.delete(tmp.toPath());
        if (how.equals("io")) return "io " + tmp.delete();
        if (how.equals("rename")) return "rename " + tmp.renameTo(new java.io.File(tmp.getParentFile(), "moved"));
        return "deleted";
    }

    /** A denial by the operating system, wrapped as a library would; `path` is where it happened. */
    public static String denied(String how, String path) throws Throwable {
        if (how.equals("nio")) throw new IllegalStateException(new java.nio.file.AccessDeniedException(path));
        if (how.equals("eperm")) throw new java.io.UncheckedIOException(
            new java.nio.file.FileSystemException(path, null, "Operation not permitted"));
        if (how.equals("erofs")) throw new java.nio.file.FileSystemException(path, null, "Read-only file system");
        if (how.equals("io")) {
            RuntimeException r = new RuntimeException("cleanup failed");
            r.addSuppressed(new java.io.FileNotFoundException(path + " (Permission denied)"));
            throw r;
        }
        if (how.equals("other")) throw new java.nio.file.NoSuchFileException(path);
        return "no";
    }

    /**
     * Verification mode (-Dsuitesmith.verify.scratch): `verify run KIND PATH` or `verify denied HOW
     * PATH` as one test, as RunTests brackets it; prints what the guards recorded ("none" if nothing).
     */
    static void verify(String[] args) {
        Guards.beginVerifiedTest();
        try {
            if (args[1].equals("run")) {
                run(args[2], args[3]);
            } else {
                denied(args[2], args[3]);
            }
        } catch (Throwable t) {
            Guards.verifiedTestThrew(t); // as RunTests does with a failed test's exception
        }
        String fired = Guards.verifiedTestFired();
        System.out.println(fired == null ? "none" : fired);
    }

    /** What a written test sees of paths: printed with and without the provider, the lines must agree. */
    public static void main(String[] args) throws Throwable {
        if (args[0].equals("verify")) {
            verify(args);
            return;
        }
        Path dir = Paths.get(args[0]);
        List<String> out = new ArrayList<String>();
        Path viaOf = (Path) Path.class.getMethod("of", String.class, String[].class).invoke(null, args[0], new String[] {"a.txt"});
        Path viaFile = new File(args[0], "a.txt").toPath();
        Path viaGet = Paths.get(args[0], "a.txt");
        out.add("equal " + viaOf.equals(viaFile) + " " + viaFile.equals(viaGet) + " " + viaGet.equals(viaOf));
        out.add("hash " + (viaOf.hashCode() == viaGet.hashCode()) + " compare " + viaOf.compareTo(viaGet));
        out.add("string " + viaOf + " uri " + viaOf.toUri() + " file " + viaOf.toFile() + " abs " + viaOf.isAbsolute());
        out.add("names " + viaOf.getNameCount() + " " + viaOf.getFileName() + " " + viaOf.getParent().equals(dir));
        out.add("relativize " + dir.relativize(viaOf) + " resolve " + dir.resolve("a.txt").equals(viaOf));
        out.add("startsWith " + viaOf.startsWith(dir) + " " + viaOf.endsWith("a.txt") + " normalize "
            + dir.resolve("x/../a.txt").normalize().equals(viaOf));
        out.add("uri round trip " + Paths.get(viaOf.toUri()).equals(viaOf));
        out.add("set " + new java.util.HashSet<Path>(java.util.Arrays.asList(viaOf, viaFile, viaGet)).size());
        out.add("fs " + (viaOf.getFileSystem() == java.nio.file.FileSystems.getDefault()) + " sep "
            + viaOf.getFileSystem().getSeparator());
        try (BufferedReader r = Files.newBufferedReader(viaOf, StandardCharsets.UTF_8)) {
            out.add("read " + r.readLine());
        }
        try (Stream<Path> s = Files.walk(dir)) {
            out.add("walk " + s.map(x -> dir.relativize(x).toString()).sorted().collect(Collectors.toList()));
        }
        final List<String> visited = new ArrayList<String>();
        Files.walkFileTree(dir, new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                visited.add(dir.relativize(file) + (attrs.isRegularFile() ? " file" : " other"));
                return FileVisitResult.CONTINUE;
            }
        });
        Collections.sort(visited);
        out.add("walkFileTree " + visited);
        out.add("matcher " + dir.getFileSystem().getPathMatcher("glob:**.txt").matches(viaOf));
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.txt")) {
            List<String> names = new ArrayList<String>();
            for (Path x : ds) names.add(x.getFileName().toString() + " " + x.getParent().equals(dir));
            Collections.sort(names);
            out.add("glob " + names);
        }
        out.add("realPath " + viaOf.toRealPath().equals(viaOf.toAbsolutePath()) + " same " + Files.isSameFile(viaOf, viaFile));
        out.add("exists " + Files.exists(viaOf) + " " + Files.isDirectory(dir) + " " + Files.isWritable(viaOf) + " size "
            + Files.size(viaOf) + " lines " + Files.readAllLines(viaOf, StandardCharsets.UTF_8));
        out.add("provider default " + (Paths.get("x").getFileSystem().provider()
            == java.nio.file.spi.FileSystemProvider.installedProviders().get(0)));
        for (String line : out) System.out.println(line);
    }
}
