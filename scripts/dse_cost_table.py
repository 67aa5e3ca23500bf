#!/usr/bin/env python3
"""DSE's cost per class from report.json files (their `dse.cost`, docs/dse.md "Cost"): one markdown row
per class and a last row over all of them (sums, and the replay speed and query times pooled).
Usage: dse_cost_table.py REPORT.json...   (e.g. a bench run: OUT/runs/on/*/seed-*/tests/report.json)"""
import json
import sys

print("| class | search s | DSE s | share of search | applications | replay s | replay insns | replay insns/s "
      "| JVM check s | queries | solver s | median ms | p95 ms | max ms | per back end: queries, median / p95 / max ms |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
total = {"search": 0.0, "dse": 0.0, "apps": 0, "replay_s": 0.0, "insns": 0, "check": 0.0, "queries": 0, "solver": 0.0}
medians, p95s = [], []
for path in sys.argv[1:]:
    r = json.load(open(path))["classes"][0]
    d = r.get("dse")
    if not d or "cost" not in d:
        continue
    k = d["cost"]
    s = k["solver"]
    per = "; ".join(f"{b}: {q['queries']}, {q['median_ms']:.1f} / {q['p95_ms']:.1f} / {q['max_ms']:.1f}"
                    for b, q in sorted(k["solver_by_backend"].items()))
    print(f"| {r['class']} | {r['search_seconds']:.1f} | {k['seconds']:.1f} | {100 * k['share_of_search']:.0f} % "
          f"| {k['applications']} | {k['replay_seconds']:.2f} | {k['replay_instructions']} "
          f"| {k['replay_instructions_per_second']:.0f} | {k['check_seconds']:.2f} | {s['queries']} | {s['seconds']:.1f} "
          f"| {s['median_ms']:.1f} | {s['p95_ms']:.1f} | {s['max_ms']:.1f} | {per} |")
    total["search"] += r["search_seconds"]
    total["dse"] += k["seconds"]
    total["apps"] += k["applications"]
    total["replay_s"] += k["replay_seconds"]
    total["insns"] += k["replay_instructions"]
    total["check"] += k["check_seconds"]
    total["queries"] += s["queries"]
    total["solver"] += s["seconds"]
    if s["queries"]:
        medians.append(s["median_ms"])
        p95s.append(s["p95_ms"])
mid = lambda v: sorted(v)[len(v) // 2] if v else 0.0
speed = total["insns"] / total["replay_s"] if total["replay_s"] else 0.0
share = total["dse"] / total["search"] if total["search"] else 0.0
print(f"| **all** | {total['search']:.1f} | {total['dse']:.1f} | {100 * share:.0f} % | {total['apps']} "
      f"| {total['replay_s']:.2f} | {total['insns']} | {speed:.0f} | {total['check']:.2f} | {total['queries']} "
      f"| {total['solver']:.1f} | {mid(medians):.1f} (median of classes) | {mid(p95s):.1f} (median of classes) | | |")
