#!/usr/bin/env python3
"""Issue 18's ablation table (paper 001, `--flags off` vs `on` in one bench invocation): per class JaCoCo
branch and line coverage, executions per second of the search, and what flag fitness found (flag methods
traced, flag branch outcomes scored, covered; from each `on` run's report.json); then per group (the flags
fixtures, `flags.*`, and the public set) the ratio of mean branch coverage, wins and losses, and the
executions-per-second cost: the geometric mean of on/off over the classes where flag fitness traced
nothing (the issue's "< 5 % on classes without flags") and over those where it traced something.

The loading and the wins/losses of the coverage columns are scripts/ablation_table.py's
(`ablation_table.py OUT` gives the same branch and line ratios); this script adds the flag-specific columns.

Usage: flags_table.py BENCH_OUT_DIR"""
import json, math, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ablation_table import load, num  # noqa: E402

out = sys.argv[1]
by = load(out)


def flags_of(r):
    path = os.path.join(out, "runs", r["config"], r["class"], f"seed-{r['seed']}", "tests", "report.json")
    try:
        return json.load(open(path))["classes"][0].get("flags") or {}
    except (OSError, ValueError, KeyError, IndexError):
        return {}


def pct(x):
    return "–" if x is None else f"{100 * x:.1f}"


def gmean(xs):
    return math.exp(statistics.mean(math.log(x) for x in xs)) if xs else float("nan")


groups = {"fixtures": [], "public": []}
print("| class | branch off | branch on | line off | line on | exec/s off | exec/s on | flag methods / outcomes / covered |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
for c in sorted(by, key=lambda c: (not c.startswith("flags."), c)):
    d = by[c]
    if "off" not in d or "on" not in d:
        continue
    off, on = d["off"], d["on"]
    fl = flags_of(on)
    row = {
        "branch": (num(off, "jacoco_branch"), num(on, "jacoco_branch")),
        "line": (num(off, "jacoco_line"), num(on, "jacoco_line")),
        "eps": (num(off, "executions_per_s"), num(on, "executions_per_s")),
        "traced": fl.get("methods", 0) > 0,
    }
    groups["fixtures" if c.startswith("flags.") else "public"].append(row)
    found = f"{fl.get('methods', 0)} / {fl.get('branches', 0)} / {fl.get('covered', 0)}"
    eo, en = row["eps"]
    print(f"| {c} | {pct(row['branch'][0])} | {pct(row['branch'][1])} | {pct(row['line'][0])} | {pct(row['line'][1])} "
          f"| {eo or 0:,.0f} | {en or 0:,.0f} | {found} |")
print()
print("| group | classes | branch off (mean) | branch on (mean) | ratio | wins / losses / ties | exec/s on/off, nothing traced | exec/s on/off, flags traced |")
print("|---|---:|---:|---:|---:|---|---|---|")
for g, rs in groups.items():
    both = [r for r in rs if None not in r["branch"]]
    if not both:
        continue
    mo = statistics.mean(r["branch"][0] for r in both)
    mn = statistics.mean(r["branch"][1] for r in both)
    wins = sum(r["branch"][1] > r["branch"][0] + 1e-9 for r in both)
    losses = sum(r["branch"][1] < r["branch"][0] - 1e-9 for r in both)
    ratio = lambda rs: [r["eps"][1] / r["eps"][0] for r in rs if r["eps"][0] and r["eps"][1]]
    plain = ratio([r for r in rs if not r["traced"]])
    traced = ratio([r for r in rs if r["traced"]])
    print(f"| {g} | {len(both)} | {pct(mo)} | {pct(mn)} | {mn / mo:.3f} | {wins} / {losses} / {len(both) - wins - losses} "
          f"| {gmean(plain):.3f} ({len(plain)} classes) | {gmean(traced):.3f} ({len(traced)} classes) |")
