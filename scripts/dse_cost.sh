#!/usr/bin/env bash
# DSE's cost figures (report.json `dse.cost`) on a few dse fixtures: `generate --dse on --budget 30s`
# per class, then one summary line per class (docs/dse.md, "Cost").
#   scripts/dse_cost.sh [BINARY] [OUT] [classes...]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/debug/suitesmith}"
out="${2:-docs/results/issue15-dse-cost/runs}"
shift $(( $# > 2 ? 2 : $# ))
classes=("$@")
[ ${#classes[@]} -gt 0 ] || classes=(dse.Magic dse.CasNumber dse.DateParse dse.Luhn dse.Email)
mkdir -p "$out"
for class in "${classes[@]}"; do
  [ -f "$out/$class/report.json" ] && continue
  "$bin" generate --class "$class" --classpath fixtures/classes/dse --dse on --budget 30s --seed 1 \
    --verify-runs 1 --out "$out/$class" > "$out/$class.log" 2>&1 || echo "dse_cost: $class failed" >&2
done
reports=()
for class in "${classes[@]}"; do reports+=("$out/$class/report.json"); done
python3 scripts/dse_cost_table.py "${reports[@]}"
