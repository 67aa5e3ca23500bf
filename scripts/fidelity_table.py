#!/usr/bin/env python3
"""The table of issue 15's interpreter fidelity (scripts/fidelity.sh): one row per class of the
runs under DIR (DIR/<class>/report.json, each from `generate --replay-check`), and a total: tests,
replays that ran to the end, the shares of interpreted instructions with a symbolic operand and with
concrete operands only, pins (concretisations) per 1000 instructions, replays stopped early by
reason, divergences (goal or statement outcome), replay speed. The first few divergences follow."""
import json
import os
import sys

KINDS = ["native", "step_limit", "depth_limit", "missing", "unsupported", "panic"]


def main(root):
    rows = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "report.json")
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            report = json.load(f)
        for c in report["classes"]:
            if c.get("replay_check"):
                rows.append((c["class"], c["replay_check"]))
        for fail in report.get("failed", []):
            rows.append((fail["class"], None))
    keys = ["tests", "replayed_fully", "instructions_symbolic", "instructions_concrete", "pins",
            "goals_compared", "divergences", "goal_divergences", "outcome_divergences", "not_compared",
            "seconds"]
    total = {k: 0 for k in keys}
    total_stops = {k: 0 for k in KINDS}
    reasons = {}
    print("| class | tests | replayed fully | symbolic % | concrete % | pins / 1000 insns | stopped (" +
          ", ".join(KINDS) + ") | branch goals compared | divergences (goals / outcomes) | Minsn/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: |")
    for cls, r in rows:
        if r is None:
            print(f"| {cls} | failed | | | | | | | | |")
            continue
        for k in keys:
            total[k] += r[k]
        for k, v in r["stopped"].items():
            total_stops[k] = total_stops.get(k, 0) + v
        for k, v in r["stop_reasons"].items():
            reasons[k] = reasons.get(k, 0) + v
        print(row(cls, r, r["stopped"]))
    print(row("**total**", total, total_stops))
    print()
    print("Stop reasons (replays), most frequent first:")
    print()
    for k, v in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:25]:
        print(f"- {v} × {k}")
    print()
    print("First divergences per class:")
    print()
    for cls, r in rows:
        if r and r["examples"]:
            for e in r["examples"][:3]:
                print(f"- {cls}: {e}")


def row(cls, r, stops):
    n = r["instructions_symbolic"] + r["instructions_concrete"]
    sym = 100.0 * r["instructions_symbolic"] / n if n else 0.0
    conc = 100.0 * r["instructions_concrete"] / n if n else 0.0
    pins = 1000.0 * r["pins"] / n if n else 0.0
    stop = " / ".join(str(stops.get(k, 0)) for k in KINDS)
    speed = n / r["seconds"] / 1e6 if r["seconds"] else 0.0
    return (f"| {cls} | {r['tests']} | {r['replayed_fully']} | {sym:.1f} | {conc:.1f} | {pins:.2f} | {stop} | "
            f"{r['goals_compared']} | {r['divergences']} ({r['goal_divergences']} / {r['outcome_divergences']}) | "
            f"{speed:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/results/issue15-fidelity/runs")
