#!/usr/bin/env bash
# Thread scaling of one board size: 1, 2, ... up to twice the logical CPUs.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/scaling-threads.sh N [REPEATS]

Counts board size N with 1, 2, ..., 2 x (logical CPUs) threads, REPEATS times each (default 3),
and appends one CSV row per run (long format) to OUT/scaling-threads.csv:
  date,host,cpu_model,n,threads,algorithm,repeat,seconds,nodes,solutions,efficiency,cores
(cores: the logical CPUs of the machine, which the plot's ideal line stops at.)
Nodes come from `nqueens count --stats` (queen placements of the whole search).

Environment: OUT (default results/<date>-<host>/), NQUEENS (binary; default target/release/nqueens,
built if missing), ALGORITHM (passed to --algorithm; default: the binary's default),
MAX_THREADS (default 2 x logical CPUs).
Example: scripts/scaling-threads.sh 16 5 && cargo run --release -p nqueens-plot -- results/*/scaling-threads.csv
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
header="date,host,cpu_model,n,threads,algorithm,repeat,seconds,nodes,solutions,efficiency,cores"
check_header "$csv" "$header"
host=$(host_name) cpu=$(cpu_model)
for ((t = 1; t <= max; t++)); do
  for ((r = 1; r <= repeats; r++)); do
    row=$("$bin" count "$n" -j "$t" "${algo[@]}" --stats --format csv --progress never)
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$host" "$cpu" "$n" "$t" \
      "$(csv_get algorithm <<<"$row")" "$r" "$(csv_get seconds <<<"$row")" "$(csv_get nodes <<<"$row")" \
      "$(csv_get solutions <<<"$row")" "$(csv_get efficiency <<<"$row")" "$cpus" >>"$csv"
  done
  echo "threads=$t done" >&2
done
echo "$csv"
