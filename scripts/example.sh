#!/usr/bin/env bash
# The README's first command: writes JUnit 4 tests for the bundled example project (examples/src,
# compiled into examples/classes) into ./suitesmith-tests, verified by compiling and running them.
# Installs what `generate` needs from Debian when it is missing (JUnit 4 and Hamcrest; needs root).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for p in junit4 libhamcrest-java; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "example.sh: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
[ -d examples/classes/example ] || bash examples/build.sh

cargo run --release --locked -p cli -- generate --classpath examples/classes --prefix example \
  --budget 20s --seed 1 --out suitesmith-tests "$@"
echo "example.sh: the tests are in suitesmith-tests/example/, the figures in suitesmith-tests/report.json"
