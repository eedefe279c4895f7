import json,sys,glob
for f in sorted(sys.argv[1:]):
    try: d=json.load(open(f))
    except Exception as e: print(f,'unreadable'); continue
    if d.get('cpu_seconds') is None: print(f,'none'); continue
    t=open(f[:-5]+'.time').read().strip().splitlines()[-1]
    print(f"{f:32s} cy {d['cpu_core_years']:6.1f} se {100*d['cpu_seconds_std_error']/d['cpu_seconds']:5.1f}% ±{100*(d['cpu_seconds_high']-d['cpu_seconds'])/d['cpu_seconds']:5.1f}% units {d['sampled']:4d} weighed {d['weighed']:4d} strata {d['strata']} Q {d['solutions']:.3e} ±{100*(d['solutions_high']-d['solutions'])/d['solutions']:4.1f}% spread {d['speed_spread']:.3f} load {d['other_load_cpus']:.2f} asks {d['sample_seconds_for_precision']} | {t}")
