import glob,math,statistics as st,sys
truth=float(sys.argv[2]); pat=sys.argv[1]
def load(f):
    N=0;S=[];D=[]
    for line in open(f):
        p=line.split()
        if p[0]=='N': N=int(p[1])
        elif p[0]=='S': S.append((int(p[1]),float(p[2])))
        else: D.append((int(p[1]),float(p[2]),float(p[3])))
    return N,S,D
def est(N,S,D,ratio):
    m=sum(c for c,_ in S); H=len(S)
    parts=[];
    for h in range(H):
        obs=[(x,y) for hh,x,y in D if hh==h]; k=len(obs)
        if k<2: return None
        mh=S[h][0]; W=mh/m; xb=S[h][1]
        sx=sum(x for x,_ in obs); sy=sum(y for _,y in obs); my=sy/k
        if ratio:
            R=sy/sx; yb=R*xb; s2=sum((y-R*x)**2 for x,y in obs)/(k-1)
        else:
            yb=my; s2=sum((y-my)**2 for x,y in obs)/(k-1)
        sy2=sum((y-my)**2 for x,y in obs)/(k-1)
        parts.append((W,yb,s2,sy2,k,mh))
    mean=sum(W*yb for W,yb,*_ in parts)
    second=sum(W*W*s2*max(1/k-1/mh,0) for W,yb,s2,sy2,k,mh in parts)
    between=sum(W*(sy2+(yb-mean)**2) for W,yb,s2,sy2,k,mh in parts)
    first=max(1/m-1/N,0)*between
    return mean*N, N*math.sqrt(second+first), N*math.sqrt(first)
for ratio in (True,False):
    v=[];z=[];held=0;fs=[]
    for f in sorted(glob.glob(pat)):
        N,S,D=load(f)
        r=est(N,S,D,ratio)
        if r is None: continue
        T,se,fse=r; v.append(T/truth); z.append((T-truth)/se); fs.append(fse/se)
        held+= abs(T-truth)<=1.97*se
    print('ratio' if ratio else 'mean ', len(v),'bias',round(st.mean(v)-1,4),'sd',round(st.stdev(v),4),'claimed',round(st.mean([ (x-1)/zz for x,zz in zip(v,z) if zz!=0]),4),'z sd',round(st.stdev(z),3),'z mean',round(st.mean(z),3),'held',held, 'first share of se', round(st.mean(fs),3))
N,S,D=load(sorted(glob.glob(pat))[0]); print('N',N,'m',sum(c for c,_ in S),'k',[sum(1 for d in D if d[0]==h) for h in range(len(S))])
