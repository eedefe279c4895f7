#!/usr/bin/env bash
# How often the 95% intervals of `nqueens plan` hold the truth (issue 39). For each board N:
# `nqueens plan N` with seeds 1..SEEDS (the sample on THREADS threads for S CPU seconds each, one
# plan at a time), and, for N <= CPU_MAX (default 20), COUNTS whole counts `nqueens count N -j
# THREADS`, timed (user + sys, setup included) and spread among the plans (one before the first,
# one after the last, the others between), whose median is the CPU time the interval must hold.
# The solutions interval is checked against A000170 (the binary's table, n <= 27).
# Usage: scripts/plan-coverage.sh [--bin PATH] [--sample S] [--seeds K] [--counts C]
#                                 [--threads T] [--cpu-max N] [--out DIR] N...
# Writes DIR/coverage.csv (one row per plan: date, host, cpu, bin, n, seed, sample_s, threads,
# sampled, cpu_s, cpu_low, cpu_high, count_cpu_s, cpu_held, solutions, solutions_low,
# solutions_high, known, solutions_held, plan_wall_s, other_load: the CPUs other processes kept
# busy during the sample, where the binary says), DIR/counts.csv (one row per whole count)
# and DIR/summary.md (per n: intervals that held, of the seeds); DIR defaults to
# target/plan-coverage/<date>-<host>/ (never results/: copy what a person curates there).
# A plan whose JSON has no `cpu_seconds_low` (an older binary) is taken as estimate ± 2 standard
# errors, which is what such a binary printed as its 95% interval; one without `solutions` leaves
# the solutions columns empty. Needs python3 (the counts are timed by getrusage).
set -euo pipefail
usage="usage: scripts/plan-coverage.sh [--bin PATH] [--sample S] [--seeds K] [--counts C] [--threads T] [--cpu-max N] [--out DIR] N..."
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
source "$(dirname "$0")/lib.sh"
bin=""; sample=5; seeds=20; counts=3; threads=1; cpu_max=20; out=""
positive() { is_positive_int "${2:-}" || { echo "plan-coverage.sh: $1 takes a positive integer, got '${2:-}'" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=${2:?$usage}; shift 2 ;;
    --sample) [[ "${2:-}" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "plan-coverage.sh: --sample takes seconds (a number), got '${2:-}'" >&2; exit 2; }; sample=$2; shift 2 ;;
    --seeds) positive "$1" "${2:-}"; seeds=$2; shift 2 ;;
    --counts) positive "$1" "${2:-}"; counts=$2; shift 2 ;;
    --threads) positive "$1" "${2:-}"; threads=$2; shift 2 ;;
    --cpu-max) [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "plan-coverage.sh: --cpu-max takes a board size, got '${2:-}'" >&2; exit 2; }; cpu_max=$2; shift 2 ;;
    --out) out=${2:?$usage}; shift 2 ;;
    -*) echo "plan-coverage.sh: unknown option '$1'; $usage" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
