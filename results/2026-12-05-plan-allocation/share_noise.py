# The spread of a share-counted draw of one unit: 11 units of `plan 28 --seed 3`'s draws
# (../2026-12-05-plan-predictor/draws-seed3.csv, every ninth by time), each counted 4 times in
# the share the sample gives it (0.5 s over its estimated time) with seeds 7-10:
# ONLY=U join_share_bias 28 1 1 S S S S. python3 share_noise.py > share_noise.txt
import csv
import numpy as np
for f in ['share-noise-d7897e5.csv', 'share-noise-equal-batches.csv']:
    rows = list(csv.DictReader(open(f)))
    rv = []
    print(f)
    for u in dict.fromkeys(r['unit'] for r in rows):
        e = np.array([float(r['estimate_s']) for r in rows if r['unit'] == u])
        s = np.array([float(r['spent_s']) for r in rows if r['unit'] == u])
        rv.append((e.std(ddof=1) / e.mean()) ** 2)
        print(f'  unit {u}: estimates {", ".join(f"{x:.1f}" for x in e)} s; spent {s.mean():.2f} s a draw')
    print(f'  mean relative variance of a draw within a unit: {np.mean(rv):.3f}')
