#!/usr/bin/env bash
# Side by side with the C mirror reference of shared/anchors, when it is there.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/compare-reference.sh N [RUNS] [-- EXTRA NQUEENS ARGS...]

Runs shared/anchors/compare.sh (the C mirror-halving reference, alternating runs, median of the
pair ratios) for `nqueens count N` with 1 thread and with all logical CPUs, RUNS runs each
(default 3). Looks for the anchors in ANCHORS, else ../shared/anchors beside the repository, else
shared/anchors inside it; prints a note and exits 0 when none is found.
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
[[ "$n" =~ ^[0-9]+$ ]] || { echo "compare-reference.sh: N '$n' is not an integer" >&2; exit 2; }
is_positive_int "$runs" || { echo "compare-reference.sh: RUNS '$runs' is not a positive integer" >&2; exit 2; }
anchors=""
for d in "${ANCHORS:-}" "$repo_root/../shared/anchors" "$repo_root/shared/anchors"; do
  if [ -n "$d" ] && [ -x "$d/compare.sh" ]; then anchors=$d; break; fi
done
if [ -z "$anchors" ]; then
  echo "compare-reference.sh: no shared/anchors/compare.sh found; skipped"
  exit 0
fi
bin=$(nqueens_bin)
for t in 1 "$(nproc)"; do
  echo "== threads=$t: $bin count $n -j $t $*"
  "$anchors/compare.sh" "$n" "$runs" -- "$bin" count "$n" -j "$t" --progress never "$@"
done
