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
python3 - "$out" "${classes[@]}" <<'PY'
import json, sys
out, classes = sys.argv[1], sys.argv[2:]
print("| class | search s | DSE s | share of search | applications | replay s | replay insns | replay insns/s | JVM check s | queries | solver s | median ms | p95 ms | max ms | per back end: queries, median / p95 / max ms |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for c in classes:
    r = json.load(open(f"{out}/{c}/report.json"))["classes"][0]
    d = r["dse"]; k = d["cost"]; s = k["solver"]
    per = "; ".join(f"{b}: {q['queries']}, {q['median_ms']:.1f} / {q['p95_ms']:.1f} / {q['max_ms']:.1f}" for b, q in sorted(k["solver_by_backend"].items()))
    print(f"| {c} | {r['search_seconds']:.1f} | {k['seconds']:.1f} | {100*k['share_of_search']:.0f} % | {k['applications']} | {k['replay_seconds']:.2f} | {k['replay_instructions']} | {k['replay_instructions_per_second']:.0f} | {k['check_seconds']:.2f} | {s['queries']} | {s['seconds']:.1f} | {s['median_ms']:.1f} | {s['p95_ms']:.1f} | {s['max_ms']:.1f} | {per} |")
PY
