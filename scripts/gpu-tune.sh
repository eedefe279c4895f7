#!/usr/bin/env bash
# Tuning runs for a lent GPU, after scripts/gpu-bench.sh and in the same call: `count N` at each
# task size (NQUEENS_GPU_TASK_ROWS, the free rows a task keeps), then the GPU with CPU threads on
# one queue (`--device DEVICE,cpu -j THREADS`), every run with the driver's launch log
# (NQUEENS_GPU_LOG: launches, tasks, host work and time waiting on the device).
#
#   scripts/gpu-tune.sh [BINARY]     # BINARY defaults to target/release/nqueens
#
# Environment: N (default 21), ROWS (default "10 11 12 13 14"), DEVICE (default cuda), THREADS
# (CPU threads beside it; default all but one), LIMIT (seconds a run, default 60), OUT (default
# target/studies/<date>-gpu/tune-<host>). Writes OUT/tune.csv (rows,device (a + between devices),seconds,solutions,
# verified) and every run's output in OUT/tune-log.txt. The NVRTC library must be on
# LD_LIBRARY_PATH already (scripts/gpu-bench.sh shows where it is looked for).
# Smoke test on pocl: DEVICE=opencl N=14 ROWS="6 8" scripts/gpu-tune.sh
set -uo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
cd "$(dirname "$0")/.."
bin="${1:-target/release/nqueens}"
[ -x "$bin" ] || { echo "gpu-tune.sh: no binary at $bin: build with cargo build --release and carry it" >&2; exit 2; }
n="${N:-21}"
device="${DEVICE:-cuda}"
threads="${THREADS:-$(($(nproc) > 1 ? $(nproc) - 1 : 1))}"
limit="${LIMIT:-60}"
out="${OUT:-target/studies/$(date +%Y-%m-%d)-gpu/tune-$(hostname -s)}"
mkdir -p "$out"
log="$out/tune-log.txt"
: >"$log"
export NQUEENS_GPU_LOG=1
echo "rows,device,seconds,solutions,verified" >"$out/tune.csv"
run() { # run ROWS DEVICE [ARGS...]: one timed count, its JSON line recorded
    local rows="$1" dev="$2" line
    shift 2
    echo "## NQUEENS_GPU_TASK_ROWS=$rows $bin count $n --device $dev $* --verify --format json" >>"$log"
    if [ "$rows" = default ]; then
        line=$(timeout "$limit" "$bin" count "$n" --device "$dev" "$@" --verify --format json 2>>"$log")
    else
        line=$(NQUEENS_GPU_TASK_ROWS="$rows" timeout "$limit" "$bin" count "$n" --device "$dev" "$@" --verify \
            --format json 2>>"$log")
    fi
    local rc=$?
    echo "$line" >>"$log"
    echo "## exit $rc" >>"$log"
    local s sol v
    s=$(grep -o '"seconds":[0-9.e+-]*' <<<"$line" | head -1 | cut -d: -f2)
    sol=$(grep -o '"solutions":[0-9]*' <<<"$line" | head -1 | cut -d: -f2)
    v=$(grep -o '"verified":[a-z]*' <<<"$line" | head -1 | cut -d: -f2)
    [ "$rc" = 0 ] || s="over ${limit} s or failed (exit $rc)"
    echo "$rows,${dev//,/+},$s,$sol,$v" | tee -a "$out/tune.csv"
}
for rows in ${ROWS:-10 11 12 13 14}; do
    run "$rows" "$device"
done
run default "$device,cpu" -j "$threads"
echo "gpu-tune.sh: results in $out (tune.csv, tune-log.txt)"
