/**
 * Runs JUnit test classes with JUnit's own runner and reports every test method's outcome as records
 * (see {@link Records} and docs/verify.md). Usage:
 * {@code java -cp <tests>:<classpath>:<junit jars>:<runtime jar> suitesmith.tools.RunTests 4|5 Class...}
 *
 * <p>JUnit is reached by reflection only, because this file is compiled with the JDK alone into the
 * worker's runtime jar (crates/worker/build.rs). JUnit 4: every test method is run on its own through
 * {@code JUnitCore.run(Request.aClass(c).filterWith(description))}, in the order of the class runner's
 * description, so a record is written as soon as each test ends (RunListener is a class, which
 * reflection cannot implement). JUnit 5: the platform launcher with a TestExecutionListener made by
 * {@link java.lang.reflect.Proxy}. The records are: {@code ready}, {@code plan}, {@code start},
 * {@code pass}, {@code fail}, {@code timeout}, {@code skip}, {@code done}, and {@code fatal} when JUnit
 * itself cannot be driven. After {@code done} the JVM exits with System.exit(0) (shutdown hooks, such
 * as JaCoCo's agent writing its exec file, run), which also ends threads a timed-out test left behind.
 *
 * <p>An argument {@code Class#method} runs only that test method of the class (several such arguments
 * for one class run those methods, in the runner's order); the engine uses it to run the tests a
 * dying JVM left unfinished again, one by one.
 *
 * <p>Verification mode ({@code -Dsuitesmith.verify.scratch=DIR}, see suitesmith.rt.Guards): the
 * classes under test are guard-instrumented, and a test during which a guard refused something is
 * reported as failed ({@code fail ... suitesmith.rt.GuardException "a guard refused: ..." -}), even
 * if it passed, or if it failed with a denial by the operating system outside the scratch directory
 * (the sandbox's, which the user's run would not get): the search cut every statement that hit a
 * guard, so a guard firing here means the
 * test does something else when run again, and it must not be written. A test that leaves a file or
 * directory behind in the scratch directory (the working, temporary and home directories point into
 * it) is reported the same way: for the user it would leave that file in the project, in
 * {@code java.io.tmpdir} or in {@code ~} in every run.
 */
package suitesmith.tools;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import suitesmith.rt.Guards;

public final class RunTests {
    private RunTests() {}

    public static void main(String[] args) {
        Records out = Records.takeStdout();
        if (args.length < 1 || !(args[0].equals("4") || args[0].equals("5"))) {
            out.emit("fatal", "usage: RunTests 4|5 Class...");
            System.exit(2);
        }
        List<String> classes = new ArrayList<String>();
        for (int i = 1; i < args.length; i++) {
            classes.add(args[i]);
        }
        int planned;
        try {
            planned = args[0].equals("4") ? new JUnit4(out).run(classes) : new JUnit5(out).run(classes);
        } catch (Throwable t) {
            Throwable cause = unwrap(t);
            out.emit("fatal", cause.getClass().getName() + ": " + Records.firstLine(cause.getMessage()));
            System.exit(2);
            return;
        }
        out.emit("done", planned);
        System.exit(0);
    }

    /**
     * The arguments grouped by class, in first-seen order: null for a whole class, else the method
     * names asked for with {@code Class#method}.
     */
    static Map<String, Set<String>> selection(List<String> names) {
        Map<String, Set<String>> byClass = new LinkedHashMap<String, Set<String>>();
        for (String name : names) {
            int hash = name.indexOf('#');
            String cls = hash < 0 ? name : name.substring(0, hash);
            if (hash < 0) {
                byClass.put(cls, null);
            } else if (!byClass.containsKey(cls) || byClass.get(cls) != null) {
                Set<String> methods = byClass.get(cls);
                if (methods == null) {
                    methods = new HashSet<String>();
                    byClass.put(cls, methods);
                }
                methods.add(name.substring(hash + 1));
            }
        }
        return byClass;
    }

