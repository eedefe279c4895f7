#!/usr/bin/env bash
# Time and nodes per board size, with the growth factor from n-1 to n.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/scaling-n.sh MIN MAX [REPEATS]

Counts each board size MIN..MAX with --stats, REPEATS times (default 1), and appends one CSV row
per run (long format) to OUT/scaling-n.csv:
  date,host,cpu_model,n,threads,algorithm,seconds,nodes,solutions,seconds_growth,nodes_growth,repeat,cores
The growth columns are the ratio to the previous n of the same repeat of this run (empty for the
first n); cores is the machine's logical CPUs.

Environment: OUT (default target/studies/<date>-<host>/), NQUEENS (binary), ALGORITHM (--algorithm),
THREADS (--threads; default all logical CPUs).
Example: scripts/scaling-n.sh 8 17
HELP
}
[ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] && { usage; exit 0; }
[ $# -ge 2 ] && [ $# -le 3 ] || { usage >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
min=$1 max=$2 repeats=${3:-1}
[[ "$min" =~ ^[0-9]+$ && "$max" =~ ^[0-9]+$ ]] || { echo "scaling-n.sh: MIN '$min' and MAX '$max' must be integers" >&2; exit 2; }
[ "$min" -le "$max" ] || { echo "scaling-n.sh: range $min..$max is reversed: use MIN <= MAX" >&2; exit 2; }
is_positive_int "$repeats" || { echo "scaling-n.sh: REPEATS '$repeats' is not a positive integer" >&2; exit 2; }
bin=$(nqueens_bin)
dir=$(out_dir)
csv="$dir/scaling-n.csv"
threads=${THREADS:-$(nproc)}
algo=()
[ -n "${ALGORITHM:-}" ] && algo=(--algorithm "$ALGORITHM")
check_header "$csv" "date,host,cpu_model,n,threads,algorithm,seconds,nodes,solutions,seconds_growth,nodes_growth,repeat,cores"
host=$(host_name) cpu=$(cpu_model)
cpus=$(nproc)
prev_s=() prev_nodes=()
for ((n = min; n <= max; n++)); do
  for ((r = 1; r <= repeats; r++)); do
    row=$("$bin" count "$n" -j "$threads" "${algo[@]}" --stats --format csv --progress never)
    s=$(csv_get seconds <<<"$row") nodes=$(csv_get nodes <<<"$row")
    gs="" gn=""
    if [ -n "${prev_s[r]:-}" ]; then
      gs=$(awk -v a="$s" -v b="${prev_s[r]}" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
      gn=$(awk -v a="$nodes" -v b="${prev_nodes[r]}" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
    fi
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$host" "$cpu" "$n" \
      "$threads" "$(csv_get algorithm <<<"$row")" "$s" "$nodes" "$(csv_get solutions <<<"$row")" "$gs" "$gn" \
      "$r" "$cpus" >>"$csv"
    prev_s[r]=$s prev_nodes[r]=$nodes
  done
  echo "n=$n done" >&2
done
echo "$csv"
