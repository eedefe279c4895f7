#!/usr/bin/env bash
# The join against E. Kluev's tuned quadrant join (the anchors' kluev.sh), side by side:
# for each SPEC, RUNS pairs alternating ours, his, ours, his ...; whole counts or matching parts.
# Usage: scripts/join-vs-kluev.sh [--runs R] SPEC... > FILE.csv
#   SPEC = N:THREADS (whole count) or N:THREADS:PARTS:PART (our --shard PART/PARTS against his
#   PARTS PART; both deal units round robin), e.g. 18:2 19:2 21:1:16:0 22:1:64:0
# Writes long-format CSV on stdout, one row per run: date, host, cpu, commit, n, parts, part,
# threads, program, cpu_s (user + sys), wall_s, peak_kb (max RSS), result (the count printed).
# His binary is built before the first timed run (KLUEV_BUILD_ONLY=1), so no compile is timed.
# Needs GNU time at /usr/bin/time, g++ 11+; KLUEV overrides the path of kluev.sh (default
# ANCHORS/kluev.sh, ANCHORS as in scripts/README.md); NQUEENS overrides our binary.
set -euo pipefail
usage="usage: scripts/join-vs-kluev.sh [--runs R] N:THREADS[:PARTS:PART]... > FILE.csv"
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
runs=1
if [ "${1:-}" = "--runs" ]; then
  [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "join-vs-kluev.sh: --runs takes a positive integer, got '${2:-}'" >&2; exit 2; }
  runs=$2; shift 2
fi
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
for spec in "$@"; do
  [[ "$spec" =~ ^[0-9]+:[1-9][0-9]*(:[1-9][0-9]*:[0-9]+)?$ ]] || {
    echo "join-vs-kluev.sh: bad SPEC '$spec': use N:THREADS or N:THREADS:PARTS:PART" >&2; exit 2; }
done
anchors=${ANCHORS:-}
if [ -z "$anchors" ]; then
  for d in "$repo_root/../shared/anchors" "$repo_root/shared/anchors" /work/shared/anchors; do
    [ -x "$d/kluev.sh" ] && { anchors=$d; break; }
  done
fi
kluev=${KLUEV:-$anchors/kluev.sh}
[ -x "$kluev" ] || { echo "join-vs-kluev.sh: kluev.sh not found (set KLUEV or ANCHORS)" >&2; exit 2; }
bin=$(nqueens_bin)
host=$(host_name); cpu=$(cpu_model)
commit=$(git -C "$repo_root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$repo_root" diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "date,host,cpu,commit,n,parts,part,threads,program,cpu_s,wall_s,peak_kb,result"
for spec in "$@"; do
  IFS=: read -r n threads parts part <<<"$spec"
  parts=${parts:-1}; part=${part:-0}
  ((part < parts)) || { echo "join-vs-kluev.sh: part $part is not below parts $parts" >&2; exit 2; }
  KLUEV_BUILD_ONLY=1 "$kluev" "$n" 1 >&2
  for ((i = 1; i <= runs; i++)); do
    for program in nqueens kluev; do
      if [ "$program" = nqueens ]; then
        shard=(); ((parts > 1)) && shard=(--shard "$part/$parts")
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
          "$bin" count "$n" --algorithm join --threads "$threads" --progress never --format json "${shard[@]}" >"$tmp/out"
        result=$(grep -o '"solutions":[0-9]*' "$tmp/out" | head -1 | cut -d: -f2)
      else
        extra=(); ((parts > 1)) && extra=("$parts" "$part")
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$kluev" "$n" "$threads" "${extra[@]}" >"$tmp/out"
        result=$(awk '/^Result:/ {print $2}' "$tmp/out")
      fi
      read -r wall user sys rss < <(tail -1 "$tmp/time")
      cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
      echo "$(date -u +%Y-%m-%dT%H:%M:%SZ),$host,$cpu,$commit,$n,$parts,$part,$threads,$program,$cpu_s,$wall,$rss,$result"
    done
  done
done
