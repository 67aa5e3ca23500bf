#!/usr/bin/env bash
# maven_copy: the one way our scripts fetch jars from Maven Central (sourced by fetch-tools.sh and
# fetch-subjects.sh). One `mvn dependency:copy-dependencies` of a throwaway pom that lists the artifacts,
# with their transitive compile and runtime dependencies, into a cache directory that a file COMPLETE marks
# as finished; a finished directory is left alone, so fetching twice does nothing.

# The directory being filled, removed if the script ends before it is complete.
maven_copy_work=""
trap 'if [ -n "$maven_copy_work" ]; then rm -rf "$maven_copy_work"; fi' EXIT

# maven_copy PROG DEST M2 LOG GROUP:ARTIFACT:VERSION...
#   Copies the artifacts and their dependencies into DEST unless DEST/COMPLETE exists. Maven's downloads go
#   to M2 and its output to LOG, which is removed on success. On failure (no mvn, an artifact Maven Central
#   does not serve, no network) prints one line naming PROG and exits 2; DEST is then as it was.
maven_copy() {
  local prog=$1 dest=$2 m2=$3 log=$4
  shift 4
  [ -f "$dest/COMPLETE" ] && return 0
  command -v mvn >/dev/null || { echo "$prog: mvn not found: apt-get install maven" >&2; exit 2; }
  mkdir -p "$(dirname "$dest")" "$(dirname "$log")"
  maven_copy_work=$(mktemp -d "$(dirname "$dest")/.fetch.XXXXXX")
  {
    printf '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n'
    printf '  <groupId>suitesmith</groupId>\n  <artifactId>fetch</artifactId>\n  <version>0</version>\n'
    printf '  <packaging>pom</packaging>\n  <dependencies>\n'
    local coord g a v
    for coord in "$@"; do
      IFS=: read -r g a v <<<"$coord"
      printf '    <dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version></dependency>\n' \
        "$g" "$a" "$v"
    done
    printf '  </dependencies>\n</project>\n'
  } >"$maven_copy_work/pom.xml"
  echo "$prog: fetching $* into $dest"
  if ! mvn -B -Dstyle.color=never -f "$maven_copy_work/pom.xml" -Dmaven.repo.local="$m2" \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$maven_copy_work/jars" >"$log" 2>&1; then
    echo "$prog: fetching into $dest failed (mvn exit status non-zero; Maven's output is in $log)" >&2
    exit 2
  fi
  for coord in "$@"; do
    IFS=: read -r g a v <<<"$coord"
    [ -f "$maven_copy_work/jars/$a-$v.jar" ] || { echo "$prog: $a-$v.jar missing after mvn (see $log)" >&2; exit 2; }
  done
  touch "$maven_copy_work/jars/COMPLETE"
  rm -rf "$dest" "$log"
  mv "$maven_copy_work/jars" "$dest"
  rm -rf "$maven_copy_work"
  maven_copy_work=""
}
