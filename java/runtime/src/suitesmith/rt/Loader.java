/**
 * The child-first class loader of the code under test: classes sent in Setup (instrumented bytes)
 * win, then the user classpath, then the parent. The JDK's packages and the runtime itself always come
 * from the parent, so instrumented classes link against the one real {@link Tracer} and {@link Guards}.
 * It also remembers which classes it defined, to tell SUT stack frames from JDK and runtime frames.
 */
package suitesmith.rt;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

final class Loader extends URLClassLoader {
    static {
        ClassLoader.registerAsParallelCapable();
    }

    /** Packages that must resolve to the parent's classes (the JDK, XML APIs it ships, the runtime). */
    private static final String[] PARENT_FIRST = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.w3c.dom.", "org.xml.sax.", "org.ietf.jgss.",
        "suitesmith.rt.",
    };

    private final Map<String, byte[]> bytes;
    private final Set<String> defined = ConcurrentHashMap.newKeySet();

    Loader(URL[] classpath, Map<String, byte[]> bytes, ClassLoader parent) {
        super(classpath, parent);
        this.bytes = bytes;
    }

    static boolean parentFirst(String name) {
        for (String p : PARENT_FIRST) {
            if (name.startsWith(p)) return true;
        }
        return false;
    }

    /**
     * Defines a stub class (an anonymous implementation a test creates, made by the engine) unless
     * it already is. It is not a SUT class: its frames are the test's, as an anonymous class's are.
     */
    void defineStub(String name, byte[] b) {
        synchronized (getClassLoadingLock(name)) {
            if (findLoadedClass(name) != null) return;
            definePackageOf(name);
            defineClass(name, b, 0, b.length);
        }
    }

    /** Whether this loader defined the class (from Setup bytes or the user classpath). */
    boolean isSut(String className) {
        return defined.contains(className);
    }

    /**
     * URLClassLoader defines packages for classpath classes; do the same for classes from bytes, so
     * `getClass().getPackage()` is not null in SUT code (logging libraries rely on it).
     */
    private void definePackageOf(String className) {
        int dot = className.lastIndexOf('.');
        if (dot <= 0) return;
        String pkg = className.substring(0, dot);
        if (getPackage(pkg) != null) return;
        try {
            definePackage(pkg, null, null, null, null, null, null, null);
        } catch (IllegalArgumentException definedConcurrently) {
            // Another thread defined it first: fine.
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (parentFirst(name)) return super.loadClass(name, resolve);
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] b = bytes.get(name);
                if (b != null) {
                    definePackageOf(name);
                    c = defineClass(name, b, 0, b.length);
                    defined.add(name);
                } else {
                    try {
                        c = findClass(name);
                        defined.add(name);
                    } catch (ClassNotFoundException notOnClasspath) {
                        c = getParent().loadClass(name);
                    }
                }
            }
            if (resolve) resolveClass(c);
            return c;
        }
    }
}
