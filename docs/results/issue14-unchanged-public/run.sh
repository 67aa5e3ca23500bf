#!/usr/bin/env bash
# Usage: run.sh BINARY OUTDIR — generate at --evaluations 3000 --budget 900s --post-budget 900s --seed 1 for each distinct public class.
bin=$1; out=$2; mkdir -p "$out"
grep -v '^#' /work/main/bench/subjects/public.tsv | tail -n +2 | cut -f1,2 | sort -u | while IFS=$'\t' read -r cls cp; do

  "$bin" generate --classpath "$cp" --class "$cls" --evaluations 3000 --budget 900s --post-budget 900s --seed 1 --workers 2 --out "$out/$cls" >"$out/$cls.log" 2>&1
  echo "$cls exit $?"
done
