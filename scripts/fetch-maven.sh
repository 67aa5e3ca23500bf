#!/usr/bin/env bash
# Fills the user's local Maven repository (~/.m2, or -Dmaven.repo.local from MAVEN_OPTS) with what
# `generate --project` and the Maven plugin need offline, so that crates/cli/tests/project.rs can run
# `mvn -o`: the plugin's build plugins and API (by building maven-plugin/ and installing it as
# dev.suitesmith:suitesmith-maven-plugin:0.1.0), and examples/maven's dependencies, plugins and
# Surefire's JUnit 4 provider (by building and testing a copy of it). Jars live only in the local
# repository, never in this checkout: both builds run on copies in a temporary directory.
# Called by scripts/fetch-tools.sh; running it again only re-installs the plugin.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
command -v mvn >/dev/null || { echo "fetch-maven.sh: mvn not found: apt-get install maven" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/maven-plugin" "$work/plugin"
cp -r "$root/examples/maven" "$work/example"
rm -rf "$work/plugin/target" "$work/example"/*/target "$work/example/target"
echo "fetch-maven.sh: installing the suitesmith Maven plugin and fetching examples/maven's dependencies"
mvn -B -q -Dstyle.color=never -f "$work/plugin/pom.xml" install
mvn -B -q -Dstyle.color=never -f "$work/example/pom.xml" test \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile=target/cp.txt
