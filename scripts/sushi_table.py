#!/usr/bin/env python3
"""Issue 16 (SUSHI) ablation and cost tables from one bench run of `--config off:sushi=off --config on:sushi=on`:
per class JaCoCo branch and line coverage off/on, ratio of means and wins/ties/losses per set (sushi fixtures,
public set), and from each `on` run's report.json the exploration's cost (seconds, share of the budget, paths
per second) and the goals' fates (selected, solved, unsound, spurious, covered otherwise, open; spurious share).
Usage: sushi_table.py BENCH_OUT_DIR"""
import collections, csv, json, os, statistics, sys

out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
by = collections.defaultdict(dict)
for r in rows:
    by[r["class"]][r["config"]] = r


def f(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def pct(x):
    return "–" if x is None else f"{100 * x:.1f}"


groups = collections.defaultdict(list)
wins = collections.Counter()
print("| class | branch off | branch on | line off | line on |")
print("|---|---|---|---|---|")
for c, d in by.items():
    if "off" not in d or "on" not in d:
        continue
    g = "fixtures" if c.startswith("sushi.") else "public"
    bo, bn = f(d["off"]["jacoco_branch"]), f(d["on"]["jacoco_branch"])
    lo, ln = f(d["off"]["jacoco_line"]), f(d["on"]["jacoco_line"])
    groups[g].append((bo, bn))
    if bo is not None and bn is not None:
        k = "win" if bn > bo + 1e-9 else "loss" if bn < bo - 1e-9 else "tie"
        wins[(g, k)] += 1
    print(f"| {c} | {pct(bo)} | {pct(bn)} | {pct(lo)} | {pct(ln)} |")
print()
for g, v in groups.items():
    vb = [x for x in v if x[0] is not None and x[1] is not None]
    if not vb:
        continue
    mo = sum(x[0] for x in vb) / len(vb)
    mn = sum(x[1] for x in vb) / len(vb)
    print(f"{g}: {len(vb)} classes, mean JaCoCo branch off {100 * mo:.1f} % on {100 * mn:.1f} % ratio {mn / mo:.3f}; "
          f"wins/ties/losses {wins[(g, 'win')]}/{wins[(g, 'tie')]}/{wins[(g, 'loss')]}")
print()
print("| class | methods (skipped) | paths | explore s | share of budget | paths/s | sent | selected | solved | unsound | spurious | covered otherwise | open | spurious share |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
costs = collections.defaultdict(list)
for c, d in by.items():
    if "on" not in d:
        continue
    p = os.path.join(out, "runs", "on", c, f"seed-{d['on']['seed']}", "tests", "report.json")
    try:
        s = json.load(open(p))["classes"][0]["sushi"]
    except (OSError, KeyError, IndexError, ValueError):
        continue
    if not s:
        continue
    budget = f(d["on"]["budget_s"]) or 60.0
    t = s["explore_seconds"] + s["select_seconds"]
    rate = s["paths_explored"] / s["explore_seconds"] if s["explore_seconds"] > 0 else 0.0
    g = "fixtures" if c.startswith("sushi.") else "public"
    costs[g].append((t, rate))
    print(f"| {c} | {s['methods']} ({s['methods_skipped']}) | {s['paths_explored']} | {t:.1f} | {100 * t / budget:.0f} % | "
          f"{rate:.0f} | {s['sent']} | {s['selected']} | {s['solved']} | {s['unsound']} | {s['spurious']} | "
          f"{s['covered_otherwise']} | {s['open']} | {100 * s['spurious_share']:.0f} % |")
print()
for g, v in costs.items():
    ts = [x[0] for x in v]
    rates = [x[1] for x in v if x[1] > 0]
    print(f"{g}: exploration + selection median {statistics.median(ts):.1f} s, max {max(ts):.1f} s "
          f"({100 * statistics.median(ts) / 60:.0f} % / {100 * max(ts) / 60:.0f} % of 60 s); "
          f"paths per second median {statistics.median(rates) if rates else 0:.0f}")
