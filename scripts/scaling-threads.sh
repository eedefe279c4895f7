#!/usr/bin/env bash
# Thread scaling of one board size: 1, 2, ... up to twice the logical CPUs.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/scaling-threads.sh N [REPEATS]

Counts board size N with 1, 2, ..., 2 x (logical CPUs) threads, in REPEATS rounds (default 3),
each round every thread count once, one thread first, and appends one CSV row per run (long
format) to OUT/scaling-threads.csv:
  date,host,cpu_model,n,threads,algorithm,repeat,seconds,nodes,solutions,efficiency,cores,speedup,scaling_efficiency
- efficiency: the binary's CPU time / (wall time x threads) of that run (--stats);
- speedup: the one-thread seconds of the same round / this run's seconds, so the baseline is
  measured side by side with every run (at one thread it is 1 by construction);
  scaling_efficiency = speedup / threads;
- cores: the logical CPUs of the machine, which the plot's ideal line stops at.
Nodes come from `nqueens count --stats` (queen placements of the whole search). A one-thread run
under 2 seconds measures noise more than scaling: it is said on stderr (pick a larger N:
the join needs n >= 19 for a few seconds, d4 n >= 17, mirror n >= 16).

Environment: OUT (default target/studies/<date>-<host>/), NQUEENS (binary; default
target/release/nqueens, built if missing), ALGORITHM (passed to --algorithm; default: the
binary's default), MAX_THREADS (default 2 x logical CPUs).
Example: scripts/scaling-threads.sh 19 3 && cargo run --release -p nqueens-plot -- target/studies/*/scaling-threads.csv
HELP
}
[ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] && { usage; exit 0; }
[ $# -ge 1 ] && [ $# -le 2 ] || { usage >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
n=$1 repeats=${2:-3}
[[ "$n" =~ ^[0-9]+$ ]] || { echo "scaling-threads.sh: N '$n' is not an integer" >&2; exit 2; }
is_positive_int "$repeats" || { echo "scaling-threads.sh: REPEATS '$repeats' is not a positive integer" >&2; exit 2; }
bin=$(nqueens_bin)
dir=$(out_dir)
csv="$dir/scaling-threads.csv"
cpus=$(nproc)
max=${MAX_THREADS:-$((2 * cpus))}
algo=()
[ -n "${ALGORITHM:-}" ] && algo=(--algorithm "$ALGORITHM")
header="date,host,cpu_model,n,threads,algorithm,repeat,seconds,nodes,solutions,efficiency,cores,speedup,scaling_efficiency"
check_header "$csv" "$header"
host=$(host_name) cpu=$(cpu_model)
warned=""
for ((r = 1; r <= repeats; r++)); do
  base=""
  for ((t = 1; t <= max; t++)); do
    row=$("$bin" count "$n" -j "$t" "${algo[@]}" --stats --format csv --progress never)
    seconds=$(csv_get seconds <<<"$row")
    [ -n "$base" ] || base=$seconds
    if [ "$t" -eq 1 ] && [ -z "$warned" ] && awk -v s="$seconds" 'BEGIN { exit !(s < 2) }'; then
      echo "scaling-threads.sh: n = $n takes $seconds s on one thread: under 2 s the study measures noise more than scaling; pick a larger N" >&2
      warned=1
    fi
    speedup=$(awk -v b="$base" -v s="$seconds" -v t="$t" 'BEGIN { printf "%.4f,%.4f", b / s, b / s / t }')
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$host" "$cpu" "$n" "$t" \
      "$(csv_get algorithm <<<"$row")" "$r" "$seconds" "$(csv_get nodes <<<"$row")" \
      "$(csv_get solutions <<<"$row")" "$(csv_get efficiency <<<"$row")" "$cpus" "$speedup" >>"$csv"
  done
  echo "round $r of $repeats done" >&2
done
echo "$csv"
