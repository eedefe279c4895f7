#!/bin/bash
# Device call 1 (issue 42): the new nq_count (k1: table from global, k1s: table rows in shared)
# against the old one (dc5d97a), then Q(22) with the best. Deadline-bound.
set -u
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
export NQUEENS_GPU_LOG=1
O=${OUT:-/tmp/o}; mkdir -p $O
T0=$(date +%s); DEADLINE=${DEADLINE:-430}
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
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; lscpu | grep 'Model name'; for b in old k1 k1s; do ./$b --version | head -1; done; } > $O/devices.txt
# Correctness of the new kernels: 0..17 against OEIS, and the placements of 18 (NQ_NODES) against the old.
for b in k1 k1s; do
  ./$b count 0..17 --device cuda --verify --format json > $O/verify-$b.json 2>>$O/log.txt; echo "$b 0..17 rc=$? verified=$(grep -c '"verified":true' $O/verify-$b.json)/18" | tee -a $O/ab.csv
done
for b in old k1 k1s; do
  echo "$b 18 --stats $(./$b count 18 --device cuda --verify --stats --format json 2>>$O/log.txt | grep -o '"nodes":[0-9]*\|"seconds":[0-9.]*\|"verified":[a-z]*' | tr '\n' ' ')" | tee -a $O/ab.csv
done
# n = 20, alternating, two rounds.
for r in 1 2; do for b in old k1 k1s; do t $b 12 20 40; done; done
# n = 21: the new kernels at 12 and 13 rows, then the old at 12.
best=; bestrows=; bests=999999
for rows in 13 12; do for b in k1s k1; do
  t $b $rows 21 70
  s=$(tail -1 $O/ab.csv | cut -d, -f4)
  [ -n "$s" ] && awk "BEGIN{exit !($s < $bests)}" && { bests=$s; best=$b; bestrows=$rows; }
done; done
echo "best at 21: $best rows $bestrows ($bests s)" | tee -a $O/ab.csv
# Q(22) with the best (rows at least 13: 12 makes 10^9 tasks, more host work than the goal).
[ -n "$best" ] && { r22=$bestrows; [ "$r22" -lt 13 ] && r22=13; t $best $r22 22 250; }
t old 12 21 60
t $best 14 21 60
echo "done after $(( $(date +%s) - T0 )) s" | tee -a $O/ab.csv
