#!/usr/bin/env python3
"""The sushi fixtures with and without SUSHI at a fixed evaluation budget, with the bounds and
invariants of fixtures/java/sushi/criterion.tsv (the table crates/engine/tests/sushi.rs checks on
seed 1), for other seeds: issue 16's fixture criterion, docs/sushi.md "The fixture criterion".

Usage: scripts/sushi_fixtures.py SEED [EVALUATIONS] > table.txt
Prints one line per fixture and configuration: how many branch goals are uncovered and which
(probe, side, line). Needs a release build (`cargo build --release -p cli`) and the compiled
fixtures (fixtures/classes/sushi, made by the tests).
"""
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def table():
    """The fixture rows of criterion.tsv as (class, paths, lazy, rules, search), rule sets expanded."""
    sets, rows = {}, []
    for line in (ROOT / "fixtures/java/sushi/criterion.tsv").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if cols[0].startswith("@"):
            sets[cols[0][1:]] = cols[1]
            continue
        if cols[0] == "class":
            continue
        rules = cols[6]
        rules = "" if rules == "-" else sets[rules[1:]] if rules.startswith("@") else rules
        rows.append((cols[0], int(cols[1]), int(cols[2]), [r.strip() for r in rules.split(";") if r.strip()],
                     cols[7]))
    return rows


def main():
    seed = sys.argv[1]
    evaluations = sys.argv[2] if len(sys.argv) > 2 else "10000"
    binary = ROOT / "target/release/suitesmith"
    with tempfile.TemporaryDirectory() as tmp:
        for cls, paths, lazy, rules, search in table():
            for mode in ("on", "off"):
                out = pathlib.Path(tmp) / f"{cls}-{mode}"
                args = [str(binary), "generate", "--classpath", str(ROOT / "fixtures/classes/sushi"),
                        "--class", f"sushi.{cls}", "--evaluations", evaluations, "--seed", seed,
                        "--criteria", "branch", "--out", str(out), "--sushi", mode]
                if search == "ls":
                    args += ["--local-search", "on", "--local-search-calls", "on"]
                if mode == "on":
                    args += ["--sushi-paths", str(paths), "--sushi-class-paths", str(min(paths * 5, 800)),
                             "--sushi-lazy", str(lazy)]
                    for r in rules:
                        args += ["--sushi-rule", r]
                subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                try:
                    report = json.loads((out / "report.json").read_text())["classes"][0]
                except (OSError, ValueError, KeyError, IndexError) as e:
                    print(cls, mode, "no report:", e)
                    continue
                unc = [u.split(" (")[0].removeprefix("branch ") + ":" + u.rsplit(":", 1)[1].rstrip(")")
                       for u in report["uncovered"] if u.startswith("branch")]
                print(cls, mode, len(unc), " ".join(unc))


if __name__ == "__main__":
    main()
