/**
 * The one chokepoint of java.nio.file (the sandbox's layer 2): a default {@link FileSystemProvider}
 * that delegates to the JDK's and refuses, as a guard, every operation that would change something
 * outside the scratch directory. Every JVM that runs code under test installs it with
 * {@code -Djava.nio.file.spi.DefaultFileSystemProvider=suitesmith.rt.GuardedFileSystemProvider}
 * (documented in {@code FileSystems.getDefault}: the class is loaded from the system class path and
 * its public constructor takes the JDK's provider); {@code crates/worker} adds it to the workers and
 * to contained verification runs.
 *
 * <p>A list of call sites ({@code Files.delete}, {@code Files.write}, ... in crates/rt-abi) cannot
 * be complete: Guava deletes through {@code SecureDirectoryStream.deleteFile}, code truncates through
 * {@code FileChannel.open(path, WRITE)}, and a JDK method or a method handle may do either on the
 * code's behalf. All of them end in this provider, which the JDK reaches through
 * {@code path.getFileSystem().provider()}: so the file system and every path, directory stream
 * and attribute view it hands out are wrapped ({@link GuardedPath}, {@link GuardedDirectoryStream}),
 * and unwrapped again when handed to the JDK's provider.
 *
 * <p>Refused, unless the target is in the scratch directory ({@link Guards#inScratch(File)}'s rules:
 * canonical paths, so neither {@code ..} nor a symbolic link leads out, and not the stand-ins for
 * the user's directories): delete, move (both ends), copy (target), createDirectory, links, setting
 * attributes, and opening a channel or stream with a write, append, create, truncate or
 * delete-on-close option. A refusal is recorded ({@code Guards} "fired": the statement is cut) and
 * thrown as the AccessDeniedException the JDK throws for a permission problem. Reads pass through.
 *
 * <p>The operating-system sandbox (layer 1) denies what gets past this provider; such a denial on a
 * path outside the scratch directory is recorded the same way ({@link #denied}), so that no written
 * test expects it (layer 3).
 */
package suitesmith.rt;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

public final class GuardedFileSystemProvider extends FileSystemProvider {
    /** The system property that installs this provider, and its value. */
    public static final String PROPERTY = "java.nio.file.spi.DefaultFileSystemProvider";

    private final FileSystemProvider delegate;
    private final GuardedFileSystem fs;

    /** Called by the JDK with its own default provider, the first time the default file system is needed. */
    public GuardedFileSystemProvider(FileSystemProvider delegate) {
        this.delegate = delegate;
        this.fs = new GuardedFileSystem(this, delegate.getFileSystem(URI.create("file:///")));
    }

    // ---------------------------------------------------------------------------------------------
    // The checks.

    /** The file a (wrapped or JDK) path names, for {@link Guards#inScratch(File)}. */
    private static File file(Path p) {
        return new File(GuardedPath.unwrap(p).toString());
    }

    /**
     * Refuses unless what {@code p} leads to (following symbolic links, as a write through the
     * path does) is in the scratch directory.
     */
    void checkTarget(String op, Path p) throws AccessDeniedException {
        if (p == null || Guards.inScratch(file(p))) return;
        throw Guards.refusedPath(op, p);
    }

    /**
     * Refuses unless the directory entry {@code p} itself is in the scratch directory: its parent,
     * canonical, and its name. What deleting, renaming or linking acts on: a symbolic link in the
     * scratch directory that points out may itself be removed.
     */
    void checkEntry(String op, Path p) throws AccessDeniedException {
        if (p == null || Guards.entryInScratch(file(p))) return;
        throw Guards.refusedPath(op, p);
    }

    /**
     * Records {@code e} as a refusal when the operating system denied an operation on {@code p}
     * outside the scratch directory (layer 1's sandbox, or the user's permissions), and returns it
     * to be rethrown: the statement is cut, and no written test expects the denial, which the user,
     * running the tests without a sandbox, would not get.
     */
    IOException denied(IOException e, String op, Path p) {
        Denials.recordIfDenied(e, op + "(" + p + ")", p == null ? null : GuardedPath.unwrap(p).toString());
        return e;
    }

