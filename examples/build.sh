#!/usr/bin/env bash
# Compiles the bundled example project into examples/classes (committed; rerun after editing a source).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$here/classes"
find "$here/src" -name '*.java' -print0 | sort -z | xargs -0 javac --release 17 -g -encoding UTF-8 -d "$here/classes"
