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

if [ -f "$dest/COMPLETE" ]; then
  exit 0
fi
command -v mvn >/dev/null || { echo "fetch-tools.sh: mvn not found: apt-get install maven" >&2; exit 2; }

mkdir -p "$cache"
work=$(mktemp -d "$cache/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A pom that only lists what to copy; `dependency:copy-dependencies` resolves the transitive jars.
cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>suitesmith</groupId>
  <artifactId>pit-tools</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.pitest</groupId>
      <artifactId>pitest-command-line</artifactId>
      <version>$PIT_VERSION</version>
    </dependency>
    <dependency>
      <groupId>org.pitest</groupId>
      <artifactId>pitest-junit5-plugin</artifactId>
      <version>$JUNIT5_PLUGIN_VERSION</version>
    </dependency>
  </dependencies>
</project>
POM
echo "fetch-tools.sh: fetching PIT $PIT_VERSION and its JUnit 5 plugin $JUNIT5_PLUGIN_VERSION into $dest"
mvn -B -q -Dstyle.color=never -f "$work/pom.xml" -Dmaven.repo.local="$cache/m2" \
  dependency:copy-dependencies -DoutputDirectory="$work/jars"
for jar in pitest pitest-entry pitest-command-line; do
  [ -f "$work/jars/$jar-$PIT_VERSION.jar" ] || { echo "fetch-tools.sh: $jar-$PIT_VERSION.jar missing" >&2; exit 1; }
done
[ -f "$work/jars/pitest-junit5-plugin-$JUNIT5_PLUGIN_VERSION.jar" ] \
  || { echo "fetch-tools.sh: pitest-junit5-plugin-$JUNIT5_PLUGIN_VERSION.jar missing" >&2; exit 1; }
touch "$work/jars/COMPLETE"
rm -rf "$dest"
mv "$work/jars" "$dest"
