#!/usr/bin/env python3
"""Issue 21 robustness tables from one bench run (any subject list, any seeds): per run the wall time
against the bound (search budget + post-processing budget + 10 s; the post-processing budget defaults to
the search budget, at least 30 s), the parts of the longest runs (search, minimisation, assertions,
verification, coverage), and totals: engine failures, files not compiling, tests, flaky and failing tests
in the bench's plain runs, escapes by name, peak memory.
Usage: robustness_table.py BENCH_OUT_DIR [LONGEST]"""
import collections, csv, os, re, statistics, sys

out = sys.argv[1]
longest = int(sys.argv[2]) if len(sys.argv) > 2 else 5
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))


def num(r, k):
    try:
        return float(r[k])
    except (TypeError, ValueError, KeyError):
        return 0.0


def bound(r):
    budget = num(r, "budget_s")
    return budget + max(budget, 30.0) + 10.0


over = [r for r in rows if num(r, "wall_s") > bound(r)]
failures = [r for r in rows if r["exit_code"] != "0" or r["timed_out"] == "true" or r["error"]]
walls = [num(r, "wall_s") for r in rows]
print(f"runs {len(rows)}; exit != 0 or killed: {len(failures)}; files not compiling: "
      f"{sum(int(num(r, 'files_failed_to_compile')) for r in rows)}; tests {sum(int(num(r, 'tests')) for r in rows)}; "
      f"flaky {sum(int(num(r, 'tests_flaky')) for r in rows)}; failing {sum(int(num(r, 'tests_failing')) for r in rows)}")
print(f"wall s: median {statistics.median(walls):.1f}, max {max(walls):.1f}; over the bound: {len(over)}")
print(f"engine MiB max {max(num(r, 'engine_peak_mib') for r in rows):.0f}; "
      f"workers MiB max {max(num(r, 'workers_peak_mib') for r in rows):.0f}")
print(f"JaCoCo line mean {100 * statistics.mean(num(r, 'jacoco_line') for r in rows):.1f} %, "
      f"branch mean {100 * statistics.mean(num(r, 'jacoco_branch') for r in rows):.1f} %")
for r in failures:
    print(f"  failure: {r['class']} seed {r['seed']}: exit {r['exit_code']} {r['error']}")
for r in rows:
    if num(r, "tests_flaky") or num(r, "tests_failing"):
        print(f"  {r['class']} seed {r['seed']}: flaky {r['tests_flaky']}, failing {r['tests_failing']}")

print()
print("| class | seed | wall s | bound | search | minimisation | assertions | verification | coverage | tests |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in sorted(rows, key=lambda r: -num(r, "wall_s"))[:longest]:
    print(f"| {r['class'].rsplit('.', 1)[-1]} | {r['seed']} | {num(r, 'wall_s'):.1f} | {bound(r):.0f} | "
          f"{num(r, 'search_s'):.1f} | {num(r, 'minimise_s'):.1f} | {num(r, 'assertions_s'):.1f} | "
          f"{num(r, 'verification_s'):.1f} | {num(r, 'coverage_s'):.1f} | {r['tests']} |")

# Escapes: the bench counts entries left in the run's own TMPDIR and working directory, and new top-level
# entries of the shared /tmp and $HOME (other work on the machine makes those); grouped by name pattern.
kinds = collections.Counter()
own = 0
for r in rows:
    for p in filter(None, (r.get("escaped") or "").split(";")):
        if os.path.abspath(p).startswith(os.path.abspath(out)):
            own += 1  # in the run's own TMPDIR or working directory: the engine's, a real escape
        # The name's leading words, without its random or numbered tail: suitesmith-worker-Cd0yYU -> suitesmith-worker-*
        words = []
        for w in re.split(r"([-_.])", os.path.basename(p)):
            if w in "-_." or (w.isalpha() and w.islower()):
                words.append(w)
            else:
                words.append("*")
                break
        kinds[(os.path.dirname(p), "".join(words))] += 1
print()
print(f"escapes counted: {sum(int(num(r, 'escapes')) for r in rows)}, of them in a run's own directories: {own}")
for (d, stem), n in kinds.most_common():
    print(f"  {d}/{stem}: {n}")
