/**
 * A {@link Path} of {@link GuardedFileSystemProvider}'s file system: the JDK's own path
 * ({@link #delegate}) behind a wrapper whose {@link #getFileSystem()} is the guarded file system,
 * so that {@code Files.delete(path)} and every other {@code Files} method, which dispatch on
 * {@code path.getFileSystem().provider()}, reach the guarded provider and not the JDK's.
 *
 * <p>Everything a test can observe (equals, hashCode, compareTo, toString, toUri, toFile, the
 * names) is the JDK path's: two wrappers are equal when their JDK paths are, and every path a
 * method returns is wrapped again. Arguments are unwrapped before they reach the JDK path, whose
 * methods reject paths of other providers.
 */
package suitesmith.rt;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Iterator;

final class GuardedPath implements Path {
    final GuardedFileSystemProvider.GuardedFileSystem fs;
    final Path delegate;

    GuardedPath(GuardedFileSystemProvider.GuardedFileSystem fs, Path delegate) {
        this.fs = fs;
        this.delegate = delegate;
    }

    /** The JDK path behind {@code p} when it is one of ours; else {@code p} itself (the JDK then rejects a foreign one). */
    static Path unwrap(Path p) {
        return p instanceof GuardedPath ? ((GuardedPath) p).delegate : p;
    }

    private Path wrap(Path p) {
        return fs.wrap(p);
    }

    @Override
    public FileSystem getFileSystem() {
        return fs;
    }

    @Override
    public boolean isAbsolute() {
        return delegate.isAbsolute();
    }

    @Override
    public Path getRoot() {
        return wrap(delegate.getRoot());
    }

    @Override
    public Path getFileName() {
        return wrap(delegate.getFileName());
    }

    @Override
    public Path getParent() {
        return wrap(delegate.getParent());
    }

    @Override
    public int getNameCount() {
        return delegate.getNameCount();
    }

    @Override
    public Path getName(int index) {
        return wrap(delegate.getName(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        return wrap(delegate.subpath(beginIndex, endIndex));
    }

    @Override
    public boolean startsWith(Path other) {
        return delegate.startsWith(unwrap(other));
    }

    @Override
    public boolean startsWith(String other) {
        return delegate.startsWith(other);
    }

    @Override
    public boolean endsWith(Path other) {
        return delegate.endsWith(unwrap(other));
    }

    @Override
    public boolean endsWith(String other) {
        return delegate.endsWith(other);
    }

    @Override
    public Path normalize() {
        return wrap(delegate.normalize());
    }

    @Override
    public Path resolve(Path other) {
        return wrap(delegate.resolve(unwrap(other)));
    }

    @Override
    public Path resolve(String other) {
        return wrap(delegate.resolve(other));
    }

    @Override
    public Path resolveSibling(Path other) {
        return wrap(delegate.resolveSibling(unwrap(other)));
    }

    @Override
    public Path resolveSibling(String other) {
        return wrap(delegate.resolveSibling(other));
    }

    @Override
    public Path relativize(Path other) {
        return wrap(delegate.relativize(unwrap(other)));
    }

    @Override
    public URI toUri() {
        return delegate.toUri();
    }

    @Override
    public Path toAbsolutePath() {
        return wrap(delegate.toAbsolutePath());
    }

    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        try {
            return wrap(delegate.toRealPath(options));
        } catch (IOException e) {
            throw fs.provider.denied(e, "Path.toRealPath", this);
        }
    }

    /**
     * As {@code Path.toFile} of the default file system: a File of the same name. (The JDK path's
     * own toFile would throw, its file system no longer being the default one.)
     */
    @Override
    public File toFile() {
        return new File(delegate.toString());
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers)
        throws IOException {
        return delegate.register(watcher, events, modifiers);
    }

    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>... events) throws IOException {
        return delegate.register(watcher, events);
    }

    @Override
    public Iterator<Path> iterator() {
        return fs.wrap(delegate.iterator());
    }

    @Override
    public int compareTo(Path other) {
        return delegate.compareTo(unwrap(other));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GuardedPath && delegate.equals(((GuardedPath) other).delegate);
    }

    @Override
    public int hashCode() {
        return delegate.hashCode();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
