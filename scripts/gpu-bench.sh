#!/usr/bin/env bash
# The GPU check in one call, for a machine with an NVIDIA GPU and no Rust toolchain (the
# project's lent H200): the correctness set, then the timings, each step under its own time
# limit so that the whole stays under 8 minutes. Build the binary elsewhere and carry it:
#
#   cargo build --release            # on the build machine (x86-64 Linux; the binary needs glibc >= 2.34)
#   scripts/gpu-bench.sh [BINARY]    # on the GPU machine; BINARY defaults to target/release/nqueens
#
# Needs bash, coreutils (timeout, seq, date) and grep on the GPU machine; nothing else.
#
# Writes into OUT (default target/studies/<date>-gpu/run-<host>; copy what you keep to results/): devices.txt, bench.csv (one row per
# timed count: api,n,what,seconds,solutions,verified), every command's output in log.txt, and
# an ncu profile of a short count where Nsight Compute is installed. Exit 1 if any correctness
# check failed. NQUEENS_GPU_TASK_ROWS, if set, is passed on (the task size, for tuning), and so
# is NQUEENS_GPU_LOG (each run's launches, tasks and host time on standard error, in log.txt).
# NCU=0 skips the Nsight Compute profile.
# APIS (default: cuda, and opencl where OpenCL has an NVIDIA device) and MAX_N (default 22) let
# the script run elsewhere: APIS=opencl MAX_N=15 scripts/gpu-bench.sh smoke-tests it on pocl.
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/nqueens}"
[ -x "$bin" ] || { echo "gpu-bench.sh: no binary at $bin: build with cargo build --release and carry it" >&2; exit 2; }
out="${OUT:-target/studies/$(date +%Y-%m-%d)-gpu/run-$(hostname -s)}"
mkdir -p "$out"
log="$out/log.txt"
: >"$log"
# NVRTC (the kernel's compiler) from the CUDA toolkit or from pip's nvidia-cuda-nvrtc.
# pip's CUDA 13 wheels put it under nvidia/cu13/lib, so a search of /usr/local and /opt is the
# last resort.
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
    "$(python3 -c 'import nvidia.cuda_nvrtc, os; print(os.path.join(nvidia.cuda_nvrtc.__path__[0], "lib"))' 2>/dev/null)"; do
    [ -n "$d" ] && [ -d "$d" ] && export LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
done
ld="${LD_LIBRARY_PATH:-}"
if ! find ${ld//:/ } -maxdepth 1 -name 'libnvrtc.so*' 2>/dev/null | grep -q .; then
    lib=$(find /usr/local /opt -name 'libnvrtc.so*' -print -quit 2>/dev/null)
    [ -n "$lib" ] && export LD_LIBRARY_PATH="$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
failed=0
step() { # step LIMIT_S DESCRIPTION COMMAND...: runs it with a time limit, logs it, echoes its stdout
    local limit="$1" what="$2"
    shift 2
    echo "## $what: $*" >>"$log"
    local t0 t1 rc
    t0=$(date +%s%N)
    timeout "$limit" "$@" >"$out/.stdout" 2>>"$log"
    rc=$?
    t1=$(date +%s%N)
    cat "$out/.stdout" >>"$log"
    echo "## exit $rc after $(((t1 - t0) / 1000000)) ms" >>"$log"
    cat "$out/.stdout"
    return $rc
}
{
    echo "date: $(date -u +%FT%TZ)"
    echo "binary: $("$bin" --version | head -1)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1
    nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*'
    lscpu | grep 'Model name'
    "$bin" devices
} >"$out/devices.txt" 2>&1
cat "$out/devices.txt"
if [ -n "${APIS:-}" ]; then
    read -ra apis <<<"${APIS//,/ }"
else
    apis=(cuda)
    "$bin" devices --format json | grep -q '"opencl":{"devices":\[{' && grep -qi nvidia "$out/devices.txt" && apis+=(opencl)
fi
max_n="${MAX_N:-22}"
small=$((max_n < 17 ? max_n : 17))

echo "api,n,what,seconds,solutions,verified" >"$out/bench.csv"
record() { # record API N WHAT JSON-LINE
    local s sol v
    s=$(grep -o '"seconds":[0-9.e+-]*' <<<"$4" | head -1 | cut -d: -f2)
    sol=$(grep -o '"solutions":[0-9]*' <<<"$4" | head -1 | cut -d: -f2)
    v=$(grep -o '"verified":[a-z]*' <<<"$4" | head -1 | cut -d: -f2)
    echo "$1,$2,$3,$s,$sol,$v" | tee -a "$out/bench.csv"
}
for api in "${apis[@]}"; do
    # Correctness: every n to 17 against OEIS (solutions, fundamental solutions, classes).
    if ! step 120 "$api correctness" "$bin" count "0..$small" --device "$api" --verify --format json >/dev/null; then
        echo "gpu-bench.sh: $api: count 0..$small --verify FAILED (see $log)" >&2
        failed=1
        continue
    fi
    # GPU and CPU shards of one board merged under an audit.
    dir="$out/shards-$api"
    mkdir -p "$dir"
    ok=1
    step 60 "$api shard 0/2" "$bin" count "$small" --device "$api" --shard 0/2 --output "$dir/s0.json" || ok=0
    step 120 "cpu shard 1/2" "$bin" count "$small" --algorithm d4 --shard 1/2 --output "$dir/s1.json" || ok=0
    step 120 "$api merge" "$bin" merge "$dir/s0.json" "$dir/s1.json" --audit 0.02 --seed 1 --verify >/dev/null || ok=0
    [ "$ok" = 1 ] || { echo "gpu-bench.sh: $api: shards or their audit FAILED (see $log)" >&2; failed=1; }
    # Timings: whole counts, then a part of n = 23.
    for n in $(seq $((max_n < 18 ? max_n - 2 : 18)) "$max_n"); do
        limit=$((n < 21 ? 60 : (n == 21 ? 90 : 200)))
        line=$(step "$limit" "$api count $n" "$bin" count "$n" --device "$api" --verify --stats --format json) ||
            { echo "$api,$n,whole (over ${limit} s or failed),,," >>"$out/bench.csv"; break; }
        record "$api" "$n" whole "$line"
    done
    [ "$max_n" -ge 22 ] || continue
    line=$(step 120 "$api 23 part" "$bin" count 23 --device "$api" --shard 0/64 --output "$out/q23-0of64-$api.json") &&
        record "$api" 23 "shard 0/64" "$(cat "$out/q23-0of64-$api.json")"
done
# A profile of a short count, where Nsight Compute is here.
# The clocks left as they are (--clock-control none), a few sections, two launches: about a
# minute where the hardware counters can be read at all (not under gVisor).
if command -v ncu >/dev/null && [ "${NCU:-1}" != 0 ]; then
    step 120 "ncu" ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section SchedulerStats --section WarpStateStats --launch-count 2 -o "$out/ncu-q17" -f \
        "$bin" count 17 --device cuda >/dev/null ||
        echo "gpu-bench.sh: ncu did not finish (see $log)" >&2
    ncu --import "$out/ncu-q17.ncu-rep" --page details >"$out/ncu-q17.txt" 2>&1 || true
fi
rm -f "$out/.stdout"
echo "gpu-bench.sh: results in $out (bench.csv, devices.txt, log.txt)"
exit $failed
