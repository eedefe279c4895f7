#!/usr/bin/env bash
# Time and nodes per board size, with the growth factor from n-1 to n.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/scaling-n.sh MIN MAX

Counts each board size MIN..MAX once with --stats and appends one CSV row per n to
OUT/scaling-n.csv:
  date,host,cpu_model,n,threads,algorithm,seconds,nodes,solutions,seconds_growth,nodes_growth
The growth columns are the ratio to the previous n of this run (empty for the first).

Environment: OUT (default results/<date>-<host>/), NQUEENS (binary), ALGORITHM (--algorithm),
THREADS (--threads; default all logical CPUs).
Example: scripts/scaling-n.sh 8 17
HELP
}
[ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] && { usage; exit 0; }
[ $# -eq 2 ] || { usage >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
min=$1 max=$2
[[ "$min" =~ ^[0-9]+$ && "$max" =~ ^[0-9]+$ ]] || { echo "scaling-n.sh: MIN '$min' and MAX '$max' must be integers" >&2; exit 2; }
[ "$min" -le "$max" ] || { echo "scaling-n.sh: range $min..$max is reversed: use MIN <= MAX" >&2; exit 2; }
bin=$(nqueens_bin)
dir=$(out_dir)
csv="$dir/scaling-n.csv"
threads=${THREADS:-$(nproc)}
algo=()
[ -n "${ALGORITHM:-}" ] && algo=(--algorithm "$ALGORITHM")
[ -s "$csv" ] || echo "date,host,cpu_model,n,threads,algorithm,seconds,nodes,solutions,seconds_growth,nodes_growth" >"$csv"
host=$(host_name) cpu=$(cpu_model)
prev_s="" prev_nodes=""
for ((n = min; n <= max; n++)); do
  row=$("$bin" count "$n" -j "$threads" "${algo[@]}" --stats --format csv --progress never)
  s=$(csv_get seconds <<<"$row") nodes=$(csv_get nodes <<<"$row")
  gs="" gn=""
  if [ -n "$prev_s" ]; then
    gs=$(awk -v a="$s" -v b="$prev_s" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
    gn=$(awk -v a="$nodes" -v b="$prev_nodes" 'BEGIN { if (b > 0) printf "%.3f", a / b }')
  fi
  printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$host" "$cpu" "$n" "$threads" \
    "$(csv_get algorithm <<<"$row")" "$s" "$nodes" "$(csv_get solutions <<<"$row")" "$gs" "$gn" >>"$csv"
  prev_s=$s prev_nodes=$nodes
  echo "n=$n done" >&2
done
echo "$csv"
