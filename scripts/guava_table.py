#!/usr/bin/env python3
"""The Guava competition classes on their editions' own Guava versions (issue 20): per class, our JaCoCo
branch coverage beside EvoSuite's published figure at the same budget, and the means the issue asks for:
per edition, over the 2021 classes, and over all classes (a class in two editions counts once, with the
mean of its two runs).

Usage: guava_table.py LIST:OUT [LIST:OUT ...] [--config NAME] [--budget SECONDS]
  LIST      a subject list with `edition` and `evosuite_branch` columns (bench/subjects/guava-*.tsv)
  OUT       the bench output directory of that list (its rows.jsonl, which also holds the runs of an
            invocation that has not finished; else its results.csv)
  --config  the configuration to read (default: the first in the rows)
  --budget  EvoSuite's budget to compare with (default 120)

A listed class without a row is "not run" and left out of the means (the summary says how many); a run
without a JaCoCo figure counts as 0, as in the runner's summary."""
import csv
import json
import os
import statistics
import sys


def subjects(path):
    """[(class, edition, {budget: evosuite branch %})] in list order."""
    rows = []
    with open(path, newline="") as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines, delimiter="\t"):
        evo = {}
        for part in (r.get("evosuite_branch") or "").split():
            b, v = part.split("=")
            evo[int(b)] = float(v)
        rows.append((r["class"], r["edition"], evo))
    return rows


def runs(out, config):
    """{class: JaCoCo branch % or None} of `config` in `out`, and the configuration read."""
    res = {}
    journal = os.path.join(out, "rows.jsonl")
    if os.path.exists(journal):
        with open(journal) as f:
            rows = [json.loads(l)["row"] for l in f if l.strip()]
        for r in rows:
            config = config or r["config"]
            if r["config"] != config:
                continue
            b = r.get("jacoco_branches")
            res[r["class"]] = 100.0 * b[0] / b[1] if b and b[1] else (None if not b else 100.0)
        return res, config
    csv_path = os.path.join(out, "results.csv")
    if not os.path.exists(csv_path):
        return res, config
    with open(csv_path, newline="") as f:
        for r in csv.DictReader(f):
            config = config or r["config"]
            if r["config"] == config:
                res[r["class"]] = 100.0 * float(r["jacoco_branch"]) if r["jacoco_branch"] else None
    return res, config


def fmt(v):
    return "–" if v is None else f"{v:.1f}"


def main(argv):
    config, budget, pairs = None, 120, []
    i = 0
    while i < len(argv):
        if argv[i] == "--config":
            config, i = argv[i + 1], i + 2
        elif argv[i] == "--budget":
            budget, i = int(argv[i + 1]), i + 2
        else:
            pairs.append(argv[i].split(":", 1))
            i += 1
    if not pairs:
        print(__doc__, file=sys.stderr)
        return 2
    per_class = {}  # class -> [our figures over its editions]
    evo_per_class = {}
    editions = {}
    missing = 0
    print(f"| edition | class | ours: JaCoCo branch | EvoSuite published @{budget} s |")
    print("|---|---|---|---|")
    for lst, out in pairs:
        got, config = runs(out, config)
        for cls, edition, evo in subjects(lst):
            if cls not in got:
                missing += 1
                print(f"| {edition} | {cls} | not run | {fmt(evo.get(budget))} |")
                continue
            ours = got[cls] if got[cls] is not None else 0.0
            per_class.setdefault(cls, []).append(ours)
            if budget in evo:
                evo_per_class.setdefault(cls, []).append(evo[budget])
            editions.setdefault(edition, []).append((cls, ours, evo.get(budget)))
            print(f"| {edition} | {cls} | {fmt(ours)} | {fmt(evo.get(budget))} |")
    print()
    print("| set | classes run | ours mean | at 0 % | with an EvoSuite figure | ours mean there | EvoSuite mean there |")
    print("|---|---|---|---|---|---|---|")

    def line(name, items):
        ours = [o for _, o, _ in items]
        pub = [(o, e) for _, o, e in items if e is not None]
        zero = sum(1 for o in ours if o == 0.0)
        print(
            f"| {name} | {len(items)} | {statistics.mean(ours):.1f} | {zero} | {len(pub)} | "
            + (f"{statistics.mean(o for o, _ in pub):.1f} | {statistics.mean(e for _, e in pub):.1f} |" if pub else "– | – |")
        )

    for e in sorted(editions):
        line(e, editions[e])
    merged = [
        (c, statistics.mean(v), statistics.mean(evo_per_class[c]) if c in evo_per_class else None)
        for c, v in sorted(per_class.items())
    ]
    if merged:
        line("all classes (each once)", merged)
    print()
    print(f"configuration `{config}`; {missing} listed rows not run")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
