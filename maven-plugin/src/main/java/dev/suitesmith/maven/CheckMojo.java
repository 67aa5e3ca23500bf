// `mvn suitesmith:check`: runs `suitesmith generate --project ${basedir} --check`, the CI mode
// (docs/maven.md): the tests suitesmith wrote earlier run against the current build, and the build
// fails, naming each test and its failing assertion, when behaviour changed.
package dev.suitesmith.maven;

import org.apache.maven.plugins.annotations.Mojo;

/**
 * Runs the generated tests of this project against its current build and fails when any test's
 * behaviour changed. An aggregator bound to no phase, like {@code generate}, whose parameters it
 * shares (those that select classes, the output directory and {@code suitesmith.args} apply).
 */
@Mojo(name = "check", aggregator = true, requiresProject = true, threadSafe = true)
public class CheckMojo extends GenerateMojo {
    @Override
    protected boolean check() {
        return true;
    }
}