    /** Whether opening with {@code options} may create, change or remove the file. */
    static boolean mutates(Set<? extends OpenOption> options) {
        for (OpenOption o : options) {
            if (o == StandardOpenOption.WRITE
                || o == StandardOpenOption.APPEND
                || o == StandardOpenOption.CREATE
                || o == StandardOpenOption.CREATE_NEW
                || o == StandardOpenOption.TRUNCATE_EXISTING
                || o == StandardOpenOption.DELETE_ON_CLOSE) {
                return true;
            }
        }
        return false;
    }

    /** Whether a link option asks not to follow links (then attributes act on the entry). */
    private static boolean noFollow(LinkOption... options) {
        for (LinkOption o : options) {
            if (o == LinkOption.NOFOLLOW_LINKS) return true;
        }
        return false;
    }

    void checkAttributes(String op, Path p, boolean noFollow) throws AccessDeniedException {
        if (noFollow) {
            checkEntry(op, p);
        } else {
            checkTarget(op, p);
        }
    }

    /**
     * An attribute view whose mutating methods ({@code set*}, {@code write}, {@code delete}) are
     * checked against {@code target} first; reads go straight to the JDK's view. A proxy of the
     * requested interface, so that every view (basic, posix, dos, owner, acl, user-defined) is
     * covered without listing them.
     */
    @SuppressWarnings("unchecked")
    <V extends FileAttributeView> V guardView(final V view, Class<V> type, final Path target, final boolean entry) {
        if (view == null || !type.isInterface()) return view;
        InvocationHandler h = new InvocationHandler() {
            @Override
            public Object invoke(Object proxy, Method m, Object[] args) throws Throwable {
                String name = m.getName();
                boolean mutating = name.startsWith("set") || name.equals("write") || name.equals("delete");
                String op = type.getSimpleName() + "." + name;
                if (mutating) checkAttributes(op, target, entry);
                try {
                    return m.invoke(view, args);
                } catch (InvocationTargetException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof IOException) throw denied((IOException) cause, op, target);
                    throw cause;
                }
            }
        };
        ClassLoader loader = GuardedFileSystemProvider.class.getClassLoader();
        try {
            return (V) Proxy.newProxyInstance(loader, new Class<?>[] {type}, h);
        } catch (IllegalArgumentException notVisible) {
            return (V) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h);
        }
    }

    /**
     * The class the JDK would have handed out where {@code v} is one of our wrappers (a path, the file
     * system, a directory stream), else {@code v}'s own: what the engine sees of a value must be what
     * the user's run, with no provider of ours, has.
     */
    static Class<?> visibleClass(Object v) {
        if (v instanceof GuardedPath) return ((GuardedPath) v).delegate.getClass();
        if (v instanceof GuardedFileSystem) return ((GuardedFileSystem) v).delegate.getClass();
        if (v instanceof GuardedDirectoryStream) return ((GuardedDirectoryStream) v).delegateClass();
        return v.getClass();
    }

    // ---------------------------------------------------------------------------------------------
    // The provider.

    @Override
    public String getScheme() {
        return delegate.getScheme();
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        delegate.newFileSystem(uri, env); // the JDK's throws FileSystemAlreadyExistsException
        return fs;
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        delegate.getFileSystem(uri); // checks the URI as the JDK does
        return fs;
    }

    @Override
    public Path getPath(URI uri) {
        return fs.wrap(delegate.getPath(uri));
    }

    @Override
    public FileSystem newFileSystem(Path path, Map<String, ?> env) throws IOException {
        return delegate.newFileSystem(GuardedPath.unwrap(path), env);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
        if (mutates(options)) checkTarget("Files.newByteChannel", path);
        try {
            return delegate.newByteChannel(GuardedPath.unwrap(path), options, attrs);
        } catch (IOException e) {
            throw denied(e, "Files.newByteChannel", path);
        }
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
        if (mutates(options)) checkTarget("FileChannel.open", path);
        try {
            return delegate.newFileChannel(GuardedPath.unwrap(path), options, attrs);
        } catch (IOException e) {
            throw denied(e, "FileChannel.open", path);
        }
    }

    @Override
    public AsynchronousFileChannel newAsynchronousFileChannel(Path path, Set<? extends OpenOption> options,
        ExecutorService executor, FileAttribute<?>... attrs) throws IOException {
        if (mutates(options)) checkTarget("AsynchronousFileChannel.open", path);
        try {
            return delegate.newAsynchronousFileChannel(GuardedPath.unwrap(path), options, executor, attrs);
        } catch (IOException e) {
            throw denied(e, "AsynchronousFileChannel.open", path);
        }
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        // Only DELETE_ON_CLOSE changes anything; WRITE and APPEND the JDK rejects itself.
        if (Arrays.asList(options).contains(StandardOpenOption.DELETE_ON_CLOSE)) {
            checkEntry("Files.newInputStream", path);
        }
        try {
            return delegate.newInputStream(GuardedPath.unwrap(path), options);
        } catch (IOException e) {
            throw denied(e, "Files.newInputStream", path);
        }
    }

    @Override
    public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        checkTarget("Files.newOutputStream", path); // always writes (no options: create, truncate)
        try {
            return delegate.newOutputStream(GuardedPath.unwrap(path), options);
        } catch (IOException e) {
            throw denied(e, "Files.newOutputStream", path);
        }
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, final DirectoryStream.Filter<? super Path> filter)
        throws IOException {
        DirectoryStream.Filter<Path> unwrapped = null;
        if (filter != null) {
            // The user's filter sees the paths the iterator will hand out: wrapped ones.
            unwrapped = new DirectoryStream.Filter<Path>() {
                @Override
                public boolean accept(Path entry) throws IOException {
                    return filter.accept(fs.wrap(entry));
                }
            };
        }
        DirectoryStream<Path> ds;
        try {
            ds = delegate.newDirectoryStream(GuardedPath.unwrap(dir), unwrapped);
        } catch (IOException e) {
            throw denied(e, "Files.newDirectoryStream", dir);
        }
        return GuardedDirectoryStream.of(this, ds, fs.wrap(GuardedPath.unwrap(dir)));
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        checkEntry("Files.createDirectory", dir);
        try {
            delegate.createDirectory(GuardedPath.unwrap(dir), attrs);
        } catch (IOException e) {
            throw denied(e, "Files.createDirectory", dir);
        }
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        // The link's target is only its content: a write through the link is checked where it leads.
        checkEntry("Files.createSymbolicLink", link);
        try {
            delegate.createSymbolicLink(GuardedPath.unwrap(link), GuardedPath.unwrap(target), attrs);
        } catch (IOException e) {
            throw denied(e, "Files.createSymbolicLink", link);
        }
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        // A hard link is the file itself under a new name: one in the scratch directory to a file
        // outside would make that file writable as a scratch file.
        checkEntry("Files.createLink", link);
        checkTarget("Files.createLink", existing);
        try {
            delegate.createLink(GuardedPath.unwrap(link), GuardedPath.unwrap(existing));
        } catch (IOException e) {
            throw denied(e, "Files.createLink", link);
        }
    }

    @Override
    public void delete(Path path) throws IOException {
        checkEntry("Files.delete", path);
        try {
            delegate.delete(GuardedPath.unwrap(path));
        } catch (IOException e) {
            throw denied(e, "Files.delete", path);
        }
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        checkEntry("Files.deleteIfExists", path);
        try {
            return delegate.deleteIfExists(GuardedPath.unwrap(path));
        } catch (IOException e) {
            throw denied(e, "Files.deleteIfExists", path);
        }
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        try {
            return fs.wrap(delegate.readSymbolicLink(GuardedPath.unwrap(link)));
        } catch (IOException e) {
            throw denied(e, "Files.readSymbolicLink", link);
        }
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        checkEntry("Files.copy", target);
        try {
            delegate.copy(GuardedPath.unwrap(source), GuardedPath.unwrap(target), options);
        } catch (IOException e) {
            throw denied(e, "Files.copy", target);
        }
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        // A move removes its source.
        checkEntry("Files.move", source);
        checkEntry("Files.move", target);
        try {
            delegate.move(GuardedPath.unwrap(source), GuardedPath.unwrap(target), options);
        } catch (IOException e) {
            throw denied(e, "Files.move", target);
        }
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        try {
            return delegate.isSameFile(GuardedPath.unwrap(path), GuardedPath.unwrap(path2));
        } catch (IOException e) {
            throw denied(e, "Files.isSameFile", path);
        }
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return delegate.isHidden(GuardedPath.unwrap(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        try {
            return delegate.getFileStore(GuardedPath.unwrap(path));
        } catch (IOException e) {
            throw denied(e, "Files.getFileStore", path);
        }
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        // Only asks; a denial here is an answer ("not writable"), not an attempt.
        delegate.checkAccess(GuardedPath.unwrap(path), modes);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        V view = delegate.getFileAttributeView(GuardedPath.unwrap(path), type, options);
        return guardView(view, type, path, noFollow(options));
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
        throws IOException {
        return delegate.readAttributes(GuardedPath.unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options)
        throws IOException {
        return delegate.readAttributes(GuardedPath.unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        checkAttributes("Files.setAttribute", path, noFollow(options));
        try {
            delegate.setAttribute(GuardedPath.unwrap(path), attribute, value, options);
        } catch (IOException e) {
            throw denied(e, "Files.setAttribute", path);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The file system.

    /** The default file system as code sees it: the JDK's, handing out {@link GuardedPath}s. */
    static final class GuardedFileSystem extends FileSystem {
        final GuardedFileSystemProvider provider;
        private final FileSystem delegate;

        GuardedFileSystem(GuardedFileSystemProvider provider, FileSystem delegate) {
            this.provider = provider;
            this.delegate = delegate;
        }

        /** {@code p} wrapped (null stays null; one of ours stays as it is). */
        Path wrap(Path p) {
            if (p == null || p instanceof GuardedPath) return p;
            return new GuardedPath(this, p);
        }

        @Override
        public FileSystemProvider provider() {
            return provider;
        }

        @Override
        public void close() throws IOException {
            delegate.close(); // the JDK's default file system cannot be closed: it throws
        }

        @Override
        public boolean isOpen() {
            return delegate.isOpen();
        }

        @Override
        public boolean isReadOnly() {
            return delegate.isReadOnly();
        }

        @Override
        public String getSeparator() {
            return delegate.getSeparator();
        }

        /** The paths of {@code it}, wrapped. */
        Iterator<Path> wrap(final Iterator<Path> it) {
            return new Iterator<Path>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public Path next() {
                    return wrap(it.next());
                }

                @Override
                public void remove() {
                    it.remove();
                }
            };
        }

        @Override
        public Iterable<Path> getRootDirectories() {
            final Iterable<Path> roots = delegate.getRootDirectories();
            return new Iterable<Path>() {
                @Override
                public Iterator<Path> iterator() {
                    return wrap(roots.iterator());
                }
            };
        }

        @Override
        public Iterable<FileStore> getFileStores() {
            return delegate.getFileStores();
        }

        @Override
        public Set<String> supportedFileAttributeViews() {
            return delegate.supportedFileAttributeViews();
        }

        @Override
        public Path getPath(String first, String... more) {
            return wrap(delegate.getPath(first, more));
        }

        @Override
        public PathMatcher getPathMatcher(String syntaxAndPattern) {
            final PathMatcher m = delegate.getPathMatcher(syntaxAndPattern);
            return new PathMatcher() {
                @Override
                public boolean matches(Path path) {
                    return m.matches(GuardedPath.unwrap(path));
                }
            };
        }

        @Override
        public UserPrincipalLookupService getUserPrincipalLookupService() {
            return delegate.getUserPrincipalLookupService();
        }

        @Override
        public WatchService newWatchService() throws IOException {
            return delegate.newWatchService();
        }
    }

    /** Used by {@link GuardedDirectoryStream} to wrap what a JDK directory stream hands out. */
    GuardedFileSystem fileSystem() {
        return fs;
    }

    /** For {@link GuardedDirectoryStream}: whether a SecureDirectoryStream is one of ours. */
    static SecureDirectoryStream<Path> unwrapStream(SecureDirectoryStream<Path> s) {
        return s instanceof GuardedDirectoryStream.Secure ? ((GuardedDirectoryStream.Secure) s).secure : s;
    }
}
