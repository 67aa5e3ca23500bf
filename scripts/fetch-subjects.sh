#!/usr/bin/env bash
# Fetches the jars of the competition subject lists (docs/competitions.md) from Maven Central, once, with
# their runtime dependencies, into bench/cache/ inside this checkout (gitignored, never committed):
#
#   bench/cache/sbft2024/{byte-buddy,error-prone,javapoet}/     bench/subjects/sbft2024.tsv
#   bench/cache/sbft2023/{commons-collections,jsoup,spatial4j,ta4j,threeten-extra}/
#                                                              bench/subjects/sbft2023.tsv
#   bench/cache/guava-{28.2,29.0,26.0}/                        bench/subjects/guava-<edition>-<version>.tsv
#
# Each directory is one `mvn dependency:copy-dependencies` of a throwaway pom (compile and runtime scope,
# transitive) and holds a file COMPLETE once every jar is there; a directory with COMPLETE is not fetched
# again, so running the script twice does nothing. Maven's own downloads go to bench/cache/m2. On failure
# (no mvn, an artifact Maven Central does not serve, no network) it prints one line, keeps Maven's output in
# bench/cache/<name>.log and exits 2; directories already complete stay.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/bench/cache"
# shellcheck source=lib/maven-copy.sh
source "$root/scripts/lib/maven-copy.sh"

# fetch NAME GROUP:ARTIFACT:VERSION...: the artifacts and their transitive runtime dependencies into
# bench/cache/NAME unless bench/cache/NAME/COMPLETE exists.
fetch() {
  local name=$1
  shift
  maven_copy fetch-subjects.sh "$cache/$name" "$cache/m2" "$cache/${name//\//-}.log" "$@"
}

# SBFT 2024 (12th edition): the three libraries of JUnitContest/JUGE, branch sbft2024,
# infrastructure/benchmarks_12th/README.md. Byte Buddy's extra jars are the rest of the competition's own
# classpath (benchmarks_12th/conf/benchmarks.list), optional or provided in byte-buddy-dep's pom.
fetch sbft2024/byte-buddy net.bytebuddy:byte-buddy-dep:1.14.11 \
  net.java.dev.jna:jna:5.12.1 net.java.dev.jna:jna-platform:5.12.1 \
  com.google.code.findbugs:findbugs-annotations:3.0.1 com.google.code.findbugs:jsr305:3.0.2
fetch sbft2024/error-prone com.google.errorprone:error_prone_core:2.10.0
fetch sbft2024/javapoet com.squareup:javapoet:1.13.0

# SBFT 2023 (11th edition): the competition built unreleased snapshots of its five projects; these are the
# last releases before it (docs/competitions.md). Spatial4j's JTS, Jackson and Noggit are optional in its
# pom and were on the competition's classpath.
fetch sbft2023/commons-collections org.apache.commons:commons-collections4:4.4
fetch sbft2023/jsoup org.jsoup:jsoup:1.15.3
fetch sbft2023/spatial4j org.locationtech.spatial4j:spatial4j:0.8 \
  org.locationtech.jts:jts-core:1.18.1 com.fasterxml.jackson.core:jackson-databind:2.13.4.2 org.noggit:noggit:0.8
fetch sbft2023/ta4j org.ta4j:ta4j-core:0.15
fetch sbft2023/threeten-extra org.threeten:threeten-extra:1.7.2

# The Guava versions of the SBST/SBFT 2020, 2021 and 2022 competitions (guava.tsv's classes); failureaccess
# comes as guava's dependency from 27.0 on (26.0 has none).
fetch guava-28.2 com.google.guava:guava:28.2-jre
fetch guava-29.0 com.google.guava:guava:29.0-jre
fetch guava-26.0 com.google.guava:guava:26.0-jre
