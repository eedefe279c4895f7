#!/usr/bin/env bash
# Fresh-clone build and test times with cargo's --timings, for the study of results/2026-12-02-layers/.
# usage: scripts/results/fresh.sh LABEL COMMIT [REPO] [OUT]
#   REPO: the repository to clone (default: the one this script is in);
#   OUT: where the figures go (default: /tmp/meas); they land in OUT/LABEL.
# The clone and its target/ live in a temporary folder that is removed at the end.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/results/fresh.sh LABEL COMMIT [REPO] [OUT]" >&2; exit 2; }
label=$1 commit=$2
repo=${3:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
out=${4:-/tmp/meas}/$label
dir=$(mktemp -d "${TMPDIR:-/tmp}/fresh-$label.XXXXXX")
trap 'rm -rf "$dir"' EXIT
git clone -q "$repo" "$dir/src"
cd "$dir/src" && git checkout -q "$commit"
export CARGO_TARGET_DIR="$dir/src/target"
mkdir -p "$out"
{ echo "label=$label commit=$(git rev-parse --short HEAD) date=$(date -u +%FT%TZ)"; grep -m1 'model name' /proc/cpuinfo; nproc; uptime; } > "$out/info.txt"
/usr/bin/time -f '%e s wall %U user %S sys' -o "$out/run.time" cargo run --release --timings -- count 16 > "$out/run.out" 2> "$out/run.err"
cp "$(ls -t target/cargo-timings/cargo-timing-2*.html | head -1)" "$out/timing-run.html"
/usr/bin/time -f '%e s wall %U user %S sys' -o "$out/test.time" cargo test --release --timings > "$out/test.out" 2> "$out/test.err" || echo "test rc=$?" >> "$out/test.time"
cp "$(ls -t target/cargo-timings/cargo-timing-2*.html | head -1)" "$out/timing-test.html"
uptime >> "$out/info.txt"
echo done >> "$out/info.txt"
