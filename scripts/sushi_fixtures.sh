#!/usr/bin/env bash
# The sushi fixtures with and without SUSHI at a fixed evaluation budget, with the invariants and
# exploration bounds of `crates/engine/tests/sushi.rs`'s fixture table, for other seeds than the
# test's (issue 16's fixture criterion; docs/sushi.md "The fixture criterion").
#
# Usage: scripts/sushi_fixtures.sh SEED [EVALUATIONS] > table.txt
# Prints one line per fixture and configuration: the uncovered branch goals (probe, side, line).
# Needs a release build (`cargo build --release -p cli`) and the compiled fixtures
# (`fixtures/classes/sushi`, made by the tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seed=${1:?seed}
n=${2:-10000}
bin=$root/target/release/suitesmith
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rules() { local r; for r in "$@"; do printf -- '--sushi-rule\n%s\n' "$r"; done; }
tree=("expand_only(**.left)" "expand_only(**.right)" "alias_only(**.left.parent, **)"
  "alias_only(**.right.parent, **)" "null_only(this.root.parent)")
dlist=("not_null(**.header)" "not_null(**.next)" "not_null(**.previous)" "alias_only(**.next.previous, **)"
  "alias_only(**.previous.next, **)" "alias_targets(**.next, **.header | **.previous)"
  "alias_targets(**.previous, **.header | **.next)")
binary=("expand_only(**.left)" "expand_only(**.right)")
ring=("not_null(this.header)" "not_null(**.after)" "not_null(**.before)" "alias_only(**.after.before, **)"
  "alias_only(**.before.after, **)")
args_for() {
  case $1 in
    DList | Sample) rules "${dlist[@]}" ;;
    Expr) rules "${binary[@]}" ;;
    ExpressList) rules "not_null(this.header)" "expand_only(**.next)" ;;
    # The test's class budget is five times the paths per method, at most 800 (the default).
    IntTree) rules "${binary[@]}"; printf -- '--sushi-paths\n100\n--sushi-class-paths\n500\n--sushi-lazy\n32\n' ;;
    LinkedHeap) rules "${tree[@]}"; printf -- '--sushi-paths\n60\n--sushi-class-paths\n300\n' ;;
    ParentTree) rules "${tree[@]}" ;;
    LruMap) rules "${ring[@]}" ;;
    PlateStack) rules "expand_only(**.below)" ;;
  esac
}
for c in BlockPool CachingList DList Digraph Expr ExpressList IntTree LinkedHeap LruMap ParentTree PlateStack \
  RingBuffer Sample UnionFind; do
  for mode in on off; do
    extra=(--sushi off)
    if [ "$mode" = on ]; then
      mapfile -t extra < <(printf -- '--sushi\non\n'; args_for "$c")
    fi
    "$bin" generate --classpath "$root/fixtures/classes/sushi" --class "sushi.$c" --evaluations "$n" \
      --seed "$seed" --criteria branch --out "$out/$c-$mode" "${extra[@]}" > "$out/$c-$mode.log" 2>&1 || true
    python3 - "$out/$c-$mode/report.json" "$c" "$mode" <<'PY'
import json, sys
path, c, mode = sys.argv[1:]
try:
    k = json.load(open(path))["classes"][0]
except Exception as e:
    print(c, mode, "no report:", e)
    sys.exit(0)
unc = [u.split(" (")[0].removeprefix("branch ") + ":" + u.rsplit(":", 1)[1].rstrip(")")
       for u in k["uncovered"] if u.startswith("branch")]
print(c, mode, len(unc), " ".join(unc))
PY
  done
done
