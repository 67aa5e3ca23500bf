#!/usr/bin/env bash
# Builds the worker runtime jar: java/runtime/build.sh OUTDIR  ->  OUTDIR/suitesmith-runtime.jar
# The exact commands (the `worker` crate's build.rs runs the same javac, then writes a deterministic
# jar itself instead of calling `jar`):
#   javac --release 8 -Xlint:-options -g -encoding UTF-8 -d OUTDIR/classes $(find java/runtime/src -name '*.java')
#   jar cf OUTDIR/suitesmith-runtime.jar -C OUTDIR/classes .
# --release 8 so the jar runs on every JDK a user may have (issue 3); JDK only, no dependencies.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/classes"
mkdir -p "$out/classes"
find "$here/src" -name '*.java' -print0 | sort -z | xargs -0 javac --release 8 -Xlint:-options -g -encoding UTF-8 -d "$out/classes"
jar cf "$out/suitesmith-runtime.jar" -C "$out/classes" .
echo "runtime: built $out/suitesmith-runtime.jar"
