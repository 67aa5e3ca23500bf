/**
 * JaCoCo's missing command line (Debian's libjacoco-java has none, reference/feasibility.md §6): reads
 * exec files written by the JaCoCo agent and analyses the original class files of a directory against
 * them with org.jacoco.core, by reflection (this file is compiled with the JDK alone). Usage:
 * {@code java -cp <runtime jar>:org.jacoco.core.jar:asm*.jar suitesmith.tools.JacocoReport CLASSES_DIR EXEC...}
 *
 * <p>Records (see {@link Records}): {@code ready}; per class of CLASSES_DIR
 * {@code class NAME INSN_COVERED INSN_TOTAL BRANCH_COVERED BRANCH_TOTAL LINE_COVERED LINE_TOTAL
 * METHOD_COVERED METHOD_TOTAL} with NAME a binary name ({@code a.b.C$D}), each followed by
 * {@code line NAME NR INSN_COVERED BRANCH_COVERED BRANCH_TOTAL} per source line with code and
 * {@code method NAME METHOD DESCRIPTOR COVERED} per method (COVERED 1 when any of its instructions
 * ran), which say what a project's own tests covered (generate's complement mode);
 * {@code nomatch NAME} for a
 * class whose exec data came from different class bytes (JaCoCo then counts it as not covered);
 * {@code done COUNT}; {@code fatal MESSAGE} on any error. JaCoCo counts each conditional jump as two
 * branches and a line as covered when at least one of its instructions ran.
 */
package suitesmith.tools;

import java.io.File;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

public final class JacocoReport {
    private JacocoReport() {}

    public static void main(String[] args) {
        Records out = Records.takeStdout();
        try {
            if (args.length < 2) {
                out.emit("fatal", "usage: JacocoReport CLASSES_DIR EXEC...");
                System.exit(2);
            }
            out.emit("ready", "jacoco");
            int n = report(out, new File(args[0]), args);
            out.emit("done", n);
            System.exit(0);
        } catch (Throwable t) {
            Throwable cause = RunTests.unwrap(t);
            out.emit("fatal", cause.getClass().getName() + ": " + Records.firstLine(cause.getMessage()));
            System.exit(2);
        }
    }

    private static int report(Records out, File classes, String[] args) throws Exception {
        Object loader = Class.forName("org.jacoco.core.tools.ExecFileLoader").getConstructor().newInstance();
        for (int i = 1; i < args.length; i++) {
            RunTests.call(loader, "load", new File(args[i]));
        }
        Object store = RunTests.call(loader, "getExecutionDataStore");
        Object builder = Class.forName("org.jacoco.core.analysis.CoverageBuilder").getConstructor().newInstance();
        Class<?> storeType = Class.forName("org.jacoco.core.data.ExecutionDataStore");
        Class<?> visitorType = Class.forName("org.jacoco.core.analysis.ICoverageVisitor");
        Constructor<?> analyzerNew =
                Class.forName("org.jacoco.core.analysis.Analyzer").getConstructor(storeType, visitorType);
        Object analyzer = analyzerNew.newInstance(store, builder);
        RunTests.call(analyzer, "analyzeAll", classes);

        List<Object> all = new ArrayList<Object>((Collection<?>) RunTests.call(builder, "getClasses"));
        final List<String> names = new ArrayList<String>();
        for (Object c : all) {
            names.add(binaryName(c));
        }
        List<Integer> order = new ArrayList<Integer>();
        for (int i = 0; i < all.size(); i++) {
            order.add(i);
        }
        Collections.sort(order, new Comparator<Integer>() {
            @Override
            public int compare(Integer a, Integer b) {
                return names.get(a).compareTo(names.get(b));
            }
        });
        for (int i : order) {
            Object c = all.get(i);
            out.emit("class", names.get(i),
                    covered(c, "getInstructionCounter"), total(c, "getInstructionCounter"),
                    covered(c, "getBranchCounter"), total(c, "getBranchCounter"),
                    covered(c, "getLineCounter"), total(c, "getLineCounter"),
                    covered(c, "getMethodCounter"), total(c, "getMethodCounter"));
            details(out, names.get(i), c);
        }
        for (Object c : (Collection<?>) RunTests.call(builder, "getNoMatchClasses")) {
            out.emit("nomatch", binaryName(c));
        }
        return all.size();
    }

    /** The line and method records of one class (see the class comment). */
    private static void details(Records out, String name, Object c) throws Exception {
        int first = (Integer) RunTests.call(c, "getFirstLine");
        int last = (Integer) RunTests.call(c, "getLastLine");
        // getLine takes an int, which RunTests.call's matching of boxed arguments does not find.
        java.lang.reflect.Method getLine =
                Class.forName("org.jacoco.core.analysis.ISourceNode").getMethod("getLine", int.class);
        for (int nr = first; first > 0 && nr <= last; nr++) {
            Object line = getLine.invoke(c, nr);
            int insns = total(line, "getInstructionCounter");
            if (insns > 0) {
                out.emit("line", name, nr, covered(line, "getInstructionCounter"),
                        covered(line, "getBranchCounter"), total(line, "getBranchCounter"));
            }
        }
        for (Object m : (Collection<?>) RunTests.call(c, "getMethods")) {
            out.emit("method", name, RunTests.call(m, "getName"), RunTests.call(m, "getDesc"),
                    covered(m, "getMethodCounter") > 0 ? 1 : 0);
        }
    }

    private static String binaryName(Object coverage) throws Exception {
        return String.valueOf(RunTests.call(coverage, "getName")).replace('/', '.');
    }

    private static int covered(Object coverage, String counter) throws Exception {
        return (Integer) RunTests.call(RunTests.call(coverage, counter), "getCoveredCount");
    }

    private static int total(Object coverage, String counter) throws Exception {
        return (Integer) RunTests.call(RunTests.call(coverage, counter), "getTotalCount");
    }
}
