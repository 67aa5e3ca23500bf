#!/usr/bin/env python3
"""Speed of two suitesmith binaries from one bench run (issue 14's acceptance): executions per second of
the search, engine overhead and engine peak memory, paired per class and seed.

Pairing is what makes one invocation enough when the two binaries search alike: with the same seed a
behaviour-preserving change executes the same tests in the same order, so new/old executions per second
of one (class, seed) is the speed of the same work, not of two different searches. The summary gives
the geometric mean of those ratios with a bootstrap 95 % interval (resampling classes, so a class's
seeds stay together), and writes overhead.csv (search and worker seconds from each run's report.json).

Usage: speed_table.py BENCH_OUT_DIR [OLD NEW]   (configuration names; default old new)"""
import csv, json, math, os, random, statistics, sys

out = sys.argv[1]
old, new = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ("old", "new")
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))


def num(r, k):
    try:
        return float(r[k])
    except (TypeError, ValueError, KeyError):
        return float("nan")


def report_times(r):
    """Search and worker seconds and executions of one run, from its report.json."""
    path = os.path.join(out, "runs", r["config"], r["class"], f"seed-{r['seed']}", "tests", "report.json")
    try:
        c = json.load(open(path))["classes"][0]
        return c["search_seconds"], c["worker_seconds"], c["executions"]
    except (OSError, KeyError, IndexError, ValueError):
        return None


runs = {}
with open(os.path.join(out, "overhead.csv"), "w") as f:
    f.write("class,config,seed,search_s,worker_s,overhead,executions,executions_per_s\n")
    for r in rows:
        t = report_times(r)
        if t is None or t[0] <= 0:
            continue
        search, worker, execs = t
        over = 1 - worker / search
        runs[(r["class"], r["seed"], r["config"])] = {
            "rate": execs / search, "overhead": over, "peak": num(r, "engine_peak_mib"),
            "workers_peak": num(r, "workers_peak_mib"), "branch": num(r, "jacoco_branch"),
            "failing": num(r, "tests_failing"), "flaky": num(r, "tests_flaky"),
        }
        f.write(f"{r['class']},{r['config']},{r['seed']},{search:.3f},{worker:.3f},{over:.4f},{execs},"
                f"{execs / search:.1f}\n")

pairs = {}
for (cls, seed, cfg), v in runs.items():
    if cfg == old and (cls, seed, new) in runs:
        pairs.setdefault(cls, []).append((v, runs[(cls, seed, new)]))


def gmean(xs):
    return math.exp(statistics.mean(math.log(x) for x in xs))


def ratios(classes):
    return [b["rate"] / a["rate"] for c in classes for a, b in pairs[c]]


classes = sorted(pairs)
all_pairs = [p for c in classes for p in pairs[c]]
g = gmean(ratios(classes))
rng = random.Random(1)
boot = sorted(gmean(ratios([rng.choice(classes) for _ in classes])) for _ in range(2000))
lo, hi = boot[50], boot[1949]
print(f"{len(classes)} classes, {len(all_pairs)} (class, seed) pairs of `{old}` and `{new}`")
print(f"executions/s, geometric mean of {new}/{old} per pair: {g:.3f} (95 % bootstrap over classes: "
      f"{lo:.3f}-{hi:.3f}); pairs with {new} >= {old}: {sum(b['rate'] >= a['rate'] for a, b in all_pairs)}")
for cfg, i in ((old, 0), (new, 1)):
    rates = [p[i]["rate"] for p in all_pairs]
    overs = [100 * p[i]["overhead"] for p in all_pairs]
    peaks = [p[i]["peak"] for p in all_pairs]
    per_class_peak = [max(p[i]["peak"] for p in pairs[c]) for c in classes]
    print(f"{cfg}: executions/s mean {statistics.mean(rates):.0f}, median {statistics.median(rates):.0f}; "
          f"overhead mean {statistics.mean(overs):.2f} %, median {statistics.median(overs):.2f} %; "
          f"engine MiB max {max(peaks):.0f}, mean of class maxima {statistics.mean(per_class_peak):.1f}; "
          f"workers MiB max {max(p[i]['workers_peak'] for p in all_pairs):.0f}; "
          f"JaCoCo branch mean {100 * statistics.mean(p[i]['branch'] for p in all_pairs):.1f} %; "
          f"failing {sum(p[i]['failing'] for p in all_pairs):.0f}, flaky {sum(p[i]['flaky'] for p in all_pairs):.0f}")
over_d = [100 * (b["overhead"] - a["overhead"]) for a, b in all_pairs]
over_by_class = {c: [100 * (b["overhead"] - a["overhead"]) for a, b in pairs[c]] for c in classes}
boot_d = sorted(statistics.mean(x for _ in classes for x in over_by_class[rng.choice(classes)])
                for _ in range(2000))
print(f"overhead {new} - {old} per pair: mean {statistics.mean(over_d):+.2f} points (95 % bootstrap over classes: "
      f"{boot_d[50]:+.2f} to {boot_d[1949]:+.2f}), median {statistics.median(over_d):+.2f}")
lower_peak = sum(max(b["peak"] for _, b in pairs[c]) <= max(a["peak"] for a, _ in pairs[c]) for c in classes)
print(f"classes whose {new} engine peak (max over seeds) is <= {old}'s: {lower_peak} of {len(classes)}")
print()
print(f"| class | {old} exec/s | {new} exec/s | ratio (gmean of seeds) | {old} overhead % | {new} overhead % "
      f"| {old} engine MiB | {new} engine MiB |")
print("|---|---|---|---|---|---|---|---|")
for c in classes:
    ps = pairs[c]
    short = ".".join(c.split(".")[-2:])
    print(f"| {short} | {statistics.mean(a['rate'] for a, _ in ps):.0f} | "
          f"{statistics.mean(b['rate'] for _, b in ps):.0f} | {gmean([b['rate'] / a['rate'] for a, b in ps]):.3f} | "
          f"{100 * statistics.mean(a['overhead'] for a, _ in ps):.1f} | "
          f"{100 * statistics.mean(b['overhead'] for _, b in ps):.1f} | "
          f"{max(a['peak'] for a, _ in ps):.0f} | {max(b['peak'] for _, b in ps):.0f} |")
