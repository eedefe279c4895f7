#!/usr/bin/env bash
# Counts Q(N) as a Slurm job array of K shards with checkpoints and a graceful stop, then merges.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage:
  scripts/slurm-shards.sh submit N K [--dir DIR] [--threads T] [--time T] [--nqueens BIN] [-- SBATCH_OPTS...]
  scripts/slurm-shards.sh task            (run by Slurm as each array task)
  scripts/slurm-shards.sh merge           (run by Slurm after the array, or by hand)

`submit` (on a login node) submits a job array of K tasks, task I counting shard I/K of Q(N)
(`nqueens count N --shard I/K`) with its own checkpoint journal in DIR, and a merge job that
runs after every task has succeeded (`--dependency=afterok`) and writes DIR/result.txt.

Graceful stop: the array is submitted with `--signal=B:USR1@120`, so 120 s before its time limit
the task script receives SIGUSR1 and passes it on to nqueens, which finishes the running
subproblems, fsyncs its journal and exits 143; the task then requeues itself (`scontrol
requeue`) and its next start resumes from the journal. A preempted or failed task resumes the
same way when it runs again.

Options (submit):
  --dir DIR        shared folder for journals, results and logs [default: ./shards-nN-kK]
  --threads T      CPUs per task (`--cpus-per-task`), nqueens -j T [default: 1]
  --time T         time limit per task, any sbatch --time form [default: 1:00:00]
  --nqueens BIN    the nqueens binary, on a path every node sees [default: nqueens on PATH,
                   else target/release/nqueens beside this script]
  -- OPTS...       further sbatch options for both jobs (partition, account, ...)
  -h, --help       this help

Environment read by `task` and `merge` (set by `submit`): NQ_N, NQ_DIR, NQ_THREADS, NQ_BIN;
Slurm's SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT (task), SLURM_ARRAY_JOB_ID (requeue).

Example:
  scripts/slurm-shards.sh submit 21 64 --threads 8 --time 4:00:00 --dir /scratch/q21 -- -p batch
USAGE
}

die() { echo "slurm-shards.sh: $*" >&2; exit 2; }

default_bin() { command -v nqueens || echo "$(cd "$(dirname "$0")/.." && pwd)/target/release/nqueens"; }

submit() {
    local n="" k="" dir="" threads=1 time=1:00:00 bin="" extra=() positional=()
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --dir) dir="$2"; shift 2 ;;
            --threads) threads="$2"; shift 2 ;;
            --time) time="$2"; shift 2 ;;
            --nqueens) bin="$2"; shift 2 ;;
            --) shift; extra=("$@"); break ;;
            -*) die "unknown option '$1' (see --help)" ;;
            *) positional+=("$1"); shift ;;
        esac
    done
    [[ ${#positional[@]} -eq 2 ]] || die "submit needs N and K (see --help)"
    n="${positional[0]}" k="${positional[1]}"
    [[ "$n" =~ ^[0-9]+$ && "$k" =~ ^[0-9]+$ && "$k" -ge 1 ]] || die "N '$n' and K '$k' must be integers, K >= 1"
    command -v sbatch >/dev/null || die "sbatch not found: run submit on a Slurm login node"
    dir="${dir:-shards-n$n-k$k}"
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    bin="${bin:-$(default_bin)}"
    local env="ALL,NQ_N=$n,NQ_DIR=$dir,NQ_THREADS=$threads,NQ_BIN=$bin"
    local array
    array=$(sbatch --parsable --job-name "nqueens-$n" --array "0-$((k - 1))" --cpus-per-task "$threads" \
        --time "$time" --signal B:USR1@120 --requeue --open-mode append \
        --output "$dir/task-%a.log" --export "$env" "${extra[@]}" "$0" task)
    array="${array%%;*}"
    local merge
    merge=$(sbatch --parsable --job-name "nqueens-$n-merge" --dependency "afterok:$array" \
        --output "$dir/merge.log" --export "$env" "${extra[@]}" "$0" merge)
    echo "submitted array job $array (K = $k tasks) and merge job ${merge%%;*}; result in $dir/result.txt"
}

task() {
    : "${NQ_N:?}" "${NQ_DIR:?}" "${SLURM_ARRAY_TASK_ID:?}" "${SLURM_ARRAY_TASK_COUNT:?}"
    local i="$SLURM_ARRAY_TASK_ID" k="$SLURM_ARRAY_TASK_COUNT" bin="${NQ_BIN:-$(default_bin)}"
    local child=0
    # Slurm signals this script (B:USR1); pass the signal on to nqueens for a graceful stop.
    trap '[[ $child -ne 0 ]] && kill -USR1 "$child" 2>/dev/null || true' USR1
    trap '[[ $child -ne 0 ]] && kill -TERM "$child" 2>/dev/null || true' TERM
    "$bin" count "$NQ_N" --shard "$i/$k" -j "${NQ_THREADS:-1}" --progress never \
        --checkpoint "$NQ_DIR/shard-$i.journal" --output "$NQ_DIR/shard-$i.json" &
    child=$!
    local status=0
    # `wait` returns early when a trapped signal arrives: wait again until nqueens has exited.
    while true; do
        wait "$child" && status=0 || status=$?
        kill -0 "$child" 2>/dev/null || break
    done
    if [[ $status -eq 143 || $status -eq 130 ]]; then
        echo "shard $i/$k stopped on a signal; its journal keeps the work done" >&2
        if [[ -n "${SLURM_ARRAY_JOB_ID:-}" ]] && command -v scontrol >/dev/null; then
            scontrol requeue "${SLURM_ARRAY_JOB_ID}_${i}"
        fi
    fi
    exit "$status"
}

merge() {
    : "${NQ_N:?}" "${NQ_DIR:?}"
    local bin="${NQ_BIN:-$(default_bin)}"
    shopt -s nullglob
    local shards=("$NQ_DIR"/shard-*.json)
    [[ ${#shards[@]} -gt 0 ]] || die "no shard results in $NQ_DIR"
    "$bin" merge "${shards[@]}" --verify | tee "$NQ_DIR/result.txt"
}

case "${1:-}" in
    -h|--help|"") usage; [[ -n "${1:-}" ]] || exit 2; exit 0 ;;
    submit) shift; submit "$@" ;;
    task) task ;;
    merge) merge ;;
    *) die "unknown mode '$1': use submit, task or merge (see --help)" ;;
esac
