#!/bin/bash
# The precision line checked at one board: `plan N -j 1 --sample-seconds BUDGET --seed S` for
# each seed, one CSV row each: n, budget, seed, groups timed, the CPU interval's relative
# half-width, the relative standard error, and the --sample-seconds the plan says would narrow
# it to ±15% (empty when it is that narrow already).
# usage: NQ=target/release/nqueens precision.sh N BUDGET SEEDS... >> rows.csv
NQ=${NQ:-target/release/nqueens}
N=$1; B=$2; shift 2
for s in "$@"; do
  "$NQ" plan "$N" -j 1 --sample-seconds "$B" --seed "$s" --format json | python3 -c "
import json,sys; v=json.load(sys.stdin); c=v['cpu_seconds']
print('$N,$B,$s,%d,%.4f,%.4f,%s'%(v['timed'],v['cpu_seconds_high']/c-1,v['cpu_seconds_std_error']/c,v['sample_seconds_for_precision'] or ''))"
done
