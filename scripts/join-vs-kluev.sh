#!/usr/bin/env bash
# The join against E. Kluev's tuned quadrant join (bench/kluev.sh), side by side:
# for each SPEC, RUNS rounds alternating ours (at each level of --isa), his, ...; whole counts or
# matching parts.
# Usage: scripts/join-vs-kluev.sh [--runs R] [--isa L1,L2,...] [--kluev-avx2] SPEC... > FILE.csv
#   SPEC = N:THREADS (whole count) or N:THREADS:PARTS:PART (our --shard PART/PARTS against his
#   PARTS PART; both deal units round robin), e.g. 18:2 19:2 21:1:16:0 22:1:64:0
#   --isa: our instruction-set levels to time, each in every round (default: the best this CPU
#   runs), e.g. --isa avx512,avx2,portable.
#   --kluev-avx2: also time his build without AVX-512 (kluev.sh compiles with -march=native; this
#   adds -mno-avx512f, what he gets on an AVX2-only machine), program "kluev-noavx512".
# Writes long-format CSV on stdout, one row per run: date, host, cpu, commit, n, parts, part,
# threads, program, isa (ours: the level that ran; his: native or no-avx512), cpu_s (user + sys),
# wall_s, peak_kb (max RSS), result (the count printed).
# His binaries are built before the first timed run (KLUEV_BUILD_ONLY=1), so no compile is timed.
# Needs GNU time at /usr/bin/time, g++ 11+; KLUEV overrides the path of kluev.sh (default
# bench/kluev.sh, which builds the vendored bench/kluev/); NQUEENS overrides our binary.
set -euo pipefail
usage="usage: scripts/join-vs-kluev.sh [--runs R] [--isa L1,L2,...] [--kluev-avx2] N:THREADS[:PARTS:PART]... > FILE.csv"
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs=1
levels=()
kluev_avx2=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs)
      [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "join-vs-kluev.sh: --runs takes a positive integer, got '${2:-}'" >&2; exit 2; }
      runs=$2; shift 2 ;;
    --isa)
      [ $# -ge 2 ] && [[ "$2" =~ ^[a-z0-9]+(,[a-z0-9]+)*$ ]] || { echo "join-vs-kluev.sh: --isa takes levels separated by commas (avx512,avx2,portable), got '${2:-}'" >&2; exit 2; }
      IFS=, read -r -a levels <<<"$2"; shift 2 ;;
    --kluev-avx2) kluev_avx2=1; shift ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
for spec in "$@"; do
  [[ "$spec" =~ ^[0-9]+:[1-9][0-9]*(:[1-9][0-9]*:[0-9]+)?$ ]] || {
    echo "join-vs-kluev.sh: bad SPEC '$spec': use N:THREADS or N:THREADS:PARTS:PART" >&2; exit 2; }
done
# His counter is vendored in bench/kluev/ (MIT), built by bench/kluev.sh: the comparison
# reproduces from a clone (issue 40: it needed an anchors folder outside the repository).
kluev=${KLUEV:-$repo_root/bench/kluev.sh}
[ -x "$kluev" ] || { echo "join-vs-kluev.sh: $kluev not found or not executable (set KLUEV)" >&2; exit 2; }
bin=$(nqueens_bin)
# Each level is checked before any timing: one this CPU lacks stops here, with our message.
[ ${#levels[@]} -gt 0 ] || levels=("")
for level in "${levels[@]}"; do
  [ -z "$level" ] || "$bin" count 4 --isa "$level" --progress never >/dev/null
done
best=$("$bin" count 4 --format json --progress never | grep -o '"isa":"[a-z0-9]*"' | cut -d'"' -f4)
host=$(host_name); cpu=$(cpu_model)
commit=$(git -C "$repo_root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$repo_root" diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# His build without AVX-512: the same kluev.sh, its g++ given -mno-avx512f, in a cache of its own.
mkdir -p "$tmp/gxx"
printf '#!/bin/sh\nexec %s "$@" -mno-avx512f\n' "$(command -v g++)" >"$tmp/gxx/g++"
chmod +x "$tmp/gxx/g++"
noavx512_env=(env "PATH=$tmp/gxx:$PATH" "KLUEV_CACHE=${TMPDIR:-/tmp}/kluev-build-noavx512")
programs=(nqueens kluev)
((kluev_avx2)) && programs+=(kluev-noavx512)
echo "date,host,cpu,commit,n,parts,part,threads,program,isa,cpu_s,wall_s,peak_kb,result"
for spec in "$@"; do
  IFS=: read -r n threads parts part <<<"$spec"
  parts=${parts:-1}; part=${part:-0}
  ((part < parts)) || { echo "join-vs-kluev.sh: part $part is not below parts $parts" >&2; exit 2; }
  KLUEV_BUILD_ONLY=1 "$kluev" "$n" 1 >&2
  ((kluev_avx2)) && KLUEV_BUILD_ONLY=1 "${noavx512_env[@]}" "$kluev" "$n" 1 >&2
  for ((i = 1; i <= runs; i++)); do
    for program in "${programs[@]}"; do
      runs_of=("")
      [ "$program" = nqueens ] && runs_of=("${levels[@]}")
      for level in "${runs_of[@]}"; do
        extra=(); ((parts > 1)) && extra=("$parts" "$part")
        case $program in
          nqueens)
            shard=(); ((parts > 1)) && shard=(--shard "$part/$parts")
            isa=(); [ -n "$level" ] && isa=(--isa "$level")
            /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$bin" count "$n" --algorithm join --threads "$threads" \
              --progress never --format json "${isa[@]}" "${shard[@]}" >"$tmp/out"
            result=$(grep -o '"solutions":[0-9]*' "$tmp/out" | head -1 | cut -d: -f2)
            # A shard's JSON has no level: the level asked for (or the best) is the one that ran.
            ran=$(grep -o '"isa":"[a-z0-9]*"' "$tmp/out" | head -1 | cut -d'"' -f4 || true)
            [ -n "$ran" ] || ran=${level:-$best} ;;
          kluev)
            /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$kluev" "$n" "$threads" "${extra[@]}" >"$tmp/out"
            result=$(awk '/^Result:/ {print $2}' "$tmp/out"); ran=native ;;
          kluev-noavx512)
            /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "${noavx512_env[@]}" "$kluev" "$n" "$threads" "${extra[@]}" >"$tmp/out"
            result=$(awk '/^Result:/ {print $2}' "$tmp/out"); ran=no-avx512 ;;
        esac
        read -r wall user sys rss < <(tail -1 "$tmp/time")
        cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$host,$cpu,$commit,$n,$parts,$part,$threads,$program,$ran,$cpu_s,$wall,$rss,$result"
      done
    done
  done
done
