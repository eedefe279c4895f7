#!/usr/bin/env bash
# Builds E. Kluev's quadrant-join counter (bench/kluev/, MIT, commit 580f444 of
# https://github.com/EvgenyKluev/N-Queens-Count-Sol, vendored with its LICENSE;
# unchanged) for one board size with the tuning his source recommends for that size (his table in
# solcounter.h: sieve cuts, match size, BMI2, prefetch, row-symmetric quarter table from n = 22), then
# runs it. The board size is a compile-time constant there, so each n gets its own binary (cached).
#
# Usage: kluev.sh N THREADS [PARTS PART]     e.g. kluev.sh 20 2      kluev.sh 22 1 64 0
#   PARTS/PART: count only part PART (0-based) of PARTS, dealt round robin over his units of work.
# Prints his two lines: "Result: Q" and "Elapsed time: S s". Needs g++ 11+ (C++20).
# KLUEV_BUILD_ONLY=1 builds (or finds) the binary and exits, so a timing can leave the compile out.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,9p "$0" >&2; exit 2; }
n=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
cache=${KLUEV_CACHE:-${TMPDIR:-/tmp}/kluev-build}
bin=$cache/kluev-$n
if [ ! -x "$bin" ]; then
  #       n:  cuts match bmi2  prefetch quarter
  case $n in
    4|5|6|7|8|9|10|11|12|13|14|15|16|17|18)
              t="0 40 false true QNoSymmetry" ;;
    19)       t="0 40 true true QNoSymmetry" ;;
    20)       t="3 60 true true QNoSymmetry" ;;
    21)       t="3 60 true false QNoSymmetry" ;;
    22|23)    t="6 80 true true QRowSymmetry" ;;
    *) echo "kluev.sh: no tuning for n = $n (4..23)" >&2; exit 2 ;;
  esac
  read -r cuts match bmi pf quarter <<<"$t"
  src=$cache/src-$n; rm -rf "$src"; mkdir -p "$src"; cp "$here"/kluev/*.h "$here"/kluev/main.cpp "$src"/
  sed -i -e "s/inline constexpr int size = 18;/inline constexpr int size = $n;/" \
         -e "s/\.sieveCuts = 0,/.sieveCuts = $cuts,/" -e "s/\.matchMinSize = 40,/.matchMinSize = $match,/" \
         -e "s/\.bmiIntrin = false,/.bmiIntrin = $bmi,/" -e "s/\.prefetch = false,/.prefetch = $pf,/" \
         -e "s/Subsquare<size \/ 2, QNoSymmetry, PackIter>/Subsquare<size \/ 2, $quarter, PackIter>/" "$src"/solcounter.h
  [ "$bmi" = true ] && sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' "$src"/bmintrin.h
  [ "$pf" = true ] && sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' "$src"/prefetch.h
  g++ -std=c++20 -O3 -march=native -o "$bin" "$src"/main.cpp -lpthread
fi
[ "${KLUEV_BUILD_ONLY:-0}" = 1 ] && exit 0
exec "$bin" "$@"
