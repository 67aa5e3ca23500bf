/**
 * VerifyAll: loads and links every class of a directory or jar in a fresh class loader, so that the
 * JVM's verifier (JVMS §4.10) checks each one, and reports per class OK / VerifyError / other
 * LinkageError / NoClassDefFoundError. JDK only; the instrument crate's tests compile it with javac
 * at test time and run it with `-Xverify:all -XX:+BytecodeVerificationLocal`.
 *
 * Usage: java VerifyAll [-quiet] TARGET [CLASSPATH_ENTRY...]
 *   TARGET           directory or jar whose classes are checked (it is also on the loader's path);
 *   CLASSPATH_ENTRY  directories or jars needed to link them (dependencies, the runtime classes).
 * Output: one line per class, `OK name` or `<Category> name: message` (with -quiet only the failures),
 * then `SUMMARY classes=N ok=N verify=N linkage=N noclassdef=N other=N`.
 * Exit status 0 when every class linked, 1 when some did not, 2 on bad arguments.
 *
 * Linking is forced with Class.forName(name, false, loader), which loads without initialising (no
 * static initialiser of the code under check runs), followed by getDeclaredFields() and
 * getDeclaredMethods(): HotSpot links (and so verifies) a class before it answers reflection on its
 * members (JVM_GetClassDeclaredMethods calls link_class first).
 */
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

public final class VerifyAll {
    private VerifyAll() {}

    public static void main(String[] args) throws IOException {
        boolean quiet = false;
        List<String> rest = new ArrayList<>();
        for (String a : args) {
            if (a.equals("-quiet")) quiet = true;
            else rest.add(a);
        }
        if (rest.isEmpty()) {
            System.err.println("usage: VerifyAll [-quiet] TARGET [CLASSPATH_ENTRY...]");
            System.exit(2);
        }
        File target = new File(rest.get(0));
        List<String> names = classNames(target);
        Collections.sort(names);
        URL[] urls = new URL[rest.size()];
        for (int i = 0; i < rest.size(); i++) urls[i] = new File(rest.get(i)).toURI().toURL();
        // The platform loader as parent: the JDK is visible, the application class path is not, so
        // every checked class (and the tracer it calls) comes from the given entries.
        int ok = 0, verify = 0, linkage = 0, noClassDef = 0, other = 0;
        try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            for (String name : names) {
                String category;
                String message = "";
                try {
                    Class<?> c = Class.forName(name, false, loader);
                    c.getDeclaredFields();
                    c.getDeclaredMethods();
                    c.getDeclaredConstructors();
                    category = "OK";
                } catch (VerifyError e) {
                    category = "VerifyError";
                    message = String.valueOf(e.getMessage());
                } catch (NoClassDefFoundError e) {
                    category = "NoClassDefFoundError";
                    message = String.valueOf(e.getMessage());
                } catch (LinkageError e) {
                    category = "LinkageError";
                    message = e.getClass().getName() + ": " + e.getMessage();
                } catch (Throwable e) {
                    category = "Other";
                    message = e.getClass().getName() + ": " + e.getMessage();
                }
                switch (category) {
                    case "OK": ok++; break;
                    case "VerifyError": verify++; break;
                    case "NoClassDefFoundError": noClassDef++; break;
                    case "LinkageError": linkage++; break;
                    default: other++; break;
                }
                if (category.equals("OK")) {
                    if (!quiet) System.out.println("OK " + name);
                } else {
                    // Messages of VerifyError span lines (location, reason, bytecode dump): keep one line.
                    System.out.println(category + " " + name + ": " + message.replace('\n', ' '));
                }
            }
        }
        System.out.println("SUMMARY classes=" + names.size() + " ok=" + ok + " verify=" + verify
                + " linkage=" + linkage + " noclassdef=" + noClassDef + " other=" + other);
        System.exit(ok == names.size() ? 0 : 1);
    }

    /** Binary names of the classes in a directory or jar; module-info and META-INF (multi-release copies) are skipped. */
    static List<String> classNames(File target) throws IOException {
        List<String> res = new ArrayList<>();
        if (target.isDirectory()) {
            Path root = target.toPath();
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(p -> p.toString().endsWith(".class"))
                        .forEach(p -> addName(res, root.relativize(p).toString().replace(File.separatorChar, '/')));
            }
        } else {
            try (JarFile jar = new JarFile(target)) {
                Enumeration<JarEntry> e = jar.entries();
                while (e.hasMoreElements()) {
                    JarEntry entry = e.nextElement();
                    if (!entry.isDirectory() && entry.getName().endsWith(".class")) addName(res, entry.getName());
                }
            }
        }
        return res;
    }

    private static void addName(List<String> res, String path) {
        if (path.startsWith("META-INF/")) return;
        String name = path.substring(0, path.length() - ".class".length());
        if (name.endsWith("module-info")) return;
        res.add(name.replace('/', '.'));
    }
}
