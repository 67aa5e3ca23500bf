#!/usr/bin/env bash
# Issue 51's acceptance run (docs/sandbox.md): `suitesmith generate` as root on classes that delete,
# write and truncate files (Guava's MoreFiles, Files, FileBackedOutputStream, Commons IO's
# FileUtils), inside `contain` (crates/sandbox/src/bin/contain.rs): a user and mount namespace in
# which root stays root and every mount is read-only but one work tree holding a canary tree. Then
# the written tests are compiled and run there as root, with no sandbox of ours at all, as a user
# would run them. It checks that the canary tree is byte for byte as made after each phase, that
# the written tests pass, and (strace) that they attempt no write outside the work tree. A hole in
# the product's sandbox then shows as a changed canary or a failed test, never as damage to this
# machine.
#
# Usage: [PROFILE=debug] bench/scripts/contained.sh [BUDGET_SECONDS] [OUT_DIR]   (from the checkout, as root)
set -euo pipefail
cd "$(dirname "$0")/../.."
budget="${1:-60}"
out="${2:-/tmp/suitesmith-contained}"
# PROFILE=debug reuses the test build (the figures here are about containment, not coverage).
profile="${PROFILE:-release}"
if [ "$profile" = release ]; then cargo build --release -p cli -p sandbox --bins >/dev/null; else cargo build -p cli -p sandbox --bins >/dev/null; fi
bin="$PWD/target/$profile/suitesmith"
contain="$PWD/target/$profile/contain"
rm -rf "$out" && mkdir -p "$out"
work="$out/work"
mkdir -p "$work/canary/tree/deep" "$work/home" "$work/tmp"
for f in victim keep log; do echo "canary $f" > "$work/canary/$f.txt"; done
echo "deep canary" > "$work/canary/tree/deep/file.txt"
snapshot() { (cd "$work/canary" && find . -printf '%p %m %s %T@\n' | sort && find . -type f -exec sha256sum {} + | sort); }
snapshot > "$out/canary.before"
classes=(
  "/usr/share/java/guava.jar com.google.common.io.MoreFiles"
  "/usr/share/java/guava.jar com.google.common.io.Files"
  "/usr/share/java/guava.jar com.google.common.io.FileBackedOutputStream"
  "/usr/share/java/commons-io.jar org.apache.commons.io.FileUtils"
)
junit="/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
status=0
for entry in "${classes[@]}"; do
  read -r jar class <<<"$entry"
  name="${class##*.}"
  dir="$work/out-$name"
  echo "== $class: generate (${budget}s, seed 1)"
  start=$(date +%s)
  "$contain" --writable "$work" -- env HOME="$work/home" TMPDIR="$work/tmp" \
    "$bin" generate --classpath "$jar" --class "$class" --budget "${budget}s" --seed 1 --out "$dir" \
    --sandbox required >"$out/$name.generate.log" 2>&1 || { echo "generate failed: see $out/$name.generate.log"; status=1; }
  echo "   $(( $(date +%s) - start )) s; sandbox: $(grep -o '"layer": "[a-z]*"' "$dir/report.json" 2>/dev/null | head -1)"
  snapshot > "$out/canary.after-generate-$name"
  if ! diff -q "$out/canary.before" "$out/canary.after-generate-$name" >/dev/null; then
    echo "   CANARY CHANGED during generate of $class"; status=1
  fi
  test_file=$(find "$dir" -name '*Test.java' | head -1)
  [ -n "$test_file" ] || { echo "   no test written"; status=1; continue; }
  echo "   written: $(grep -c '@Test' "$test_file") tests; compile and run them as root, unsandboxed, inside the read-only world"
  mkdir -p "$work/classes-$name"
  javac -nowarn -proc:none -d "$work/classes-$name" -cp "$jar:$junit" $(find "$dir" -name '*.java') >"$out/$name.javac.log" 2>&1 \
    || { echo "   javac failed: $out/$name.javac.log"; status=1; continue; }
  test_class=$(sed -n 's/^package \(.*\);/\1/p' "$test_file" | head -1).$(basename "$test_file" .java)
  # strace records every file system call that failed; in the read-only world a write outside the
  # work tree fails with EROFS, so none may be there. (-XX:-UsePerfData: the JVM's own /tmp file.)
  (cd "$work/tmp" && "$contain" --writable "$work" -- env HOME="$work/home" \
    strace -f -qq -Z -e trace=%file,%desc -o "$work/$name.strace" \
    java -XX:-UsePerfData -Djava.io.tmpdir="$work/tmp" -cp "$work/classes-$name:$jar:$junit" org.junit.runner.JUnitCore "$test_class") \
    >"$out/$name.junit.log" 2>&1 || { echo "   written tests failed: $out/$name.junit.log"; status=1; }
  grep -E "^OK|^Tests run" "$out/$name.junit.log" | sed 's/^/   /'
  denied=$(grep -cE "= -1 (EROFS|EACCES|EPERM) " "$work/$name.strace" || true)
  echo "   failed writes outside the work tree (EROFS/EACCES/EPERM in strace): $denied"
  if [ "$denied" != 0 ]; then grep -E "= -1 (EROFS|EACCES|EPERM) " "$work/$name.strace" | head -3 | sed 's/^/     /'; status=1; fi
  snapshot > "$out/canary.after-tests-$name"
  if ! diff -q "$out/canary.before" "$out/canary.after-tests-$name" >/dev/null; then
    echo "   CANARY CHANGED by the written tests of $class"; status=1
  fi
done
echo "contained.sh: $([ $status = 0 ] && echo "every canary intact, every written suite passed" || echo "FAILURES above")"
exit $status
