#!/usr/bin/env bash
# usage: scripts/results/fresh.sh LABEL COMMIT  -> fresh clone of /work/wt24 at COMMIT, fresh target, times
set -euo pipefail
label=$1 commit=$2
dir=/tmp/fresh-$label
rm -rf "$dir"
git clone -q /work/wt24 "$dir"
cd "$dir" && git checkout -q "$commit"
export CARGO_TARGET_DIR="$dir/target"
out=/tmp/meas/$label; mkdir -p "$out"
{ echo "label=$label commit=$(git rev-parse --short HEAD) date=$(date -u +%FT%TZ)"; grep -m1 'model name' /proc/cpuinfo; nproc; uptime; } > "$out/info.txt"
/usr/bin/time -f '%e s wall %U user %S sys' -o "$out/run.time" cargo run --release --timings -- count 16 > "$out/run.out" 2> "$out/run.err"
cp "$(ls -t target/cargo-timings/cargo-timing-2*.html | head -1)" "$out/timing-run.html"
/usr/bin/time -f '%e s wall %U user %S sys' -o "$out/test.time" cargo test --release --timings > "$out/test.out" 2> "$out/test.err" || echo "test rc=$?" >> "$out/test.time"
cp "$(ls -t target/cargo-timings/cargo-timing-2*.html | head -1)" "$out/timing-test.html"
uptime >> "$out/info.txt"
echo done >> "$out/info.txt"
