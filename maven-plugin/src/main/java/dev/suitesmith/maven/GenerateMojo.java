// `mvn suitesmith:generate`: runs `suitesmith generate --project ${basedir}` (the binary reads the
// project's classpath through Maven itself, docs/maven.md) with the plugin parameters as options.
package dev.suitesmith.maven;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Writes JUnit tests for the classes of this project (every module with compiled classes) into each
 * module's src/test/java. An aggregator: it runs once, at the top of the reactor, because the binary
 * walks the modules itself. Bound to no phase: run it when wanted.
 */
@Mojo(name = "generate", aggregator = true, requiresProject = true, threadSafe = true)
public class GenerateMojo extends AbstractMojo {

    /** The project to write tests for: the top of the reactor. */
    @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
    private File basedir;

    /** The `suitesmith` executable: a path, or a name looked up on PATH. */
    @Parameter(property = "suitesmith.binary", defaultValue = "suitesmith")
    private String binary;

    /** Search time per class, e.g. 60s or 2m. */
    @Parameter(property = "suitesmith.budget")
    private String budget;

    /** Also stop each search after this many test executions (reproducible on any machine). */
    @Parameter(property = "suitesmith.evaluations")
    private Long evaluations;

    /** The seed of the search. */
    @Parameter(property = "suitesmith.seed")
    private Long seed;

    /** One class to test, e.g. com.example.Stack (default: every class of target/classes). */
    @Parameter(property = "suitesmith.class")
    private String className;

    /** Only the classes of this package and its subpackages. */
    @Parameter(property = "suitesmith.prefix")
    private String prefix;

    /** JUnit 4 or 5 when the project has neither as a test dependency (otherwise the project's). */
    @Parameter(property = "suitesmith.junit")
    private String junit;

    /** JVM workers evaluating tests in parallel. */
    @Parameter(property = "suitesmith.workers")
    private Integer workers;

    /** Where the tests go instead of each module's src/test/java. */
    @Parameter(property = "suitesmith.out")
    private File out;

    /** Only slice I/N of the project's classes (docs/scale.md), e.g. 2/4 on the second of four CI jobs. */
    @Parameter(property = "suitesmith.shard")
    private String shard;

    /** Regenerates every class, also those whose tests are up to date (docs/maven.md, Incremental runs). */
    @Parameter(property = "suitesmith.force", defaultValue = "false")
    private boolean force;

    /**
     * Runs the project's own tests once under JaCoCo and searches only for what they leave
     * uncovered (docs/maven.md, Complement mode); false searches every goal.
     */
    @Parameter(property = "suitesmith.complement", defaultValue = "true")
    private boolean complement;

    /** More options, passed to `suitesmith generate` as they are (e.g. --criteria line,branch). */
    @Parameter(property = "suitesmith.args")
    private List<String> extraArgs;

    /** Does nothing when true. */
    @Parameter(property = "suitesmith.skip", defaultValue = "false")
    private boolean skip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("suitesmith: skipped");
            return;
        }
        List<String> command = command();
        getLog().info("suitesmith: " + String.join(" ", command));
        ProcessBuilder pb = new ProcessBuilder(command).directory(basedir).inheritIO();
        int status;
        try {
            status = pb.start().waitFor();
        } catch (IOException e) {
            throw new MojoExecutionException(
                "cannot run " + binary + " (install suitesmith on PATH or set suitesmith.binary): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while suitesmith ran", e);
        }
        // 2 is bad input (the project, the options): the user's to fix, so a failure, not an error.
        if (status == 1 && check()) {
            throw new MojoFailureException(
                "suitesmith check: behaviour changed (each test and its failing assertion are named above)");
        }
        if (status == 2) {
            throw new MojoFailureException("suitesmith rejected the input (its message is above)");
        }
        if (status != 0) {
            throw new MojoExecutionException("suitesmith failed with exit status " + status);
        }
    }

    /** The command line, options in the order of `suitesmith generate --help`. */
    List<String> command() {
        List<String> c = new ArrayList<>();
        c.add(binary);
        c.add("generate");
        c.add("--project");
        c.add(basedir.getAbsolutePath());
        if (check()) {
            c.add("--check");
        }
        add(c, "--class", className);
        add(c, "--prefix", prefix);
        add(c, "--budget", budget);
        add(c, "--evaluations", evaluations);
        add(c, "--out", out == null ? null : out.getAbsolutePath());
        add(c, "--seed", seed);
        add(c, "--workers", workers);
        add(c, "--junit", junit);
        add(c, "--shard", shard);
        if (force) {
            c.add("--force");
        }
        if (!complement) {
            c.add("--no-complement");
        }
        if (extraArgs != null) {
            c.addAll(extraArgs);
        }
        return c;
    }

    /** Whether this is the CI mode (`suitesmith:check`) rather than generation. */
    protected boolean check() {
        return false;
    }

    private static void add(List<String> c, String flag, Object value) {
        if (value != null) {
            c.add(flag);
            c.add(value.toString());
        }
    }
}