for n in "$@"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "plan-coverage.sh: board size '$n' is not an integer" >&2; exit 2; }
done
[ -n "$bin" ] || bin=$(nqueens_bin)
[ -x "$bin" ] || { echo "plan-coverage.sh: '$bin' is not an executable (cargo build --release first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "plan-coverage.sh: needs python3 (to time the counts by getrusage)" >&2; exit 2; }
out=${out:-$repo_root/target/plan-coverage/$(date -u +%Y-%m-%d)-$(host_name)}
mkdir -p "$out"
host=$(host_name); cpu=$(cpu_model)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check_header "$out/coverage.csv" "date,host,cpu,bin,n,seed,sample_s,threads,sampled,cpu_s,cpu_low,cpu_high,count_cpu_s,cpu_held,solutions,solutions_low,solutions_high,known,solutions_held,plan_wall_s,other_load"
check_header "$out/counts.csv" "date,host,cpu,bin,n,threads,repeat,cpu_s,wall_s"
# field NAME: the number (or null) NAME has in the plan's JSON.
field() { { grep -o "\"$1\":[^,}]*" "$tmp/plan" || true; } | head -1 | cut -d: -f2; }
# A000170(n) from the binary itself (its OEIS table; --verify fails the count of a wrong value).
known() { [ "$1" -le 27 ] && awk -v n="$1" '$1 == n { print $2 }' "$repo_root/tests/data/b000170.txt" 2>/dev/null || true; }
# cpu_time CMD...: runs CMD (stdout discarded) and prints its user + sys and wall seconds, by
# getrusage to the microsecond (GNU time rounds to 10 ms, a tenth of a count of n = 16).
cpu_time() {
  # (The children before the run are subtracted: a python3 shim's own, such as pyenv's, count
  # as this process's children after its exec.)
  python3 -c 'import resource, subprocess, sys, time
cpu = lambda: (lambda r: r.ru_utime + r.ru_stime)(resource.getrusage(resource.RUSAGE_CHILDREN))
c, t = cpu(), time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print("%.4f %.4f" % (cpu() - c, time.monotonic() - t))' "$@"
}
count_once() {
  local n=$1 repeat=$2 cpu_s wall
  read -r cpu_s wall < <(cpu_time "$bin" count "$n" -j "$threads" --progress never)
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$host,$cpu,$bin,$n,$threads,$repeat,$cpu_s,$wall" >>"$out/counts.csv"
  echo "$cpu_s" >>"$tmp/counts-$n"
}
for n in "$@"; do
  : >"$tmp/rows-$n"; : >"$tmp/counts-$n"
  timed=$([ "$n" -le "$cpu_max" ] && echo 1 || echo 0)
  # The seeds after which a count runs: 0 (before the first), then evenly, the last after all.
  declare -A count_after=()
  if [ "$timed" = 1 ]; then
    for ((r = 0; r < counts; r++)); do
      at=$(( counts == 1 ? 0 : r * seeds / (counts - 1) ))
      count_after[$at]=$(( ${count_after[$at]:-0} + 1 ))
    done
  fi
  repeat=0
  for ((seed = 0; seed <= seeds; seed++)); do
    for ((c = 0; c < ${count_after[$seed]:-0}; c++)); do repeat=$((repeat + 1)); count_once "$n" "$repeat"; done
    [ "$seed" -ge 1 ] || continue
    start=$(date +%s.%N)
    "$bin" plan "$n" --sample-seconds "$sample" -j "$threads" --seed "$seed" --format json >"$tmp/plan"
    wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    est=$(field cpu_seconds); se=$(field cpu_seconds_std_error)
    lo=$(field cpu_seconds_low); hi=$(field cpu_seconds_high)
    if [ -z "$lo" ] || [ "$lo" = null ]; then
      lo=$(awk -v e="$est" -v s="$se" 'BEGIN { printf "%.4f", e - 2 * s }')
      hi=$(awk -v e="$est" -v s="$se" 'BEGIN { printf "%.4f", e + 2 * s }')
    fi
    sol=$(field solutions); slo=$(field solutions_low); shi=$(field solutions_high)
    [ "$sol" != null ] || sol=""
    [ "$slo" != null ] || slo=""
    [ "$shi" != null ] || shi=""
    load=$(field other_load_cpus); [ "$load" != null ] || load=""
    echo "$seed,$(field sampled),$est,$lo,$hi,$sol,$slo,$shi,$wall,$load" >>"$tmp/rows-$n"
  done
  unset count_after
  truth=$(sort -g "$tmp/counts-$n" | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
  q=$(known "$n")
  while IFS=, read -r seed sampled est lo hi sol slo shi wall load; do
    awk -v d="$(date -u +%Y-%m-%dT%H:%M:%SZ)" -v h="$host" -v c="$cpu" -v b="$bin" -v n="$n" -v seed="$seed" \
      -v s="$sample" -v t="$threads" -v m="$sampled" -v e="$est" -v lo="$lo" -v hi="$hi" -v x="$truth" \
      -v sol="$sol" -v slo="$slo" -v shi="$shi" -v q="$q" -v w="$wall" -v l="$load" 'BEGIN {
        held = (x == "" ? "" : (lo + 0 <= x + 0 && x + 0 <= hi + 0 ? 1 : 0))
        # Solutions to 17 significant digits are compared as printed (doubles; Q(n) <= 2.4e17).
        sheld = (sol == "" || q == "" ? "" : (slo + 0 <= q + 0 && q + 0 <= shi + 0 ? 1 : 0))
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", d, h, c, b, n, seed, s, t, m, e, lo, hi, x, held, sol, slo, shi, q, sheld, w, l }' >>"$out/coverage.csv"
  done <"$tmp/rows-$n"
done
# The summary over every row of coverage.csv (earlier runs into the same DIR included).
awk -F, 'NR > 1 {
    n = $5; seen[n] = 1; plans[n]++
    if ($14 != "") { cpu[n] += $14; cpun[n]++; truth[n] = $13 }
    if ($19 != "") { sol[n] += $19; soln[n]++ }
    est[n, plans[n]] = $10
  }
  END {
    print "| n | plans | CPU s (median of the counts) | CPU intervals that held | solutions intervals that held |"
    print "|---|---|---|---|---|"
    for (n = 0; n <= 64; n++) if (n in seen)
      printf "| %d | %d | %s | %s | %s |\n", n, plans[n], (n in truth ? truth[n] : "-"),
        (n in cpun ? cpu[n] "/" cpun[n] : "-"), (n in soln ? sol[n] "/" soln[n] : "-")
  }' "$out/coverage.csv" >"$out/summary.md"
cat "$out/summary.md"
