# What the precision line would have said of the plan 28 -j 1 --sample-seconds 300 runs of
# results/2026-12-04-plan-spells/ and -plan-units/ (their JSON has no df: Student t taken as 1.96
# for the projection). usage: python3 projection-300s.py FILE.json...
import json,sys,glob,math
def t975(df):
    T=[12.706,4.303,3.182,2.776,2.571,2.447,2.365,2.306,2.262,2.228,2.201,2.179,2.160,2.145,2.131,2.120,2.110,2.101,2.093,2.086,2.080,2.074,2.069,2.064,2.060,2.056,2.052,2.048,2.045,2.042]
    return 1.96 if df==0 else (T[df-1] if df<=30 else 1.96+2.4/df)
for f in sys.argv[1:]:
    try: v=json.loads(open(f).read().strip().splitlines()[-1])
    except Exception as e: continue
    if not v.get('cpu_seconds'): continue
    c=v['cpu_seconds'];se=v['cpu_seconds_std_error'];hi=v['cpu_seconds_high'];sp=max(v.get('speed_spread') or 0,0.05)
    t=(hi-c)/math.sqrt(se**2+(sp*c)**2)
    target=0.15*c
    def half(fac): 
        return 1.96*math.sqrt(se**2/fac+(sp*c)**2)
    lo,h=1,1
    while half(h)>target: h*=2
    for _ in range(60):
        m=(lo+h)/2
        if half(m)>target: lo=m
        else: h=m
    print(f"{f.split('/')[-1]:60s} units {v.get('timed')} se {se/c:.3f} ±{(hi-c)/c:.0%} t {t:.2f} factor {h:.1f} -> {300*h:.0f} s")
