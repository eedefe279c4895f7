# Fits of the 101 draws of `plan 28 -j 1 --sample-seconds 300 --seed 3` (88a1932; draws-seed3.csv,
# cpu_seconds_weighed = each unit's estimated time) against predictors from join_sizes PER=8
# (halves-seed3.csv). python3 fit.py > fit.txt
import csv,numpy as np,sys
d={int(r['group']):r for r in csv.DictReader(open('draws-seed3.csv'))}
e={int(r['unit']):r for r in csv.DictReader(open('halves-seed3.csv'))}
ks=[k for k in d if k in e]
t=np.array([float(d[k]['cpu_seconds_weighed']) for k in ks]); y=np.log(t)
g=lambda c: np.array([float(e[k][c]) for k in ks])
pe,pw,he,hw=g('pairs_east'),g('pairs_west'),g('halves_east'),g('halves_west')
def r2(x):
  x=np.log(x); A=np.vstack([x,np.ones_like(x)]).T; c=np.linalg.lstsq(A,y,rcond=None)[0]; yy=A@c; return 'slope %.3f R2 %.3f' % (c[0], 1-((y-yy)**2).sum()/((y-y.mean())**2).sum())
print('log unit time (101 draws of plan 28 seed 3) against log of:')
for nm,x in [('P sum (pairs, the old predictor)',pe+pw),('H sum',he+hw+1),('H prod (the new predictor)',he*hw+1),('P prod',pe*pw)]: print('  ',nm,r2(x))
# linear fit t = a*(pe+pw) + b*he*hw
A=np.vstack([(pe+pw)/1e9,he*hw/1e15]).T; c=np.linalg.lstsq(A,t,rcond=None)[0]; print('linear t = a*P/1e9 + b*HH/1e15: a %.1f b %.1f R2 %.3f' % (c[0], c[1], 1-((t-A@c)**2).sum()/((t-t.mean())**2).sum()))
x=A@c; print('log fit of that combination:', r2(np.maximum(x,0.1)))
# population weights for each draw: stratum W / k_h (old strata)
st=np.array([int(d[k]['stratum']) for k in ks]); kh=np.bincount(st); w=1.0/8/kh[st]
def strat_var(x, H=8, n=101, p=1.0):
  x=x**p
  o=np.argsort(x); cw=np.cumsum(w[o]); lab=np.minimum((cw*H/cw[-1]-1e-9).astype(int),H-1)
  tot=0; V=0; Wh=[];Sh=[]
  mean=(w*t).sum()/w.sum()
  for h in range(H):
    m=o[lab==h]; ww=w[m]/w[m].sum(); tt=t[m]; xx=x[m]
    R=(ww*tt).sum()/(ww*xx).sum(); res=tt-R*xx
    S2=(ww*res**2).sum()
    Wh.append(w[m].sum()/w.sum()); Sh.append(np.sqrt(S2))
  Wh=np.array(Wh);Sh=np.array(Sh)
  V=(Wh*Sh).sum()**2/n   # Neyman
  return V/mean**2
for nm,x in [('P sum',pe+pw),('H prod',he*hw+1),('P prod',pe*pw)]:
  for p in [0.5,1.0,1.5,2.0,2.8]:
    print('8 strata by %s^%.1f: relative variance of 101 Neyman draws %.5f' % (nm, p, strat_var(x,p=p)))
print('--- combos')
for kap in [0, 1e5, 3e5, 1e6, 3e6, 1e7,3e7]:
  print('k %.0e: strata by HH+k*P %.5f, by HH+k*H %.5f; log fit of HH+k*P: %s' % (kap, strat_var(he*hw+kap*(pe+pw)), strat_var(he*hw+kap*(he+hw)), r2(he*hw+kap*(pe+pw)+1)))
