# Which cheap predictor of a join unit's time leaves the least spread for the ratio estimator:
# the quarter-list pair counts (what the plan weighs by) against the half-board counts.
# usage: python3 predictors.py   (reads the CSVs beside it)
import os
DIR = os.path.dirname(os.path.abspath(__file__))
import csv,math,numpy as np
def power(n): return 1.48+0.19*(n-24)
for n in (26,27):
    S={r['unit']:r for r in csv.DictReader(open(f'{DIR}/sizes-{n}.csv'))}
    P=list(csv.DictReader(open(f'{DIR}/prof-{n}.csv')))
    pe=np.array([float(S[r['unit']]['pairs_east']) for r in P]); pw=np.array([float(S[r['unit']]['pairs_west']) for r in P])
    E=np.array([float(r['east']) for r in P]); W=np.array([float(r['west']) for r in P])
    y=np.array([float(r['seconds']) for r in P]); 
    sol=np.array([float(r['solutions']) for r in P])
    setup=np.array([float(r['setup_s']) for r in P]); match=np.array([float(r['match_s']) for r in P]); sort=np.array([float(r['sort_s']) for r in P])
    def res(x,y):
        R=y.sum()/x.sum(); return (y-R*x).std(ddof=1)/y.mean()
    def loo(y,feats):
        N=len(y);X=np.column_stack([np.ones(N)]+feats);ly=np.log(y);pr=np.zeros(N)
        for i in range(N):
            m=np.arange(N)!=i;b,*_=np.linalg.lstsq(X[m],ly[m],rcond=None);pr[i]=math.exp(X[i]@b)
        return pr
    print(n,len(y),'CV y %.2f'%(y.std()/y.mean()))
    print(' pairs^p %.2f'%res(1+(pe+pw)**power(n),y), ' E+W %.2f'%res(E+W,y), ' loo(logE,logW) %.2f'%res(loo(y,[np.log(E+1),np.log(W+1)]),y),
          ' loo(log(E+W)) %.2f'%res(loo(y,[np.log(E+W)]),y), ' (E+W)^1.3 %.2f'%res((E+W)**1.3,y), 'E*W %.2f'%res(E*W,y))
    print(' sols: pairs^p %.2f E+W %.2f loo %.2f EW %.2f'%(res(1+(pe+pw)**power(n),sol),res(E+W,sol),res(loo(sol,[np.log(E+1),np.log(W+1)]),sol),res(E*W,sol)))
    print(' frac halves/pairs: min %.3f med %.3f max %.3f'%(np.min((E+W)/(pe+pw)),np.median((E+W)/(pe+pw)),np.max((E+W)/(pe+pw))))
    print(' shares of time: setup %.2f sort %.2f match %.2f'%(setup.sum()/y.sum(),sort.sum()/y.sum(),match.sum()/y.sum()))
