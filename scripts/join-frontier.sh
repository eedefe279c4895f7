#!/usr/bin/env bash
# The join's cost a solution at each board size, for two builds side by side: for each N, `plan N
# -j 1 --algorithm join --sample-seconds S --seed 1` with OLD then NEW (alternating, one at a
# time), under GNU time. ns a solution is the plan's CPU seconds over Q(N): A000170
# (tests/data/b000170.txt) where known, else the NEW build's predicted Q(N) (its `solutions`).
#
# Usage: scripts/join-frontier.sh [--sample S] [--long-sample S2] OLD NEW N... > FILE.csv
#   S: sample seconds for N <= 27 (default 60); S2 for N >= 28 (default 300: plan samples no
#   join unit of n >= 28 under 300 s).
# Writes CSV on stdout, one row per plan: date, host, cpu, build (old, new), binary, n,
# sample_seconds, cpu_seconds, cpu_std_error, solutions (the Q(N) used), ns_per_solution,
# core_years, memory_mib (what the plan asks a process), peak_kb (the plan's own peak RSS),
# wall_s. `cargo run --release -p nqueens-plot -- FILE.csv` draws ns a solution against N.
# Needs GNU time at /usr/bin/time and python3 (to read the plans' JSON).
set -euo pipefail
usage="usage: scripts/join-frontier.sh [--sample S] [--long-sample S2] OLD NEW N... > FILE.csv"
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
sample=60 long=300
while [ $# -gt 0 ]; do
  case "$1" in
    --sample) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "join-frontier.sh: --sample takes whole seconds, got '${2:-}'" >&2; exit 2; }; sample=$2; shift 2 ;;
    --long-sample) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "join-frontier.sh: --long-sample takes whole seconds, got '${2:-}'" >&2; exit 2; }; long=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
old=$1 new=$2; shift 2
for b in "$old" "$new"; do [ -x "$b" ] || { echo "join-frontier.sh: '$b' is not an executable" >&2; exit 2; }; done
for n in "$@"; do [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 8 ] && [ "$n" -le 29 ] || { echo "join-frontier.sh: N must be 8..29, got '$n'" >&2; exit 2; }; done
source "$(dirname "$0")/lib.sh"
host=$(host_name); cpu=$(cpu_model)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "date,host,cpu,build,binary,n,sample_seconds,cpu_seconds,cpu_std_error,solutions,ns_per_solution,core_years,memory_mib,peak_kb,wall_s"
for n in "$@"; do
  s=$sample; [ "$n" -ge 28 ] && s=$long
  for build in new old; do
    bin=$new; [ "$build" = old ] && bin=$old
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$bin" plan "$n" -j 1 --algorithm join --sample-seconds "$s" --seed 1 \
      --format json >"$tmp/$build.json" 2>"$tmp/err" || { echo "join-frontier.sh: $bin plan $n failed: $(tail -1 "$tmp/err")" >&2; exit 1; }
    read -r wall rss < <(tail -1 "$tmp/time")
    python3 - "$tmp/$build.json" "$tmp/new.json" "$repo_root/tests/data/b000170.txt" "$n" <<'PY' >"$tmp/row"
import json, sys
plan = json.load(open(sys.argv[1]))
n = int(sys.argv[4])
known = {int(a): int(b) for a, b in (l.split() for l in open(sys.argv[3]) if l.strip() and not l.startswith('#'))}
q = known.get(n) or json.load(open(sys.argv[2])).get('solutions')
cpu = plan['cpu_seconds']
if cpu is None:
    sys.exit(f"plan {n} estimated no CPU time: {plan.get('cpu_not_estimated')}")
print(f"{cpu:.6g},{plan['cpu_seconds_std_error']:.6g},{q},{cpu * 1e9 / q:.4g},{plan['cpu_core_years']:.4g},{plan['memory_mib']}")
PY
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$host,$cpu,$build,$(basename "$bin"),$n,$s,$(cat "$tmp/row"),$rss,$wall"
  done
done
