# The relative variance of one draw of `plan 28` within 8 strata, by the predictor's power p
# and the draws' allocation n_h ∝ W_h · x̄_h^a, over the 101 units `plan 28 -j 1
# --sample-seconds 300 --seed 3` drew at 88a1932 (../2026-12-05-plan-predictor/draws-seed3.csv:
# each unit's time estimated from its share), with the half-boards of each estimate file.
# The strata are cut by rank of the predictor, each draw weighted by 1/(its old stratum's
# draws), the ratio estimator applied within each stratum. "neyman" takes n_h ∝ W_h·S_h, the
# strata's own spreads (the optimum, not known before the draws).
# python3 allocation.py halves-*.csv > allocation.txt
import csv, sys
import numpy as np
d = {int(r['group']): r for r in csv.DictReader(open('../2026-12-05-plan-predictor/draws-seed3.csv'))}
ref = {int(r['unit']): r for r in csv.DictReader(open('halves-reference.csv'))}
for f in sys.argv[1:]:
    e = {int(r['unit']): r for r in csv.DictReader(open(f))}
    ks = [k for k in d if k in e]
    t = np.array([float(d[k]['cpu_seconds_weighed']) for k in ks])
    g = lambda c: np.array([float(e[k][c]) for k in ks])
    hh = g('halves_east') * g('halves_west') + 1
    hr = np.array([float(ref[k]['halves_east']) * float(ref[k]['halves_west']) + 1 for k in ks])
    st = np.array([int(d[k]['stratum']) for k in ks]); kh = np.bincount(st); w = 1.0 / 8 / kh[st]
    mean = (w * t).sum() / w.sum()
    def var(x, p, a, H=8):
        x = x ** p; o = np.argsort(x); cw = np.cumsum(w[o])
        lab = np.minimum((cw * H / cw[-1] - 1e-9).astype(int), H - 1)
        Wh, Sh, Xh = [], [], []
        for h in range(H):
            m = o[lab == h]; ww = w[m] / w[m].sum()
            R = (ww * t[m]).sum() / (ww * x[m]).sum(); res = t[m] - R * x[m]
            Wh.append(w[m].sum() / w.sum()); Sh.append(np.sqrt((ww * res ** 2).sum() * len(m) / max(len(m) - 1, 1)))
            Xh.append((ww * x[m]).sum())
        Wh, Sh, Xh = map(np.array, (Wh, Sh, Xh))
        nh = Wh * Sh if a == 'neyman' else Wh * Xh ** a
        nh = nh / nh.sum()
        return (Wh ** 2 * Sh ** 2 / nh).sum() / mean ** 2
    lx, ly = np.log(hh), np.log(t)
    A = np.vstack([lx, np.ones_like(lx)]).T; c = np.linalg.lstsq(A, ly, rcond=None)[0]
    r2 = 1 - ((ly - A @ c) ** 2).sum() / ((ly - ly.mean()) ** 2).sum()
    err = hh / hr - 1
    secs = np.mean([float(e[k]['estimate_seconds']) for k in ks])
    print(f'{f}: {secs:.4f} s a unit; product against halves-reference.csv: rms {100 * np.sqrt((err ** 2).mean()):.1f}%, '
          f'max {100 * abs(err).max():.0f}%; log t on log product: slope {c[0]:.2f}, R2 {r2:.3f}')
    for p in [1.0, 1.5, 1.8, 2.2]:
        row = ' '.join(f'a={a}: {var(hh, p, a):.3f}' for a in [0.5, 0.7, 1.0])
        print(f'  power {p}: {row}  neyman: {var(hh, p, "neyman"):.3f}')
