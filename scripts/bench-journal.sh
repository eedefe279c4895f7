#!/usr/bin/env bash
# The cost of the checkpoint journal: `count N` with and without --checkpoint, side by side.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/bench-journal.sh [N] [PAIRS] [THREADS]

Runs `nqueens count N -j THREADS` and `nqueens count N -j THREADS --checkpoint FILE` (a fresh
journal each time) alternately, PAIRS times after one warm-up pair, and prints long-format CSV
(one row per run: n, threads, pair, variant, wall and CPU seconds, journal lines) on stdout and
the medians and the median of the per-pair ratios on stderr.
Defaults: N = 17, PAIRS = 5, THREADS = 2. Needs /usr/bin/time and a release build
(cargo build --release); NQUEENS overrides the binary.
USAGE
}
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { usage; exit 0; }
n="${1:-17}" pairs="${2:-5}" threads="${3:-2}"
bin="${NQUEENS:-$(cd "$(dirname "$0")/.." && pwd)/target/release/nqueens}"
[[ -x "$bin" ]] || { echo "bench-journal.sh: $bin not found: run cargo build --release" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "bench-journal.sh: /usr/bin/time is required (apt-get install time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints "wall cpu" seconds of one run of the arguments.
measure() {
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null
    awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$tmp/time"
}

echo "n,threads,pair,variant,wall_s,cpu_s,journal_lines"
plain_w=() journal_w=() ratio_w=() ratio_c=()
for ((p = 0; p <= pairs; p++)); do
    read -r pw pc < <(measure "$bin" count "$n" -j "$threads" --progress never)
    rm -f "$tmp/j"
    read -r jw jc < <(measure "$bin" count "$n" -j "$threads" --progress never --checkpoint "$tmp/j")
    lines=$(($(wc -l < "$tmp/j") - 1))
    ((p == 0)) && continue # warm-up
    echo "$n,$threads,$p,plain,$pw,$pc,0"
    echo "$n,$threads,$p,checkpoint,$jw,$jc,$lines"
    plain_w+=("$pw") journal_w+=("$jw")
    ratio_w+=("$(awk -v a="$jw" -v b="$pw" 'BEGIN {printf "%.4f", a / b}')")
    ratio_c+=("$(awk -v a="$jc" -v b="$pc" 'BEGIN {printf "%.4f", a / b}')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
{
    echo "n=$n threads=$threads pairs=$pairs"
    echo "median wall s: plain $(median "${plain_w[@]}"), checkpoint $(median "${journal_w[@]}")"
    echo "median ratio checkpoint/plain: wall $(median "${ratio_w[@]}"), cpu $(median "${ratio_c[@]}")"
} >&2
