#!/bin/bash
# Device call 2 (issue 42): k2/k2s (a lane takes its next task inside the search loop) against
# k1s (call 1's best at n = 20), then Q(22) with the best if its estimate fits. Deadline-bound.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
export NQUEENS_GPU_LOG=1
O=${OUT:-/tmp/o}; mkdir -p $O
T0=$(date +%s); DEADLINE=${DEADLINE:-265}
left() { echo $((DEADLINE - ($(date +%s) - T0))); }
echo "label,rows,n,seconds,verified,rc" > $O/ab.csv
t() { # label rows n limit [args]
  local label=$1 rows=$2 n=$3 lim=$4; shift 4
  [ "$(left)" -gt "$lim" ] || { echo "$label,$rows,$n,skipped (deadline),," | tee -a $O/ab.csv; return 1; }
  echo "## $label rows=$rows count $n $*" >> $O/log.txt
  local line rc
  line=$(NQUEENS_GPU_TASK_ROWS=$rows timeout $lim ./$label count $n --device cuda --verify --format json "$@" 2>>$O/log.txt); rc=$?
  echo "$line" >> $O/log.txt
  local s=$(grep -o '"seconds":[0-9.e+-]*' <<<"$line" | cut -d: -f2) v=$(grep -o '"verified":[a-z]*' <<<"$line" | cut -d: -f2)
  echo "$label,$rows,$n,$s,$v,$rc" | tee -a $O/ab.csv
}
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; for b in k1s k2 k2s; do ./$b --version | head -1; done; } > $O/devices.txt
for b in k2 k2s; do
  ./$b count 0..17 --device cuda --verify --format json > $O/verify-$b.json 2>>$O/log.txt; echo "$b 0..17 rc=$? verified=$(grep -c '"verified":true' $O/verify-$b.json)/18" | tee -a $O/ab.csv
  echo "$b 18 --stats $(./$b count 18 --device cuda --verify --stats --format json 2>>$O/log.txt | grep -o '"nodes":[0-9]*\|"seconds":[0-9.]*\|"verified":[a-z]*' | tr '\n' ' ')" | tee -a $O/ab.csv
done
for r in 1 2; do for b in k1s k2 k2s; do t $b 12 20 30; done; done
best=; bests=999999
for b in k2s k2; do
  t $b 13 21 45
  s=$(tail -1 $O/ab.csv | cut -d, -f4)
  [ -n "$s" ] && awk "BEGIN{exit !($s < $bests)}" && { bests=$s; best=$b; }
done
echo "best at 21 (13 rows): $best ($bests s)" | tee -a $O/ab.csv
est=$(awk "BEGIN{printf \"%d\", $bests * 8.3 + 15}")
echo "Q(22) estimate ${est} s, $(left) s left" | tee -a $O/ab.csv
[ -n "$best" ] && t $best 13 22 $(( $(left) - 3 ))
echo "done after $(( $(date +%s) - T0 )) s" | tee -a $O/ab.csv
