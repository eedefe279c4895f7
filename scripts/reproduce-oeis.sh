#!/usr/bin/env bash
# Reproduces OEIS A000170 and A002562 as b-files and diffs them against the known values.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/reproduce-oeis.sh MAX_N

Writes OUT/b000170.txt (all solutions, n = 0..MAX_N) and OUT/b002562.txt (fundamental
solutions, n = 1..MAX_N) with `nqueens count --format bfile`, then diffs each against the
known values in tests/data/ (copies of the OEIS b-files, known up to n = 27). Exits 1 on any
difference; values beyond n = 27 are new and only listed.

Environment: OUT (default target/studies/<date>-<host>/), NQUEENS (binary), THREADS (default all CPUs).
Example: scripts/reproduce-oeis.sh 16
HELP
}
[ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] && { usage; exit 0; }
[ $# -eq 1 ] || { usage >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
max=$1
[[ "$max" =~ ^[0-9]+$ ]] && [ "$max" -le 63 ] || { echo "reproduce-oeis.sh: MAX_N '$max' is not an integer 0..=63" >&2; exit 2; }
bin=$(nqueens_bin)
dir=$(out_dir)
threads=${THREADS:-$(nproc)}
"$bin" count "0..$max" -j "$threads" --format bfile --progress never >"$dir/b000170.txt"
if [ "$max" -ge 1 ]; then
  "$bin" count "1..$max" -j "$threads" --format bfile --sequence unique --progress never >"$dir/b002562.txt"
else
  : >"$dir/b002562.txt"
fi
status=0
for seq in 000170 002562; do
  known="$repo_root/tests/data/b$seq.txt"
  if diff <(awk -v m="$max" '$1 <= m' "$known") <(awk '$1 <= 27' "$dir/b$seq.txt") >"$dir/b$seq.diff"; then
    echo "A$seq: $(awk '$1 <= 27' "$dir/b$seq.txt" | wc -l) values equal the known b-file ($dir/b$seq.txt)"
    rm -f "$dir/b$seq.diff"
  else
    echo "A$seq: DIFFERS from the known b-file, see $dir/b$seq.diff" >&2
    status=1
  fi
  awk '$1 > 27 { print "A'"$seq"': new value beyond the known b-file: " $0 }' "$dir/b$seq.txt"
done
exit $status
