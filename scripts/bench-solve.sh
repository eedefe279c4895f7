#!/usr/bin/env bash
# Side-by-side timing of listing against counting: `nqueens solve N --format cols > /dev/null`
# and `nqueens count N` on the same threads, alternating count, solve, count, solve, ...
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: scripts/bench-solve.sh [N] [RUNS] [THREADS]

Times `nqueens solve N --format cols > /dev/null` against `nqueens count N --algorithm mirror`
(the mirror-halving count, the yardstick of issue 4) on THREADS worker threads, alternating the two RUNS times each after
one warm-up pair, with /usr/bin/time -v (wall seconds and peak resident memory).

  N        board size (default 16)
  RUNS     measured runs of each (default 3)
  THREADS  worker threads for both (default: nproc)

Prints one CSV row per run (command,run,n,threads,seconds,max_rss_kib) and then the medians,
the ratio solve/count (median of the pairs), the listing's size and its MB/s.
Needs: cargo (builds target/release/nqueens), GNU time at /usr/bin/time, awk, wc.

Example: scripts/bench-solve.sh 16 5 2 | tee results/DATE-TOPIC/solve-16.csv (a folder per study)
USAGE
}

case "${1:-}" in -h | --help) usage; exit 0 ;; esac
n=${1:-16} runs=${2:-3} threads=${3:-$(nproc)}
for v in "$n" "$runs" "$threads"; do
  [[ $v =~ ^[0-9]+$ ]] || { echo "bench-solve.sh: '$v' is not a non-negative integer (see --help)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench-solve.sh: needs GNU time at /usr/bin/time" >&2; exit 2; }

cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/nqueens
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Runs one command under GNU time; prints "seconds max_rss_kib".
timed() {
  /usr/bin/time -v -o "$tmp/time" "$@" >/dev/null
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]}
              /Maximum resident set size/ {m = $2}
              END {printf "%.3f %d\n", s, m}' "$tmp/time"
}

echo "command,run,n,threads,seconds,max_rss_kib"
cs=() ss=() ratios=() crss=() srss=()
for ((i = 0; i <= runs; i++)); do # run 0 is a warm-up, not counted
  read -r c cm < <(timed "$bin" count "$n" -j "$threads" --algorithm mirror --progress never)
  read -r s sm < <(timed "$bin" solve "$n" --format cols -j "$threads")
  ((i == 0)) && continue
  echo "count,$i,$n,$threads,$c,$cm"
  echo "solve-cols,$i,$n,$threads,$s,$sm"
  cs+=("$c") ss+=("$s") crss+=("$cm") srss+=("$sm")
  ratios+=("$(awk -v a="$s" -v b="$c" 'BEGIN {printf "%.3f", a / b}')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
max() { printf '%s\n' "$@" | sort -g | tail -1; }
bytes=$("$bin" solve "$n" --format cols -j "$threads" | wc -c)
ms=$(median "${ss[@]}")
printf '# n=%s threads=%s runs=%s\n' "$n" "$threads" "$runs"
printf '# count median wall s: %s (peak RSS %s KiB)\n' "$(median "${cs[@]}")" "$(max "${crss[@]}")"
printf '# solve median wall s: %s (peak RSS %s KiB)\n' "$ms" "$(max "${srss[@]}")"
printf '# ratio solve/count (median of pairs): %s\n' "$(median "${ratios[@]}")"
printf '# listing: %s bytes, %s MB/s at the median\n' "$bytes" "$(awk -v b="$bytes" -v s="$ms" 'BEGIN {printf "%.0f", b / s / 1e6}')"
