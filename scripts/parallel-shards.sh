#!/usr/bin/env bash
# Counts Q(N) as K shards with GNU parallel, on local cores or on --sshlogin hosts, then merges.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/parallel-shards.sh [OPTIONS] N K

Counts the n-queens solutions Q(N) as K shards (`nqueens count N --shard I/K`) run by GNU parallel,
each with its own checkpoint journal, then checks and adds them up with `nqueens merge`.
Run it again after an interruption: parallel's --joblog/--resume-failed skips the shards that
finished, and each unfinished shard resumes from its journal. While it runs it says on stderr
how many shards are done and the time left (every 10 s, when that changes); Ctrl-C stops
every shard at its journal, exits 130 and prints the command that resumes.

Options:
  -d, --dir DIR        folder for journals, shard results and the job log
                       [default: shards-nN-kK]; on a shared file system for --sshlogin
  -j, --jobs J         shards at once per host [default: parallel's, one per core]
  -t, --threads T      worker threads per shard [default: 1]
      --algorithm A    auto, d4, join or mirror, the same for every shard [default: $ALGORITHM,
                       else auto, resolved once here so that every host uses the same plan]
      --device LIST    what each shard counts on, as for `nqueens count --device` (gpu, cuda,
                       opencl[:I], with cpu for -t CPU threads beside them) [default: cpu];
                       auto is then d4. One GPU per shard: -j G --device 'cuda:{= $_=slot()-1 =}'
                       on a host of G GPUs (parallel's job slot, from 0)
  -S, --sshlogin LOGIN passed to parallel (repeatable), e.g. 8/node1 or ':' for this host;
                       nqueens must then be on each host's PATH (or give --nqueens)
      --nqueens BIN    the nqueens binary [default: nqueens on PATH, else target/release/nqueens]
      --format F       merge output format: text, json, csv, bfile [default: text]
      --verify         check the total against OEIS A000170
  -h, --help           this help

Example:
  scripts/parallel-shards.sh 18 64 -j 2 --verify
  scripts/parallel-shards.sh 22 64 -j 4 --device 'cuda:{= $_=slot()-1 =}'   (4 GPUs, one shard each)
  scripts/parallel-shards.sh 20 256 -S 16/node1 -S 16/node2 -d /shared/q20
USAGE
}

# The command as given, to print the one that resumes.
command_line="$(printf '%q ' "$0" "$@")"
command_line="${command_line% }"
dir="" jobs="" threads=1 algorithm="${ALGORITHM:-auto}" nqueens="" format=text verify=() sshlogins=() positional=()
device=cpu
while [[ $# -gt 0 ]]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        -d|--dir) dir="$2"; shift 2 ;;
        -j|--jobs) jobs="$2"; shift 2 ;;
        -t|--threads) threads="$2"; shift 2 ;;
        --algorithm) algorithm="$2"; shift 2 ;;
        --device) device="$2"; shift 2 ;;
        -S|--sshlogin) sshlogins+=(--sshlogin "$2"); shift 2 ;;
        --nqueens) nqueens="$2"; shift 2 ;;
        --format) format="$2"; shift 2 ;;
        --verify) verify=(--verify); shift ;;
        -*) echo "parallel-shards.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) positional+=("$1"); shift ;;
    esac
