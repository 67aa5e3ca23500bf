#!/usr/bin/env bash
# Runs the runtime's Java-level tests: builds the jar, compiles the driver and the hand-instrumented
# subjects against it, and runs the driver (which spawns real workers). Usage: java/runtime/test/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d /tmp/suitesmith-rt-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$here/../build.sh" "$work" >/dev/null
mkdir -p "$work/subjects" "$work/driver"
javac --release 8 -encoding UTF-8 -cp "$work/suitesmith-runtime.jar" -d "$work/subjects" "$here"/subjects/*.java
javac --release 8 -encoding UTF-8 -d "$work/driver" "$here"/suitesmith/rttest/*.java
java -cp "$work/driver" suitesmith.rttest.RuntimeTest "$work/suitesmith-runtime.jar" "$work/subjects" \
  "$root/crates/rt-abi/src/lib.rs" "$root/fixtures/classes/hostile"
