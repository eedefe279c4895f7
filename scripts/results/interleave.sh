#!/usr/bin/env bash
# Interleaved, for results/2026-12-02-plan/: for each of three rounds, `count N -j 1` (user + sys)
# then `plan N` (2 s of sample, seed = round), for N in 18 19 20. CSV on stdout.
# usage: scripts/results/interleave.sh BIN
set -euo pipefail
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: scripts/results/interleave.sh BIN (an nqueens executable)" >&2; exit 2; }
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "round,n,count_cpu_s,estimate_s,std_error_s"
for r in 1 2 3; do
  for n in 18 19 20; do
    /usr/bin/time -f "%U %S" -o "$tmp/t.txt" "$bin" count $n --algorithm join -j 1 --progress never > /dev/null
    read -r u s < "$tmp/t.txt"
    "$bin" plan $n --algorithm join --sample-seconds 2 -j 1 --seed $r --format json > "$tmp/p.json"
    e=$(grep -o '"cpu_seconds":[^,]*' "$tmp/p.json" | cut -d: -f2)
    se=$(grep -o '"cpu_seconds_std_error":[^,]*' "$tmp/p.json" | cut -d: -f2)
    awk -v r=$r -v n=$n -v u=$u -v s=$s -v e=$e -v se=$se 'BEGIN { printf "%d,%d,%.2f,%.2f,%.3f\n", r, n, u + s, e, se }'
  done
done
