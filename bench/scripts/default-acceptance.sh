#!/usr/bin/env bash
# Issue 53's acceptance runs (docs/benchmarks.md, "One default"), and issue 55's assertions run, in one
# resumable queue: each list is one `bench` invocation into OUT_ROOT/<name>/, and a list whose
# rows.jsonl exists is continued with `--resume`, so the queue can stop at the end of a machine's
# session and go on in the next one (copy rows.jsonl back first if OUT_ROOT did not survive).
#
# The binaries: release builds of NEW_COMMIT (default: this checkout's HEAD; the product's default)
# and of 9d95685 (the binary the issue compares with), built once into OUT_ROOT/bin/. Everything
# that runs third-party code runs as uid 65534 with a scratch HOME and TMPDIR it owns
# (docs/sandbox.md); the script itself runs as root.
#
# Usage: bench/scripts/default-acceptance.sh OUT_ROOT [STEP...]   (steps: the names below; default all)
set -euo pipefail
cd "$(dirname "$0")/../.."
root="${1:?usage: default-acceptance.sh OUT_ROOT [STEP...]}"
shift
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(public-30s guava-2021-29.0-30s public-30s-pit public-30s-dse-stops public-60s-assertions guava-2021-29.0-120s sbft2023-30s sbft2024-30s)
old_commit=9d95685
bin="$root/bin"
# The scratch HOME gets its .cache before the first run: the engine keeps its runtime jars in
# ~/.cache/suitesmith (docs/sandbox.md), and a top-level entry that appears in HOME during a run
# would count as that run's escape (crates/bench/src/watch.rs).
mkdir -p "$bin" "$root/home/tmp" "$root/home/.cache" "$root/out"
# build NAME COMMIT PACKAGE...: a release build of COMMIT in a worktree of its own under OUT_ROOT.
build() {
  local name=$1 commit=$2
  shift 2
  local wt="$root/src-$name"
  [ -d "$wt" ] || git worktree add --detach "$wt" "$commit"
  (cd "$wt" && CARGO_TARGET_DIR="$root/target-$name" cargo build --release "${@/#/-p}")
}
# NEW_COMMIT pins the default's binary, so that a queue resumed in a later session on a newer
# checkout goes on measuring the same build (docs/benchmarks.md names it).
new_commit="${NEW_COMMIT:-$(git rev-parse --short HEAD)}"
if [ ! -x "$bin/suitesmith-new" ]; then
  build new "$new_commit" cli bench
  cp "$root/target-new/release/suitesmith" "$bin/suitesmith-new"
  cp "$root/target-new/release/bench" "$bin/bench"
  echo "$new_commit" > "$bin/COMMIT"
fi
if [ ! -x "$bin/suitesmith-old" ]; then
  build old "$old_commit" cli
  cp "$root/target-old/release/suitesmith" "$bin/suitesmith-old"
fi
tools="${SUITESMITH_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/suitesmith/tools}"
if [ ! -d "$root/tools" ]; then
  bash scripts/fetch-tools.sh
  cp -r "$tools" "$root/tools"
fi
bash scripts/fetch-subjects.sh
chmod -R a+rX "$root/bin" "$root/tools" bench/cache
chown -R 65534:65534 "$root/home" "$root/out"
subjects="$PWD/bench/subjects"
old="old:binary=$bin/suitesmith-old"

# run NAME ARGS...: one bench invocation as uid 65534 into OUT_ROOT/out/NAME, resumed when begun.
run() {
  local name=$1
  shift
  local out="$root/out/$name" resume=() rc=0
  [ -f "$out/rows.jsonl" ] && resume=(--resume)
  mkdir -p "$out"
  chown -R 65534:65534 "$out"
  echo "$(date -u +%FT%TZ) start $name ${resume[*]}" >> "$root/queue.log"
  setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs -- \
    env -u XDG_CACHE_HOME HOME="$root/home" TMPDIR="$root/home/tmp" \
    "$bin/bench" --suitesmith "$bin/suitesmith-new" --out "$out" "${resume[@]}" "$@" \
    > "$out.stdout" 2>> "$out.stderr" || rc=$?
  echo "$(date -u +%FT%TZ) end $name rc=$rc" >> "$root/queue.log"
}

three=(--config default --config core:techniques=none --config "$old" --baseline default)
for step in "${steps[@]}"; do
  case "$step" in
    public-30s) run "$step" --subjects "$subjects/public.tsv" --budget 30s --seed 1 --repetitions 5 --runs 3 "${three[@]}" ;;
    guava-2021-29.0-30s) run "$step" --subjects "$subjects/guava-2021-29.0.tsv" --budget 30s --seed 1 --repetitions 5 --runs 3 "${three[@]}" ;;
    public-30s-pit) run "$step" --subjects "$subjects/public.tsv" --budget 30s --seed 1 --runs 3 --config default --config core:techniques=none --baseline default --pit --tools "$root/tools" ;;
    # Issue 54's replay stops before and after the parser models: the same binary without them
    # (the old binary reports no stop reasons).
    public-30s-dse-stops) run "$step" --subjects "$subjects/public.tsv" --budget 30s --seed 1 --runs 3 --config default --config models-off:dse-parser-models=off --baseline models-off ;;
    public-60s-assertions) run "$step" --subjects "$subjects/public.tsv" --budget 60s --seed 1 --repetitions 3 --runs 3 --config mutation --config all:assertions=all --baseline all --pit --tools "$root/tools" ;;
    guava-2021-29.0-120s) run "$step" --subjects "$subjects/guava-2021-29.0.tsv" --budget 120s --seed 1 --runs 3 --config default ;;
    sbft2023-30s) run "$step" --subjects "$subjects/sbft2023.tsv" --budget 30s --seed 1 --runs 3 --config default ;;
    sbft2024-30s) run "$step" --subjects "$subjects/sbft2024.tsv" --budget 30s --seed 1 --runs 3 --config default ;;
    *) echo "default-acceptance.sh: unknown step $step" >&2; exit 2 ;;
  esac
done
