#!/usr/bin/env python3
"""Summarizes the CSVs of this folder as the Markdown tables of its README.

join-vs-kluev.csv (scripts/join-vs-kluev.sh): per n and program/level, the median CPU seconds
(user + sys), and the median of the per-round ratios nqueens / Kluev (his -march=native build,
and his build without AVX-512). ab-*.csv (scripts/ab-builds.sh): per
command, the median CPU seconds of the build before (38d89fe) and after, and their ratio.
Usage: cd results/2026-12-02-isa && python3 ../../scripts/results/summarize.py (it reads the CSVs
of the folder it runs in)."""
import csv
import statistics
from collections import defaultdict

def median(xs):
    return statistics.median(xs) if xs else float("nan")

def vs_kluev(path):
    rows = list(csv.DictReader(open(path)))
    # (n, parts, threads) -> program-level -> list of cpu_s in run order
    runs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        key = (int(r["n"]), int(r["parts"]), int(r["threads"]))
        runs[key][f'{r["program"]} {r["isa"]}'].append(float(r["cpu_s"]))
    levels = ["nqueens avx512", "nqueens avx2", "nqueens portable"]
    print("| n | what ran | avx512 | avx2 | portable | Kluev native | Kluev no-AVX-512 | avx512 / K | avx2 / K | portable / K | avx2 / K no-512 | portable / K no-512 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (n, parts, threads), progs in sorted(runs.items()):
        what = f"whole, {threads} threads" if parts == 1 else f"part 0 of {parts}, 1 thread"
        k = progs.get("kluev native", [])
        k2 = progs.get("kluev-noavx512 no-avx512", [])
        cells = [median(progs.get(l, [])) for l in levels] + [median(k), median(k2)]
        def ratio(level, his):
            ours = progs.get(level, [])
            pairs = [o / h for o, h in zip(ours, his)]
            return median(pairs)
        ratios = [ratio(l, k) for l in levels] + [ratio("nqueens avx2", k2), ratio("nqueens portable", k2)]
        rounds = len(k)
        print(f"| {n} | {what} ({rounds} round{'s' if rounds > 1 else ''}) | " + " | ".join(f"{c:.2f}" for c in cells)
              + " | " + " | ".join(f"**{r:.3f}**" for r in ratios) + " |")

def ab(path):
    rows = [r for r in csv.DictReader(open(path)) if r["build"] in ("old", "new")]
    by = defaultdict(lambda: defaultdict(list))
    order = []
    for r in rows:
        if r["args"] not in by:
            order.append(r["args"])
        by[r["args"]][r["build"]].append(float(r["cpu_s"]))
    print("| count | before (38d89fe) CPU s | after CPU s | after / before |")
    print("|---|---|---|---|")
    for a in order:
        o, n = by[a]["old"], by[a]["new"]
        pairs = [y / x for x, y in zip(o, n) if x > 0]
        print(f"| `{a}` | {median(o):.2f} | {median(n):.2f} | {median(pairs):.3f} |")

if __name__ == "__main__":
    import os
    for name, f in [("join-vs-kluev.csv", vs_kluev), ("ab-join.csv", ab), ("ab-d4-mirror.csv", ab),
                    ("ab-join-avx512-final.csv", ab), ("ab-join-n18-avx512.csv", ab)]:
        if os.path.exists(name):
            print(f"\n### {name}\n")
            f(name)