    /** Verification mode: the files and directories below the scratch directory as the running test started. */
    private static Set<String> scratchBefore = Collections.emptySet();

    /** Verification mode: the threads alive as the running test started. */
    private static Set<Thread> threadsBefore = Collections.emptySet();

    /**
     * Verification mode: forgets the last refusal as a test starts, and lists the scratch directory
     * and the live threads.
     */
    static void beginGuarded() {
        if (Guards.verifying()) {
            Guards.beginVerifiedTest();
            threadsBefore = new HashSet<Thread>(Thread.getAllStackTraces().keySet());
            plantCanaries();
            scratchBefore = scratchEntries();
        }
    }

    /** Whether the thread's group is "main" or below it. */
    private static boolean belowMain(Thread t) {
        for (ThreadGroup g = t.getThreadGroup(); g != null; g = g.getParent()) {
            if ("main".equals(g.getName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Verification mode: ends the threads the test started and left running (interrupted,
     * then stopped if they ignore it, where the JVM still allows Thread.stop), before its leftovers
     * are counted. Otherwise a thread that writes files for ever (the hostile corpus's Ticker) would
     * make every later test of the run look as if it left files behind, and be dropped with the one
     * test that did start it. Threads the JDK makes lazily (the cleaner, the process reaper) belong
     * to the system thread group, outside "main", and are left alone; a test's threads are below
     * "main" (JUnit 4's time-limited test runs in a group of its own there).
     */
    @SuppressWarnings("deprecation")
    private static void stopLeftThreads() {
        Thread self = Thread.currentThread();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t == self || threadsBefore.contains(t) || !t.isAlive() || !belowMain(t)) {
                continue;
            }
            t.interrupt();
            try {
                t.join(20);
                if (t.isAlive()) {
                    t.stop();
                    t.join(20);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable unsupported) {
                // Thread.stop throws UnsupportedOperationException from Java 20 on: the thread stays.
            }
        }
    }

    /**
     * Verification mode: if a guard refused something since {@link #beginGuarded}, or the test left a
     * file or directory behind in the scratch directory (its working, temporary or home directory,
     * which for the user are the project, {@code java.io.tmpdir} and {@code ~}: a test that leaves a
     * temporary file there leaves it on the user's disk in every run), writes the test's failure
     * record and returns true. What the test left is removed, so that the next test starts clean.
     */
    static boolean failedGuard(Records out, String cls, String method) {
        if (!Guards.verifying()) {
            return false;
        }
        stopLeftThreads();
        String refused = Guards.verifiedTestFired();
        Set<String> now = scratchEntries();
        String gone = deleted(now);
        String left = leftBehind(now);
        String why = refused != null ? "a guard refused: " + refused : gone != null ? gone : left;
        if (why == null) {
            return false;
        }
        out.emit("fail", cls, method, "suitesmith.rt.GuardException", Records.firstLine(why), "-");
        return true;
    }

    /** The paths below the scratch directory, relative to it (empty outside verification mode). */
    static Set<String> scratchEntries() {
        Set<String> found = new HashSet<String>();
        String root = System.getProperty("suitesmith.verify.scratch");
        if (root != null) {
            walk(new java.io.File(root), "", found);
        }
        return found;
    }

    private static void walk(java.io.File dir, String prefix, Set<String> found) {
        String[] names = dir.list();
        if (names == null) {
            return;
        }
        for (String n : names) {
            String rel = prefix + n;
            found.add(rel);
            java.io.File f = new java.io.File(dir, n);
            // Not through a symbolic link: it could point anywhere.
            if (f.isDirectory() && !java.nio.file.Files.isSymbolicLink(f.toPath())) {
                walk(f, rel + "/", found);
            }
        }
    }

    /**
     * The file verification keeps in the working, temporary and home directories of its runs
     * (below the scratch directory). For the user those are the project, {@code java.io.tmpdir}
     * and {@code ~}, full of files no test made: a test that deletes the canary (a library's
     * {@code cleanDirectory(getTempDirectory())}) would delete those, so it fails.
     */
    static final String CANARY = Guards.CANARY;

    /** Makes the canaries that are missing (a failed test may have deleted one). */
    private static void plantCanaries() {
        String root = System.getProperty("suitesmith.verify.scratch");
        if (root == null) {
            return;
        }
        for (String property : new String[] {"user.dir", "java.io.tmpdir", "user.home"}) {
            String dir = System.getProperty(property);
            if (dir == null) {
                continue;
            }
            java.io.File canary = new java.io.File(dir, CANARY);
            try {
                String r = new java.io.File(root).getCanonicalPath();
                String c = canary.getCanonicalPath();
                if (!c.startsWith(r + java.io.File.separator) || canary.isFile()) {
                    continue;
                }
                java.io.FileOutputStream out = new java.io.FileOutputStream(canary);
                try {
                    out.write("a file no test made\n".getBytes("UTF-8"));
                } finally {
                    out.close();
                }
            } catch (java.io.IOException e) {
                // A directory that cannot hold it watches nothing.
            }
        }
    }

    /** What the running test deleted below the scratch directory that it did not make; null when nothing. */
    static String deleted(Set<String> now) {
        List<String> gone = new ArrayList<String>();
        for (String e : scratchBefore) {
            if (!now.contains(e)) {
                gone.add(e);
            }
        }
        if (gone.isEmpty()) {
            return null;
        }
        Collections.sort(gone);
        return "the test deleted " + gone.size() + " file(s) it did not make, first " + gone.get(0);
    }

    /** What the running test left below the scratch directory (`now`), removed; null when nothing. */
    static String leftBehind(Set<String> now) {
        List<String> added = new ArrayList<String>();
        for (String e : now) {
            if (!scratchBefore.contains(e)) {
                added.add(e);
            }
        }
        if (added.isEmpty()) {
            return null;
        }
        Collections.sort(added);
        String root = System.getProperty("suitesmith.verify.scratch");
        // Deepest first, so that directories are empty when their turn comes.
        for (int i = added.size() - 1; i >= 0; i--) {
            new java.io.File(root, added.get(i)).delete();
        }
        return "the test left " + added.size() + " file(s) behind, first " + added.get(0);
    }

    static Throwable unwrap(Throwable t) {
        while (t instanceof InvocationTargetException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Loads a test class without initialising it; null (and a failure record) when it cannot be. */
    static Class<?> load(Records out, String name) {
        try {
            return Class.forName(name, false, RunTests.class.getClassLoader());
        } catch (Throwable t) {
            out.emit("plan", name, "initializationError");
            out.emit("start", name, "initializationError");
            out.emit("fail", name, "initializationError", t.getClass().getName(),
                    Records.firstLine(t.getMessage()), "-");
            return null;
        }
    }

    /**
     * Invokes a method found by name and argument types on the object's class or its supertypes
     * (overloads such as ExecFileLoader.load(File) and load(InputStream) are told apart by the
     * arguments' classes; no argument is null here).
     */
    static Object call(Object target, String name, Object... args) throws Exception {
        Method m = find(target.getClass(), name, args);
        if (m == null) {
            throw new NoSuchMethodException(target.getClass().getName() + "." + name);
        }
        try {
            m.setAccessible(true); // implementation classes of public interfaces may be package-private
        } catch (RuntimeException e) {
            // Not accessible reflectively (a named module): the public declaration still works.
        }
        return m.invoke(target, args);
    }

    private static Method find(Class<?> c, String name, Object[] args) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(name) && accepts(m.getParameterTypes(), args)) {
                    return m;
                }
            }
            for (Class<?> i : k.getInterfaces()) {
                Method m = find(i, name, args);
                if (m != null) {
                    return m;
                }
            }
        }
        return null;
    }

    private static boolean accepts(Class<?>[] params, Object[] args) {
        if (params.length != args.length) {
            return false;
        }
        for (int i = 0; i < params.length; i++) {
            if (!params[i].isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    /** The {@code fail} or {@code timeout} record of a failed test. */
    static void failure(Records out, String cls, String method, Throwable t, boolean timedOut) {
        String exception = t == null ? "" : t.getClass().getName();
        String message = t == null ? "" : Records.firstLine(t.getMessage());
        out.emit(timedOut ? "timeout" : "fail", cls, method, exception, message, Records.testLine(t, cls));
    }

    /** JUnit 4.12+: one JUnitCore run per test method. */
    static final class JUnit4 {
        private final Records out;
        private final Class<?> request;
        private final Class<?> description;
        private final Object core;

        JUnit4(Records out) throws Exception {
            this.out = out;
            this.request = Class.forName("org.junit.runner.Request");
            this.description = Class.forName("org.junit.runner.Description");
            this.core = Class.forName("org.junit.runner.JUnitCore").getConstructor().newInstance();
            out.emit("ready", "4");
        }

        int run(List<String> names) throws Exception {
            List<Object[]> leaves = new ArrayList<Object[]>(); // {Class, Description, className, method}
            int planned = 0;
            for (Map.Entry<String, Set<String>> selected : selection(names).entrySet()) {
                String name = selected.getKey();
                Class<?> c = load(out, name);
                if (c == null) {
                    planned++;
                    continue;
                }
                Object runner = call(request.getMethod("aClass", Class.class).invoke(null, c), "getRunner");
                List<Object> tests = new ArrayList<Object>();
                collect(call(runner, "getDescription"), tests);
                for (Object d : tests) {
                    String cls = (String) call(d, "getClassName");
                    String method = (String) call(d, "getMethodName");
                    if (method == null) {
                        method = (String) call(d, "getDisplayName");
                    }
                    if (selected.getValue() != null && !selected.getValue().contains(method)) {
                        continue;
                    }
                    leaves.add(new Object[] {c, d, cls == null ? name : cls, method});
                    out.emit("plan", cls == null ? name : cls, method);
                    planned++;
                }
            }
            Method aClass = request.getMethod("aClass", Class.class);
            Method filterWith = request.getMethod("filterWith", description);
            Method runRequest = core.getClass().getMethod("run", request);
            for (Object[] leaf : leaves) {
                String cls = (String) leaf[2];
                String method = (String) leaf[3];
                out.emit("start", cls, method);
                Object req = filterWith.invoke(aClass.invoke(null, leaf[0]), leaf[1]);
                beginGuarded();
                Object result = runRequest.invoke(core, req);
                for (Object f : (List<?>) call(result, "getFailures")) {
                    Guards.verifiedTestThrew((Throwable) call(f, "getException"));
                }
                if (!failedGuard(out, cls, method)) {
                    report(cls, method, leaf[1], result);
                }
            }
            return planned;
        }

        /** The leaf descriptions (tests) under a description, in the runner's order. */
        private void collect(Object d, List<Object> tests) throws Exception {
            if ((Boolean) call(d, "isTest")) {
                tests.add(d);
                return;
            }
            for (Object child : (Collection<?>) call(d, "getChildren")) {
                collect(child, tests);
            }
        }

        private void report(String cls, String method, Object leaf, Object result) throws Exception {
            List<?> failures = (List<?>) call(result, "getFailures");
            if (!failures.isEmpty()) {
                // A runner that cannot filter (ErrorReportingRunner) reports all of its failures:
                // prefer this test's own.
                Object chosen = failures.get(0);
                for (Object f : failures) {
                    if (leaf.equals(call(f, "getDescription"))) {
                        chosen = f;
                        break;
                    }
                }
                Throwable t = (Throwable) call(chosen, "getException");
                boolean timedOut =
                        t != null && t.getClass().getName().equals("org.junit.runners.model.TestTimedOutException");
                failure(out, cls, method, t, timedOut);
                return;
            }
            int ignored = (Integer) call(result, "getIgnoreCount");
            int assumptions = 0;
            try {
                assumptions = (Integer) call(result, "getAssumptionFailureCount"); // JUnit 4.13+
            } catch (NoSuchMethodException e) {
                assumptions = 0;
            }
            if (ignored > 0) {
                out.emit("skip", cls, method, "ignored");
            } else if (assumptions > 0) {
                out.emit("skip", cls, method, "assumption failed");
            } else if ((Integer) call(result, "getRunCount") == 0) {
                out.emit("skip", cls, method, "not run");
            } else {
                out.emit("pass", cls, method);
            }
        }
    }

    /** JUnit 5 (platform 1.x) through the launcher; the listener is a Proxy. */
    static final class JUnit5 implements InvocationHandler {
        private final Records out;
        private Object plan;
        private final Set<String> reported = new HashSet<String>();
        private int planned;

        JUnit5(Records out) throws Exception {
            this.out = out;
            Class.forName("org.junit.platform.launcher.core.LauncherFactory");
            out.emit("ready", "5");
        }

        int run(List<String> names) throws Exception {
            List<Object> selectors = new ArrayList<Object>();
            Class<?> discoverySelectors = Class.forName("org.junit.platform.engine.discovery.DiscoverySelectors");
            Method selectClass = discoverySelectors.getMethod("selectClass", Class.class);
            Method selectMethod = discoverySelectors.getMethod("selectMethod", Class.class, String.class);
            for (Map.Entry<String, Set<String>> selected : selection(names).entrySet()) {
                Class<?> c = load(out, selected.getKey());
                if (c == null) {
                    planned++;
                } else if (selected.getValue() == null) {
                    selectors.add(selectClass.invoke(null, c));
                } else {
                    for (String method : selected.getValue()) {
                        selectors.add(selectMethod.invoke(null, c, method));
                    }
                }
            }
            if (selectors.isEmpty()) {
                return planned;
            }
            Class<?> builderClass = Class.forName("org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder");
            Object builder = builderClass.getMethod("request").invoke(null);
            builder = builderClass.getMethod("selectors", List.class).invoke(builder, selectors);
            Object request = builderClass.getMethod("build").invoke(builder);
            Class<?> listenerType = Class.forName("org.junit.platform.launcher.TestExecutionListener");
            Object listeners = java.lang.reflect.Array.newInstance(listenerType, 1);
            java.lang.reflect.Array.set(listeners, 0,
                    Proxy.newProxyInstance(RunTests.class.getClassLoader(), new Class<?>[] {listenerType}, this));
            Object launcher =
                    Class.forName("org.junit.platform.launcher.core.LauncherFactory").getMethod("create").invoke(null);
            Class<?> launcherType = Class.forName("org.junit.platform.launcher.Launcher");
            Class<?> requestType = Class.forName("org.junit.platform.launcher.LauncherDiscoveryRequest");
            launcherType.getMethod("execute", requestType, listeners.getClass()).invoke(launcher, request, listeners);
            return planned;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (method.getDeclaringClass() == Object.class) {
                if (name.equals("equals")) {
                    return proxy == args[0];
                } else if (name.equals("hashCode")) {
                    return System.identityHashCode(proxy);
                } else {
                    return "suitesmith.tools.RunTests listener";
                }
            }
            // Every TestExecutionListener method returns void; the ones not handled here are no-ops
            // (their default bodies are empty), so returning null is what calling them would do.
            if (name.equals("testPlanExecutionStarted")) {
                planStarted(args[0]);
            } else if (name.equals("dynamicTestRegistered")) {
                if (isTest(args[0])) {
                    planTest(args[0]);
                }
            } else if (name.equals("executionStarted")) {
                if (isTest(args[0])) {
                    out.emit("start", classOf(args[0]), methodOf(args[0]));
                    beginGuarded();
                }
            } else if (name.equals("executionSkipped")) {
                for (Object t : testsOf(args[0])) {
                    if (reported.add(uniqueId(t))) {
                        out.emit("skip", classOf(t), methodOf(t), String.valueOf(args[1]));
                    }
                }
            } else if (name.equals("executionFinished")) {
                finished(args[0], args[1]);
            }
            return null;
        }

        private void planStarted(Object testPlan) throws Exception {
            plan = testPlan;
            for (Object root : (Collection<?>) call(plan, "getRoots")) {
                for (Object d : (Collection<?>) call(plan, "getDescendants", root)) {
                    if (isTest(d)) {
                        planTest(d);
                    }
                }
            }
        }

        private void planTest(Object d) throws Exception {
            planned++;
            out.emit("plan", classOf(d), methodOf(d));
        }

        private void finished(Object id, Object result) throws Exception {
            String status = String.valueOf(call(result, "getStatus"));
            Throwable t = (Throwable) ((Optional<?>) call(result, "getThrowable")).orElse(null);
            if (isTest(id)) {
                if (!reported.add(uniqueId(id))) {
                    return;
                }
                Guards.verifiedTestThrew(t);
                if (failedGuard(out, classOf(id), methodOf(id))) {
                    return;
                }
                if (status.equals("SUCCESSFUL")) {
                    out.emit("pass", classOf(id), methodOf(id));
                } else if (status.equals("ABORTED")) {
                    out.emit("skip", classOf(id), methodOf(id),
                            t == null ? "aborted" : Records.firstLine(t.getMessage()));
                } else {
                    failure(out, classOf(id), methodOf(id), t, isJupiterTimeout(t));
                }
            } else if (status.equals("FAILED")) {
                // A failing container (@BeforeAll, a constructor, the engine) fails each of its tests
                // that did not report, as JUnit 4 does for @BeforeClass.
                List<Object> tests = testsOf(id);
                if (tests.isEmpty() && !classOf(id).isEmpty() && reported.add(uniqueId(id))) {
                    planned++;
                    out.emit("plan", classOf(id), "initializationError");
                    failure(out, classOf(id), "initializationError", t, false);
                }
                for (Object test : tests) {
                    if (reported.add(uniqueId(test))) {
                        failure(out, classOf(test), methodOf(test), t, false);
                    }
                }
            }
        }

        /** Jupiter's @Timeout (same-thread mode) fails with this exception once the test returns. */
        private static boolean isJupiterTimeout(Throwable t) {
            return t != null && t.getClass().getName().equals("java.util.concurrent.TimeoutException")
                    && String.valueOf(t.getMessage()).contains("timed out after");
        }

        /** The identifier itself if it is a test, else its descendant tests. */
        private List<Object> testsOf(Object id) throws Exception {
            if (isTest(id)) {
                return Collections.singletonList(id);
            }
            List<Object> tests = new ArrayList<Object>();
            if (plan != null) {
                for (Object d : (Collection<?>) call(plan, "getDescendants", id)) {
                    if (isTest(d)) {
                        tests.add(d);
                    }
                }
            }
            return tests;
        }

        private static boolean isTest(Object id) throws Exception {
            return (Boolean) call(id, "isTest");
        }

        private static String uniqueId(Object id) throws Exception {
            return String.valueOf(call(id, "getUniqueId"));
        }

        private static Object source(Object id) throws Exception {
            return ((Optional<?>) call(id, "getSource")).orElse(null);
        }

        private static String classOf(Object id) throws Exception {
            Object s = source(id);
            if (s != null && find(s.getClass(), "getClassName", new Object[0]) != null) {
                return String.valueOf(call(s, "getClassName"));
            }
            return "";
        }

        private static String methodOf(Object id) throws Exception {
            Object s = source(id);
            if (s != null && s.getClass().getName().endsWith(".MethodSource")) {
                return String.valueOf(call(s, "getMethodName"));
            }
            return String.valueOf(call(id, "getDisplayName"));
        }
    }
}
