#!/usr/bin/env bash
# Issue 15's interpreter fidelity on the public set: for each class of bench/subjects/public.tsv,
# `generate --evaluations 2000 --seed 1 --replay-check` (every written test replayed in the concolic
# interpreter and compared with the JVM's run), then the table of docs/results/issue15-fidelity/
# (scripts/fidelity_table.py). A class whose report.json exists under OUT is not run again.
#   scripts/fidelity.sh [BINARY] [OUT] [extra generate flags...]
# BINARY defaults to target/debug/suitesmith (build it with `cargo build -p cli`).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/debug/suitesmith}"
out="${2:-docs/results/issue15-fidelity/runs}"
shift $(( $# > 2 ? 2 : $# ))
mkdir -p "$out"
grep -v '^#' bench/subjects/public.tsv | tail -n +2 | cut -f1,2 | sort -u | while IFS=$'\t' read -r class cp; do
  dir="$out/$class"
  [ -f "$dir/report.json" ] && continue
  echo "fidelity: $class" >&2
  "$bin" generate --class "$class" --classpath "$cp" --evaluations 2000 --seed 1 --replay-check \
    --out "$dir" "$@" > "$dir.log" 2>&1 || echo "fidelity: $class failed (see $dir.log)" >&2
done
python3 scripts/fidelity_table.py "$out" > docs/results/issue15-fidelity/table.md
cat docs/results/issue15-fidelity/table.md