done
if [[ ${#positional[@]} -ne 2 ]]; then
    echo "parallel-shards.sh: give N and K (see --help)" >&2
    exit 2
fi
n="${positional[0]}" k="${positional[1]}"
if ! [[ "$n" =~ ^[0-9]+$ && "$k" =~ ^[0-9]+$ && "$k" -ge 1 ]]; then
    echo "parallel-shards.sh: N '$n' and K '$k' must be integers, K >= 1" >&2
    exit 2
fi
command -v parallel >/dev/null || { echo "parallel-shards.sh: GNU parallel is required (apt-get install parallel)" >&2; exit 1; }
if [[ -z "$nqueens" ]]; then
    nqueens="$(command -v nqueens || echo "$(cd "$(dirname "$0")/.." && pwd)/target/release/nqueens")"
fi
case "$algorithm" in
    auto|d4|join|mirror) ;;
    *) echo "parallel-shards.sh: --algorithm '$algorithm' is not one of auto, d4, join, mirror" >&2; exit 2 ;;
esac
# Devices count d4 subproblems; CPU threads (-t) only where the list has cpu.
threads_opt=(-j "$threads")
if [[ "$device" != cpu ]]; then
    [[ "$algorithm" == auto ]] && algorithm=d4
    [[ ",$device," == *,cpu,* ]] || threads_opt=()
fi
if [[ "$algorithm" == auto ]]; then
    # Resolve auto here, once: hosts with different memory could otherwise pick different
    # algorithms, whose shards and journals do not mix.
    algorithm="$("$nqueens" plan "$n" --shards "$k" --sample-seconds 0 --format json | sed -n 's/.*"algorithm":"\([a-z0-9]*\)".*/\1/p')"
    [[ -n "$algorithm" ]] || { echo "parallel-shards.sh: could not resolve --algorithm auto with $nqueens plan" >&2; exit 2; }
fi
dir="${dir:-shards-n$n-k$k}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

jobs_opt=()
[[ -n "$jobs" ]] && jobs_opt=(--jobs "$jobs")

# The shards the job log records as finished (exit value 0).
shards_done() {
    [[ -f "$dir/joblog" ]] || { echo 0; return; }
    awk -F '\t' 'NR > 1 && $7 == 0 { n++ } END { print n + 0 }' "$dir/joblog"
}
# H:MM:SS of a number of seconds.
clock() { printf '%d:%02d:%02d' $(($1 / 3600)) $(($1 / 60 % 60)) $(($1 % 60)); }
# Progress on stderr: the shards done of K and the time left at this run's rate, every 10 s
# when the count changed (parallel prints nothing while it runs).
progress() {
    local start=$SECONDS before last=-1 now left
    before="$(shards_done)"
    while sleep "${NQ_PROGRESS_EVERY:-10}"; do
        now="$(shards_done)"
        [[ "$now" == "$last" ]] && continue
        last=$now
        left="unknown"
        if ((now > before)); then
            left="$(clock $(((SECONDS - start) * (k - now) / (now - before))))"
        fi
        echo "parallel-shards.sh: $now of $k shards done ($((now - before)) in this run, $(clock $((SECONDS - start)))), about $left left" >&2
    done
}
progress &
progress_pid=$!
trap 'kill "$progress_pid" 2>/dev/null || true' EXIT
# --resume-failed: jobs the log records as done are skipped, failed or killed ones run again
# (and resume from their journals). --halt never: one failing shard does not stop the others.
# parallel runs in the background so that a stop signal reaches the trap at once (bash defers
# a trap while a foreground job runs, and took parallel's exit 255 for the end); the trap
# sends parallel SIGTERM twice: it stops starting shards, then stops the running ones with
# --termseq, SIGINT first (each shard stops at its journal within about a second), SIGTERM 10 s
# later, SIGKILL (which a journal survives too) 10 s after that.
# The stop traps are set before parallel starts: a signal in between is remembered and passed on
# once parallel's pid is known (a Ctrl-C then never reads as parallel's exit 255: a run of the
# recipe test on a loaded machine once lost it so).
stopped=""
parallel_pid=""
stop() {
    stopped=$1
    [[ -n "$parallel_pid" ]] || return 0
    kill -TERM "$parallel_pid" 2>/dev/null || true
    sleep 0.2
    kill -TERM "$parallel_pid" 2>/dev/null || true
}
trap 'stop SIGINT' INT
trap 'stop SIGTERM' TERM
seq 0 $((k - 1)) | parallel --will-cite --joblog "$dir/joblog" --resume-failed --halt never "${jobs_opt[@]}" \
    --termseq INT,10000,TERM,10000,KILL,25 "${sshlogins[@]}" \
    "$nqueens" count "$n" --shard "{}/$k" --algorithm "$algorithm" "${threads_opt[@]}" --device "$device" --progress never \
    --checkpoint "$dir/shard-{}.journal" --output "$dir/shard-{}.json" &
parallel_pid=$!
[[ -z "$stopped" ]] || stop "$stopped"
status=0
while :; do
    wait "$parallel_pid" && status=0 || status=$?
    kill -0 "$parallel_pid" 2>/dev/null || break # else a trap interrupted the wait
done
kill "$progress_pid" 2>/dev/null || true
wait "$progress_pid" 2>/dev/null || true
done_now="$(shards_done)"
if [[ -n "$stopped" ]]; then
    echo "parallel-shards.sh: stopped by $stopped: $done_now of $k shards are done, the others keep their journals in $dir; run the same command again to resume: $command_line" >&2
    [[ "$stopped" == SIGINT ]] && exit 130
    exit 143
fi
if ((done_now < k)); then
    echo "parallel-shards.sh: $((k - done_now)) of $k shards failed (parallel exit $status; see $dir/joblog and each shard's stderr above); run the same command again to retry them: $command_line" >&2
    exit 1
fi
echo "parallel-shards.sh: $k of $k shards done; merging" >&2

# The K names on standard input: from K ≈ 50,000 they would overflow an argument list.
for ((i = 0; i < k; i++)); do echo "$dir/shard-$i.json"; done |
    "$nqueens" merge --files-from - --format "$format" "${verify[@]}"
