/**
 * The directory streams {@link GuardedFileSystemProvider} hands out: the JDK's, with every entry
 * wrapped as a {@link GuardedPath}. When the JDK's stream is a {@link SecureDirectoryStream} (Linux),
 * the wrapper is one too ({@link Secure}): Guava's {@code MoreFiles.deleteRecursively} checks
 * {@code instanceof SecureDirectoryStream} and then deletes through {@code deleteFile} and
 * {@code deleteDirectory} (unlinkat relative to the open directory), which no call-site redirect
 * sees. Each of its mutations is checked against the path it acts on: a relative path resolved
 * against the path the stream was opened with, as the JDK resolves it.
 */
package suitesmith.rt;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.Iterator;
import java.util.Set;

class GuardedDirectoryStream implements DirectoryStream<Path> {
    final GuardedFileSystemProvider provider;
    private final DirectoryStream<Path> stream;
    /** The directory as it was opened (wrapped): what relative paths of a secure stream resolve against. */
    final Path dir;

    GuardedDirectoryStream(GuardedFileSystemProvider provider, DirectoryStream<Path> stream, Path dir) {
        this.provider = provider;
        this.stream = stream;
        this.dir = dir;
    }

    /** The JDK's class of the wrapped stream ({@link GuardedFileSystemProvider#visibleClass}). */
    Class<?> delegateClass() {
        return stream.getClass();
    }

    /** The wrapper of {@code stream}: a secure one when it is secure. */
    static DirectoryStream<Path> of(GuardedFileSystemProvider provider, DirectoryStream<Path> stream, Path dir) {
        if (stream instanceof SecureDirectoryStream) {
            return new Secure(provider, (SecureDirectoryStream<Path>) stream, dir);
        }
        return new GuardedDirectoryStream(provider, stream, dir);
    }

    @Override
    public Iterator<Path> iterator() {
        return provider.fileSystem().wrap(stream.iterator());
    }

    @Override
    public void close() throws IOException {
        stream.close();
    }

    /** A {@link SecureDirectoryStream} whose mutations are guarded. */
    static final class Secure extends GuardedDirectoryStream implements SecureDirectoryStream<Path> {
        final SecureDirectoryStream<Path> secure;

        Secure(GuardedFileSystemProvider provider, SecureDirectoryStream<Path> secure, Path dir) {
            super(provider, secure, dir);
            this.secure = secure;
        }

        /** The path an operation of this stream on {@code p} acts on. */
        Path resolve(Path p) {
            Path raw = GuardedPath.unwrap(p);
            if (raw == null || raw.isAbsolute() || dir == null) return provider.fileSystem().wrap(raw);
            return dir.resolve(raw);
        }

        @Override
        public SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options) throws IOException {
            SecureDirectoryStream<Path> child;
            try {
                child = secure.newDirectoryStream(GuardedPath.unwrap(path), options);
            } catch (IOException e) {
                throw provider.denied(e, "SecureDirectoryStream.newDirectoryStream", resolve(path));
            }
            return new Secure(provider, child, resolve(path));
        }

        @Override
        public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
            FileAttribute<?>... attrs) throws IOException {
            String op = "SecureDirectoryStream.newByteChannel";
            if (GuardedFileSystemProvider.mutates(options)) provider.checkTarget(op, resolve(path));
            try {
                return secure.newByteChannel(GuardedPath.unwrap(path), options, attrs);
            } catch (IOException e) {
                throw provider.denied(e, op, resolve(path));
            }
        }

        @Override
        public void deleteFile(Path path) throws IOException {
            String op = "SecureDirectoryStream.deleteFile";
            provider.checkEntry(op, resolve(path));
            try {
                secure.deleteFile(GuardedPath.unwrap(path));
            } catch (IOException e) {
                throw provider.denied(e, op, resolve(path));
            }
        }

        @Override
        public void deleteDirectory(Path path) throws IOException {
            String op = "SecureDirectoryStream.deleteDirectory";
            provider.checkEntry(op, resolve(path));
            try {
                secure.deleteDirectory(GuardedPath.unwrap(path));
            } catch (IOException e) {
                throw provider.denied(e, op, resolve(path));
            }
        }

        @Override
        public void move(Path srcpath, SecureDirectoryStream<Path> targetdir, Path targetpath) throws IOException {
            String op = "SecureDirectoryStream.move";
            provider.checkEntry(op, resolve(srcpath));
            Path target;
            if (targetdir instanceof Secure) {
                target = ((Secure) targetdir).resolve(targetpath);
            } else {
                // Not one of ours (it cannot come from this file system): only an absolute name is known.
                Path raw = GuardedPath.unwrap(targetpath);
                target = raw != null && raw.isAbsolute() ? raw : null;
                if (target == null) throw Guards.refusedPath(op, targetpath);
            }
            provider.checkEntry(op, target);
            try {
                secure.move(GuardedPath.unwrap(srcpath), GuardedFileSystemProvider.unwrapStream(targetdir),
                    GuardedPath.unwrap(targetpath));
            } catch (IOException e) {
                throw provider.denied(e, op, target);
            }
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
            return provider.guardView(secure.getFileAttributeView(type), type, dir, false);
        }

        @Override
        public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
            boolean noFollow = false;
            for (LinkOption o : options) noFollow |= o == LinkOption.NOFOLLOW_LINKS;
            V view = secure.getFileAttributeView(GuardedPath.unwrap(path), type, options);
            return provider.guardView(view, type, resolve(path), noFollow);
        }
    }
}
