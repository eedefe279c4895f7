#!/usr/bin/env bash
# Side by side with the C mirror-halving counter of bench/c/, built here: alternating runs, median
# of the pair ratios.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/compare-reference.sh N [RUNS] [-- EXTRA NQUEENS ARGS...]

Times `nqueens count N` against bench/c/mirror.c (the classic bitmask counter with mirror
halving, one thread; built with `${CC:-cc} -O3 -march=native`) with 1 thread and with all logical
CPUs, RUNS runs each (default 3) after one warm-up pair, alternating ours / C. Prints the median
wall seconds of each and the median of the pair ratios ours / C (whole-process wall time, so
start-up costs count). N is 1..31 (the C counter keeps 32-bit masks).
Example: scripts/compare-reference.sh 17 5 -- --algorithm mirror
HELP
}
[ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] && { usage; exit 0; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
n=$1; shift
runs=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then runs=$1; shift; fi
[ "${1:-}" = "--" ] && shift
[[ "$n" =~ ^[0-9]+$ ]] && ((n >= 1 && n <= 31)) ||
  { echo "compare-reference.sh: N '$n' is not a board size in 1..31" >&2; exit 2; }
is_positive_int "$runs" || { echo "compare-reference.sh: RUNS '$runs' is not a positive integer" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"${CC:-cc}" -O3 -march=native -o "$tmp/mirror" "$repo_root/bench/c/mirror.c"
bin=$(nqueens_bin)
now() { date +%s.%N; }
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
for t in 1 "$(nproc)"; do
  echo "== threads=$t: $bin count $n -j $t --progress never $*"
  ours=() theirs=() ratios=()
  for ((i = 0; i <= runs; i++)); do          # run 0 is a warm-up, not counted
    t0=$(now); "$bin" count "$n" -j "$t" --progress never "$@" >/dev/null; t1=$(now)
    "$tmp/mirror" "$n" >/dev/null; t2=$(now)
    ((i == 0)) && continue
    a=$(awk -v x="$t0" -v y="$t1" 'BEGIN {printf "%.6f", y - x}')
    b=$(awk -v x="$t1" -v y="$t2" 'BEGIN {printf "%.6f", y - x}')
    ours+=("$a"); theirs+=("$b"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.6f", a / b}')")
  done
  printf 'n=%s runs=%s\nnqueens median wall s: %.3f\nC mirror median wall s: %.3f\nratio nqueens/C (median of pairs): %.3f\n' \
    "$n" "$runs" "$(median "${ours[@]}")" "$(median "${theirs[@]}")" "$(median "${ratios[@]}")"
done
