#!/usr/bin/env python3
"""PIT mutation scores of one configuration of a bench run, per class, beside our own weak-mutation
coverage, JaCoCo branch coverage and EvoSuite's published competition mutation scores (the `mutation_cov`
and `branch_cov` of shared/benchmarks/guava-competition.csv, every budget the competition ran, for the
classes it has: the Guava ones). Issue 19's "the public set's PIT scores beside EvoSuite's".

Usage: pit_table.py OUT CONFIG [--competition CSV]
  OUT            a bench output directory or its results.csv (one seed per class is expected; with more,
                 each is a row)
  CONFIG         the configuration's name in results.csv
  --competition  default ../shared/benchmarks/guava-competition.csv beside the repository

Prints a markdown table and a summary line (sums of PIT's counts, mean and median score, where a run
without a PIT figure counts as 0, as in the runner's summary)."""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ablation_table import ROOT, num  # noqa: E402

COUNTS = ["pit_mutants", "pit_killed", "pit_survived", "pit_no_coverage", "pit_timed_out", "pit_other"]


def published(path):
    """{class: [(edition, budget, mutation, branch)]} for EvoSuite's rows."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["tool"] != "evosuite":
                continue
            out.setdefault(r["class"], []).append(
                (r["edition"], int(r["budget_s"]), float(r["mutation_cov"]), float(r["branch_cov"]))
            )
    return out


def pct(x):
    return "–" if x is None else f"{100 * x:.1f}"


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out, config = argv[0], argv[1]
    comp = os.path.join(os.path.dirname(ROOT), "shared", "benchmarks", "guava-competition.csv")
    if "--competition" in argv:
        comp = argv[argv.index("--competition") + 1]
    path = out if out.endswith(".csv") else os.path.join(out, "results.csv")
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["config"] == config]
    if not rows:
        print(f"error: no rows of configuration {config!r} in {path}", file=sys.stderr)
        return 2
    evo = published(comp)
    print(
        "| class | mutants | killed | survived | no coverage | timed out | other | PIT score % | ours weak-mutation % "
        "| JaCoCo branch % | EvoSuite published PIT mutation % (edition: budget s = mutation (branch)) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    sums = [0] * len(COUNTS)
    scores = []
    for r in rows:
        counts = [num(r, c) for c in COUNTS]
        score = num(r, "pit_score")
        scores.append(score or 0.0)
        for i, c in enumerate(counts):
            sums[i] += int(c or 0)
        pub = evo.get(r["class"], [])
        by_edition = {}
        for edition, budget, mutation, branch in sorted(pub):
            by_edition.setdefault(edition, []).append(f"{budget} s = {mutation:.1f} ({branch:.1f})")
        pub_text = "; ".join(f"{e}: " + ", ".join(v) for e, v in by_edition.items()) or "–"
        cells = ["–" if c is None else str(int(c)) for c in counts]
        print(
            f"| {r['class']} | " + " | ".join(cells) + f" | {pct(score)} | {pct(num(r, 'ours_weakmutation'))} "
            f"| {pct(num(r, 'jacoco_branch'))} | {pub_text} |"
        )
    print()
    print(
        f"{len(rows)} runs: {sums[0]:,} mutants, {sums[1]:,} killed, {sums[2]:,} survived, {sums[3]:,} without "
        f"coverage, {sums[4]:,} timed out, {sums[5]:,} other; PIT score mean {100 * statistics.mean(scores):.1f} %, "
        f"median {100 * statistics.median(scores):.1f} %."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
