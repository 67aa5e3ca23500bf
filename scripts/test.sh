#!/usr/bin/env bash
# The test command of the README: installs what the tests need from Debian when it is missing, then
# runs the whole test suite. CI calls it through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: the real-world corpus (issue 2), JUnit and JaCoCo for written tests, Z3 for the solver
# crate (issue 15; the `z3` crate links the system libz3 found through pkg-config), Maven to fetch PIT,
# Chromium for the HTML report's browser test (crates/cli/tests/report_html.rs).
packages=(
  libcommons-lang3-java libcommons-io-java libcommons-codec-java libguava-java libjsoup-java
  libcommons-collections4-java libokio-java libcommons-math3-java libgoogle-gson-java libcommons-csv-java
  libcommons-cli-java libzxing-core-java libjackson2-core-java libjoda-time-java
  libcommons-text-java libjgrapht-java libxz-java
  junit4 junit5 libhamcrest-java libjacoco-java
  libz3-dev pkg-config maven chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
command -v javac >/dev/null || { echo "test.sh: javac not found: install a JDK (openjdk-17-jdk-headless)" >&2; exit 2; }
# PIT, for the benchmark's independent mutation score (docs/mutation.md), from Maven Central into the
# tools cache (never into the repository); once per machine.
bash scripts/fetch-tools.sh

# Warnings are errors here (STYLE.md rule 15); locally they stay warnings.
export RUSTFLAGS="${RUSTFLAGS:-} -D warnings"
# A one-shot build gains nothing from incremental state, and it is gigabytes on disk.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
echo "test.sh: free disk before the build: $(df -h --output=avail . | tail -1 | tr -d ' ')"
# Formatting and clippy.toml's rules (determinism, process ownership: STYLE.md rules 2, 4, 15). The
# components come with the machine's toolchain; rustup cannot download them here, so a toolchain
# without them skips these two checks with a note instead of failing.
if cargo fmt --version >/dev/null 2>&1; then
  cargo fmt --all -- --check
else
  echo "test.sh: rustfmt is not installed: format check skipped"
fi
cargo build --workspace --all-targets --locked
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --workspace --all-targets --locked -- -D warnings
else
  echo "test.sh: clippy is not installed: lint check skipped"
fi
# The Java side of the worker has its own JDK-only checks (real workers over pipes).
bash java/runtime/test/run.sh
cargo test --workspace --locked "$@"
echo "test.sh: the build tree takes $(du -sh target | cut -f1)"
