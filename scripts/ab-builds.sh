#!/usr/bin/env bash
# Two builds of nqueens side by side: the same count on each, alternating, RUNS rounds; for
# before/after figures of one change on one machine.
# Usage: scripts/ab-builds.sh [--runs R] OLD NEW -- ARGS... > FILE.csv
#   OLD, NEW: two nqueens executables (or wrappers: a wrapper can translate flags an old build
#   lacks, such as --isa, into what it takes).
#   ARGS: what both run after `count`, e.g. 20 --shard 0/16 -j 1 --algorithm join --isa avx2
# Writes long-format CSV on stdout, one row per run: date, host, cpu, build (old or new), args,
# run, cpu_s (user + sys), wall_s, peak_kb (max RSS), result (the solutions printed).
# Needs GNU time at /usr/bin/time.
set -euo pipefail
usage="usage: scripts/ab-builds.sh [--runs R] OLD NEW -- ARGS... > FILE.csv"
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs=3
if [ "${1:-}" = "--runs" ]; then
  [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "ab-builds.sh: --runs takes a positive integer, got '${2:-}'" >&2; exit 2; }
  runs=$2; shift 2
fi
[ $# -ge 4 ] && [ "$3" = "--" ] || { echo "$usage" >&2; exit 2; }
old=$1; new=$2; shift 3
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "ab-builds.sh: '$b' is not an executable" >&2; exit 2; }
done
source "$(dirname "$0")/lib.sh"
host=$(host_name); cpu=$(cpu_model)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "date,host,cpu,build,args,run,cpu_s,wall_s,peak_kb,result"
for ((i = 1; i <= runs; i++)); do
  for build in old new; do
    bin=$old; [ "$build" = new ] && bin=$new
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$bin" count "$@" --progress never --format json >"$tmp/out"
    result=$(grep -o '"solutions":[0-9]*' "$tmp/out" | head -1 | cut -d: -f2)
    read -r wall user sys rss < <(tail -1 "$tmp/time")
    cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$host,$cpu,$build,$*,$i,$cpu_s,$wall,$rss,$result"
  done
done
