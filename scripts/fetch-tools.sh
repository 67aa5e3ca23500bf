#!/usr/bin/env bash
# Fetches the benchmark's mutation tool from Maven Central into the tools cache, once: PIT
# (org.pitest:pitest-command-line 1.30.2 with pitest and pitest-entry) and its JUnit 5 plugin
# (org.pitest:pitest-junit5-plugin 1.2.3), with their dependencies. The JUnit 5 platform itself comes
# from Debian's junit5 package, the same jars the written tests are compiled and run against.
#
# The cache is the one place these jars live, outside the repository and never committed:
#   $SUITESMITH_TOOLS, default ${XDG_CACHE_HOME:-$HOME/.cache}/suitesmith/tools
# with Maven's own downloads in m2/ and the jars in pit-1.30.2/, which holds a file COMPLETE once every
# jar is there (crates/bench/src/pit.rs reads that directory). Running it again does nothing.
# docs/mutation.md says what the jars are for.
set -euo pipefail

PIT_VERSION=1.30.2
JUNIT5_PLUGIN_VERSION=1.2.3
cache="${SUITESMITH_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/suitesmith/tools}"
dest="$cache/pit-$PIT_VERSION"

# What project mode and the Maven plugin need offline (issue 22) goes into the local Maven repository.
bash "$(dirname "$0")/fetch-maven.sh"

# shellcheck source=lib/maven-copy.sh
source "$(dirname "$0")/lib/maven-copy.sh"
maven_copy fetch-tools.sh "$dest" "$cache/m2" "$cache/pit-$PIT_VERSION.log" \
  "org.pitest:pitest-command-line:$PIT_VERSION" "org.pitest:pitest-junit5-plugin:$JUNIT5_PLUGIN_VERSION"
for jar in pitest pitest-entry; do
  [ -f "$dest/$jar-$PIT_VERSION.jar" ] || { echo "fetch-tools.sh: $jar-$PIT_VERSION.jar missing in $dest" >&2; exit 2; }
done
