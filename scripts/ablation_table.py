#!/usr/bin/env python3
"""Ablation tables from one bench invocation: configurations compared in pairs (BASE:NEW), per class and
per group of classes (each fixture area of fixtures/java/, and the rest as "public"), over any columns of
results.csv: the mean of each, the ratio NEW/BASE of the means, and wins / losses / ties per class
(a win: NEW's value is higher; for `tests` that means a larger suite). With several seeds
(`--repetitions`), a class's value is its mean over the seeds that have a value in both
configurations.

Usage: ablation_table.py OUT [--pair BASE:NEW]... [--metrics COL,COL,...] [--classes]
  OUT      a bench output directory or its results.csv
  --pair   default off:on (the techniques' `--config off:... --config on:...` runs)
  --metrics default jacoco_branch,jacoco_line
  --classes also print the per-class table of the first metric for each pair

Used for issues 15 (DSE, `off:on`) and 19 (goal selection: `dyn-all:dyn-smart`, `ws-all:ws-smart`);
scripts/flags_table.py adds issue 18's executions-per-second split on top of the same loading."""
import csv
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE_AREAS = sorted(
    d for d in os.listdir(os.path.join(ROOT, "fixtures", "java")) if os.path.isdir(os.path.join(ROOT, "fixtures", "java", d))
)
PERCENT = lambda col: col.startswith(("jacoco_", "ours_", "pit_score"))


def load_all(out):
    """results.csv as {class: {config: [row per seed, in file order]}}."""
    path = out if out.endswith(".csv") else os.path.join(out, "results.csv")
    by = {}
    for r in csv.DictReader(open(path)):
        by.setdefault(r["class"], {}).setdefault(r["config"], []).append(r)
    return by


def load(out):
    """results.csv as {class: {config: row}} (the first seed's row when there are several)."""
    return {c: {k: rows[0] for k, rows in d.items()} for c, d in load_all(out).items()}


def num(r, k):
    try:
        return float(r[k])
    except (TypeError, ValueError, KeyError):
        return None


def group_of(cls):
    """The fixture area a class belongs to (its first package component), else "public"."""
    head = cls.split(".", 1)[0]
    return head if "." in cls and head in FIXTURE_AREAS else "public"


def fmt(col, x):
    if x is None:
        return "–"
    return f"{100 * x:.1f}" if PERCENT(col) else f"{x:,.1f}"


def compare(by, base, new, col):
    """Per group: [(class, base value, new value)] over the classes with both values (means over
    the seeds that have both)."""
    groups = {}
    for c in sorted(by):
        d = by[c]
        if base in d and new in d:
            nb = {r["seed"]: num(r, col) for r in d[base]}
            nn = {r["seed"]: num(r, col) for r in d[new]}
            seeds = [s for s in nb if nb[s] is not None and nn.get(s) is not None]
            if seeds:
                b = statistics.mean(nb[s] for s in seeds)
                n = statistics.mean(nn[s] for s in seeds)
                groups.setdefault(group_of(c), []).append((c, b, n))
    return groups


def summary_rows(by, base, new, metrics):
    rows = []
    for col in metrics:
        for g, xs in sorted(compare(by, base, new, col).items(), key=lambda kv: (kv[0] == "public", kv[0])):
            mb = statistics.mean(b for _, b, _ in xs)
            mn = statistics.mean(n for _, _, n in xs)
            wins = sum(n > b + 1e-9 for _, b, n in xs)
            losses = sum(n < b - 1e-9 for _, b, n in xs)
            ratio = f"{mn / mb:.3f}" if mb else "–"
            rows.append(f"| {col} | {g} | {len(xs)} | {fmt(col, mb)} | {fmt(col, mn)} | {ratio} | {wins} / {losses} / {len(xs) - wins - losses} |")
    return rows


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    out, pairs, metrics, classes = argv[0], [], ["jacoco_branch", "jacoco_line"], False
    it = iter(argv[1:])
    for a in it:
        if a == "--pair":
            pairs.append(tuple(next(it).split(":", 1)))
        elif a == "--metrics":
            metrics = next(it).split(",")
        elif a == "--classes":
            classes = True
        else:
            sys.exit(f"unknown argument {a!r}\n{__doc__}")
    by = load_all(out)
    for base, new in pairs or [("off", "on")]:
        print(f"### {base} → {new}\n")
        print(f"| column | group | classes | {base} (mean) | {new} (mean) | ratio | wins / losses / ties |")
        print("|---|---|---:|---:|---:|---:|---|")
        print("\n".join(summary_rows(by, base, new, metrics)))
        print()
        if classes:
            col = metrics[0]
            print(f"| class | {col} {base} | {col} {new} |")
            print("|---|---:|---:|")
            for g, xs in sorted(compare(by, base, new, col).items()):
                for c, b, n in xs:
                    print(f"| {c} | {fmt(col, b)} | {fmt(col, n)} |")
            print()


if __name__ == "__main__":
    main(sys.argv[1:])
