#!/usr/bin/env bash
# The plan's CPU-time estimate against the whole count it estimates, on this machine: for each
# board N, `nqueens plan N` with SEEDS seeds (the sample on THREADS threads for S CPU seconds
# each), then `nqueens count N -j 1` once, timed (user + sys, setup included).
# Usage: scripts/plan-accuracy.sh [--bin PATH] [--sample S] [--seeds K] [--threads T]
#                                 [--algorithm A] N... > FILE.csv
# Writes CSV on stdout, one row per plan: date, host, cpu, n, algorithm, seed, sample_s,
# threads, sampled, strata, estimate_s, std_error_s, count_cpu_s, ratio (estimate / count),
# z ((estimate - count) / std_error). Needs GNU time at /usr/bin/time.
set -euo pipefail
usage="usage: scripts/plan-accuracy.sh [--bin PATH] [--sample S] [--seeds K] [--threads T] [--algorithm A] N..."
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
bin=target/release/nqueens; sample=2; seeds=3; threads=1; algorithm=auto
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=${2:?$usage}; shift 2 ;;
    --sample) sample=${2:?$usage}; shift 2 ;;
    --seeds) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "plan-accuracy.sh: --seeds takes a positive integer, got '${2:-}'" >&2; exit 2; }; seeds=$2; shift 2 ;;
    --threads) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "plan-accuracy.sh: --threads takes a positive integer, got '${2:-}'" >&2; exit 2; }; threads=$2; shift 2 ;;
    --algorithm) algorithm=${2:?$usage}; shift 2 ;;
    -*) echo "plan-accuracy.sh: unknown option '$1'; $usage" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
[ -x "$bin" ] || { echo "plan-accuracy.sh: '$bin' is not an executable (cargo build --release first)" >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
host=$(host_name); cpu=$(cpu_model)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "date,host,cpu,n,algorithm,seed,sample_s,threads,sampled,strata,estimate_s,std_error_s,count_cpu_s,ratio,z"
field() { grep -o "\"$1\":[^,}]*" "$tmp/plan" | head -1 | cut -d: -f2; }
for n in "$@"; do
  rows=()
  for ((seed = 1; seed <= seeds; seed++)); do
    "$bin" plan "$n" --algorithm "$algorithm" --sample-seconds "$sample" -j "$threads" --seed "$seed" --format json >"$tmp/plan"
    rows+=("$seed,$(field algorithm | tr -d '"'),$(field sampled),$(field strata),$(field cpu_seconds),$(field cpu_seconds_std_error)")
  done
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$bin" count "$n" --algorithm "$algorithm" -j 1 --progress never >/dev/null
  read -r user sys < <(tail -1 "$tmp/time")
  actual=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  for row in "${rows[@]}"; do
    IFS=, read -r seed alg sampled strata est se <<<"$row"
    awk -v d="$(date -u +%Y-%m-%dT%H:%M:%SZ)" -v h="$host" -v c="$cpu" -v n="$n" -v a="$alg" -v seed="$seed" \
      -v s="$sample" -v t="$threads" -v m="$sampled" -v k="$strata" -v e="$est" -v se="$se" -v x="$actual" \
      'BEGIN { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.2f,%.2f,%.2f,%.3f,%.2f\n", d, h, c, n, a, seed, s, t, m, k, e, se, x, e / x, (se > 0 ? (e - x) / se : 0) }'
  done
done
