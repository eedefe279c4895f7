#!/usr/bin/env python3
"""How the sample's ten time-ordered parts spread against the estimator's own variance, on the
101 draws of `plan 28 --seed 3` (results/2026-12-05-plan-predictor/draws-seed3.csv: stratum,
predictor, each unit's estimated seconds), over 4,000 random orders of the draws: each part's
factor Σy/Σfitted unweighted (as `chunk_variance` took it before) and with each draw weighed by
its stratum's weight in the estimate, W_h·x̄_h/Σx_h (as it takes it now). Prints the mean of the
parts' variance over CHUNKS against the second phase's analytic relative variance, and how often
the parts come out wider (the old rule then took them, with t for 9 degrees of freedom), and how
often past the F test's bar F(0.95; 9, df).
Usage: python3 parts_weighting.py > parts_weighting.txt"""
import csv, math, random, statistics as st
from pathlib import Path

here = Path(__file__).resolve().parent
rows = list(csv.DictReader(open(here.parent / "2026-12-05-plan-predictor" / "draws-seed3.csv")))
d = [(int(r["stratum"]), float(r["predictor"]), float(r["cpu_seconds_weighed"])) for r in rows]
H = max(h for h, _, _ in d) + 1
W = [1 / H] * H  # strata of equal size
by = [[x for x in d if x[0] == h] for h in range(H)]
n = [len(b) for b in by]
R = [sum(y for _, _, y in b) / sum(x for _, x, _ in b) for b in by]
xbar = [st.mean(x for _, x, _ in b) for b in by]  # the counted draws' mean stands for x̄_h
T = sum(W[h] * R[h] * xbar[h] for h in range(H))
second = sum(W[h] ** 2 * sum((y - R[h] * x) ** 2 for _, x, y in by[h]) / (n[h] - 1) / n[h] for h in range(H))
rel = second / T / T
weight = [W[h] * xbar[h] / sum(x for _, x, _ in by[h]) for h in range(H)]
C = 10
df = len(d) - H


def f95(d1, d2, z=1.6448536):
    a, b = 2 / (9 * d1), 2 / (9 * d2)
    qa, qb, qc = (1 - b) ** 2 - z * z * b, -2 * (1 - a) * (1 - b), (1 - a) ** 2 - z * z * a
    return ((-qb + math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)) ** 3


def parts(order, weighted):
    f = []
    for c in range(C):
        p = order[c * len(order) // C:(c + 1) * len(order) // C]
        e = [weight[h] if weighted else 1.0 for h, _, _ in p]
        y = sum(w * yy for w, (h, x, yy) in zip(e, p))
        fit = sum(w * R[h] * x for w, (h, x, yy) in zip(e, p))
        f.append(y / fit)
    return st.variance(f) / C


print(f"{len(d)} draws in {H} strata {n}; estimate {T:.2f} s a unit; second phase's relative variance {rel:.6f} (s.e. {math.sqrt(rel):.2%}); df {df}, F(0.95; 9, {df}) = {f95(9, df):.3f}")
random.seed(1)
for weighted in (False, True):
    vs = []
    for _ in range(4000):
        o = d[:]
        random.shuffle(o)
        vs.append(parts(o, weighted))
    name = "weighted  " if weighted else "unweighted"
    print(f"{name}: mean parts/CHUNKS {st.mean(vs):.6f} = {st.mean(vs) / rel:.3f} x analytic; wider than analytic in {sum(v > rel for v in vs) / len(vs):.1%}; past the F bar in {sum(v > f95(9, df) * rel for v in vs) / len(vs):.1%}")
print(f"in the order drawn: unweighted {parts(d, False) / rel:.3f} x, weighted {parts(d, True) / rel:.3f} x")
