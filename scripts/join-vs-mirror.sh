#!/usr/bin/env bash
# Join against mirror, side by side in one run, alternating join mirror join mirror ... per n.
# Usage: scripts/join-vs-mirror.sh FIRST LAST RUNS THREADS > results/DATE-TOPIC/FILE.csv
#   e.g. scripts/join-vs-mirror.sh 12 18 3 2 > results/2026-11-29-join/2026-11-29-join-vs-mirror.csv
# Prerequisite: cargo build --release. Writes long-format CSV (one row per run) on stdout:
# n,algorithm,threads,run,wall_seconds,user_seconds,max_rss_kib; the first run of each pair
# is a warm-up and is not written. Needs GNU time at /usr/bin/time.
set -euo pipefail
usage="usage: scripts/join-vs-mirror.sh FIRST LAST RUNS THREADS > FILE.csv (needs /usr/bin/time; NQUEENS overrides the binary)"
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
[ $# -eq 4 ] || { echo "$usage" >&2; exit 2; }
first=$1 last=$2 runs=$3 threads=$4
source "$(dirname "$0")/lib.sh"
bin=$(nqueens_bin)
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
echo "n,algorithm,threads,run,wall_seconds,user_seconds,max_rss_kib"
for ((n = first; n <= last; n++)); do
  for ((i = 0; i <= runs; i++)); do
    for alg in join mirror; do
      /usr/bin/time -f "%e %U %M" -o "$tmp" "$bin" count "$n" --algorithm "$alg" --threads "$threads" >/dev/null
      ((i == 0)) && continue
      read -r wall user rss <"$tmp"
      echo "$n,$alg,$threads,$i,$wall,$user,$rss"
    done
  done
done
