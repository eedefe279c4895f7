#!/usr/bin/env bash
# Counts Q(N) as a Slurm job array of K shards with checkpoints and a graceful stop, then merges.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage:
  scripts/slurm-shards.sh submit N K [OPTIONS] [-- SBATCH_OPTS...]
  scripts/slurm-shards.sh resume DIR [-- SBATCH_OPTS...]
  scripts/slurm-shards.sh task            (run by Slurm as each array task)
  scripts/slurm-shards.sh merge           (run by Slurm after the array, or by hand)

`submit` (on a login node) submits K tasks as job arrays, task I counting shard I/K of Q(N)
(`nqueens count N --shard I/K`) with its own checkpoint journal in DIR, and a merge job that
runs once every task has ended, whatever its state (`--dependency=afterany`), audits a sample
of every shard (`nqueens merge --audit F`) and writes DIR/result.txt, or refuses loudly (exit
1, naming the missing shards or the disagreeing ones) when one has no result or is wrong.

Arrays: Slurm refuses an array whose task indices reach the cluster's MaxArraySize (1001 by
default), so K shards go into ceil(K / M) arrays of at most M tasks (indices 0..M-1), array j
counting shards j*M .. j*M+M-1, where M is MaxArraySize as `scontrol show config` says (or
--max-array). A pending array is one job record of the controller (MaxJobCount) and each
task that starts becomes one: K = 10^5 at M = 1001 is 100 arrays. With --throttle P every array runs at
most P tasks at once and starts when the one before it has ended (`afterany`), so the run
never holds more than P; without it every array is submitted at once.

Graceful stop: the array is submitted with `--signal=B:USR1@LEAD`, so LEAD seconds before its
time limit the task script receives SIGUSR1 and passes it on to nqueens, which finishes the
running subproblems, fsyncs its journal and exits 143; the task then requeues itself (`scontrol
requeue`) and its next start resumes from the journal (Slurm starts a requeued job again about
2 minutes later). Only that warning requeues: `scancel` (SIGTERM) stops the task for good, with
its journal kept. A task that fails (killed, out of memory, node lost) does not run again by
itself: the merge then refuses, and `resume DIR` submits the unfinished shards again (each
resumes from its journal) with a new merge job.

The algorithm is fixed for the whole run at submit time (`auto` is resolved with the memory a
task gets, --mem), so that every task and every restart, on any node, uses the same plan and
its journal stays valid.

Options (submit):
  --dir DIR          shared folder for journals, results and logs [default: ./shards-nN-kK]
  --threads T        CPUs per task (`--cpus-per-task`), nqueens -j T [default: 1]
  --time T           time limit per task, any sbatch --time form [default: 1:00:00]; must
                     be at least the warning lead + 90 s (Slurm may warn up to 60 s early)
  --mem M            memory per task (and for the merge), sbatch --mem form (e.g. 4G, 500M)
                     [default: what `nqueens plan` says a process needs, plus 25%]
  --algorithm A      auto, d4, join or mirror [default: $ALGORITHM, else auto]
  --signal-lead S    seconds of warning before the time limit [default: 120]
  --throttle P       at most P tasks at once: each array `%P`, and each array after the first
                     waits for the one before (see Arrays above)
  --max-array M      tasks per array [default: MaxArraySize from `scontrol show config`,
                     else 1001]
  --audit F          the merge job recounts a fraction F (0 to 1) of every shard's
                     subproblems and compares them with the shard's subtotals (`nqueens merge
                     --audit F`; at least one subproblem of each shard when F > 0, so about
                     max(F, 1/m) of the run's CPU time for m subproblems a shard, on the merge
                     job's --threads CPUs: give it the --merge-time); 0 checks the subtotals
                     without recounting [default: 0.01]
  --merge-time T     time limit of the merge job [default: 0:30:00]
  --array-opt OPT    one more sbatch option for the array only (repeatable), e.g.
                     --array-opt=--partition=long
  --merge-opt OPT    one more sbatch option for the merge job only (repeatable)
  --nqueens BIN      the nqueens binary, on a path every node sees [default: nqueens on PATH,
                     else target/release/nqueens beside this script]
  -- OPTS...         further sbatch options for both jobs (partition, account, ...)
  -h, --help         this help

`resume DIR` reads the settings `submit` saved in DIR/run.env, refuses while a task of the run
is still queued or running, and submits the shards that have no result yet (and the merge).

Environment read by `task` and `merge` (set by `submit`): NQ_N, NQ_K, NQ_DIR, NQ_THREADS,
NQ_BIN, NQ_ALGORITHM, NQ_OFFSET (the first shard of the array), NQ_AUDIT; Slurm's
SLURM_ARRAY_TASK_ID (task: shard NQ_OFFSET + it), SLURM_ARRAY_JOB_ID (requeue).

Each task appends to DIR/task-I.log (I the shard) one line when it starts (host, time,
restart count, subproblems its journal already holds) and one when it ends (finished, stopped
or failed, exit status, seconds), and what nqueens writes on stderr; what Slurm itself writes
for the tasks of an array goes to DIR/slurm-ARRAYJOB.log. The merge reads the shard results
from a list on its standard input (`merge --files-from -`), never from an argument list,
which 10^5 names would overflow.

Example:
  scripts/slurm-shards.sh submit 21 64 --threads 8 --time 4:00:00 --mem 8G --throttle 16 \
      --dir /scratch/q21 -- -p batch
USAGE
}

die() { echo "slurm-shards.sh: $*" >&2; exit 2; }

default_bin() { command -v nqueens || echo "$(cd "$(dirname "$0")/.." && pwd)/target/release/nqueens"; }

# Prints an sbatch --time value (M, M:S, H:M:S, D-H, D-H:M, D-H:M:S) in seconds; fails on others.
time_seconds() {
    local t="$1" d=0 rest h=0 m=0 s=0
    if [[ "$t" =~ ^([0-9]+)-(.*)$ ]]; then
        d="${BASH_REMATCH[1]}" rest="${BASH_REMATCH[2]}"
        if [[ "$rest" =~ ^([0-9]+)$ ]]; then h="${BASH_REMATCH[1]}"
        elif [[ "$rest" =~ ^([0-9]+):([0-9]+)$ ]]; then h="${BASH_REMATCH[1]}" m="${BASH_REMATCH[2]}"
        elif [[ "$rest" =~ ^([0-9]+):([0-9]+):([0-9]+)$ ]]; then
            h="${BASH_REMATCH[1]}" m="${BASH_REMATCH[2]}" s="${BASH_REMATCH[3]}"
        else return 1; fi
    elif [[ "$t" =~ ^([0-9]+)$ ]]; then m="${BASH_REMATCH[1]}"
    elif [[ "$t" =~ ^([0-9]+):([0-9]+)$ ]]; then m="${BASH_REMATCH[1]}" s="${BASH_REMATCH[2]}"
    elif [[ "$t" =~ ^([0-9]+):([0-9]+):([0-9]+)$ ]]; then
        h="${BASH_REMATCH[1]}" m="${BASH_REMATCH[2]}" s="${BASH_REMATCH[3]}"
    else return 1; fi
    echo $(((10#$d * 24 + 10#$h) * 3600 + 10#$m * 60 + 10#$s))
}

# Prints an sbatch --mem value (a number with an optional K, M, G or T suffix; MiB without one)
# in MiB, rounded up; fails on others.
mem_mib() {
    [[ "$1" =~ ^([0-9]+)([KkMmGgTt]?)[Bb]?$ ]] || return 1
    local v="${BASH_REMATCH[1]}"
    case "${BASH_REMATCH[2]}" in
        K|k) echo $(((v + 1023) / 1024)) ;;
        ""|M|m) echo "$v" ;;
        G|g) echo $((v * 1024)) ;;
        T|t) echo $((v * 1024 * 1024)) ;;
    esac
}

# Prints the value of "key" in the one-line JSON object $2 (numbers and plain strings only).
json_field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p" <<<"$2"; }

# Copies the sbatch options saved in run.env variable $2 into array $1: a bash array, one option
# each, so that an option with spaces (--array-opt='--comment=Q 22') survives a resume. A run.env
# written before 2026-12-01 holds one string of options separated by spaces.
saved_opts() {
    local -n into="$1" saved="$2"
    if [[ "$(declare -p "$2" 2>/dev/null)" == "declare -a"* ]]; then
        into=("${saved[@]}")
    elif [[ -n "${saved:-}" ]]; then
        read -r -a into <<<"$saved"
    fi
}

# Writes the bash assignment of array variable $1 holding options $2..., quoted for `source`.
save_opts() {
    local name="$1"
    shift
    printf '%s=(' "$name"
    (($#)) && printf ' %q' "$@"
    printf ' )\n'
}

# Prints, for the shard numbers on stdin (one a line, increasing), one line per array of at most
# $1 tasks they fall into: the array's first shard (its offset) and its --array indices, runs
# of consecutive ones as ranges (e.g. "1001 0-5,7,9-20").
array_specs() {
    awk -v m="$1" '
        function run() { spec = spec (spec == "" ? "" : ",") (s == e ? s : s "-" e) }
        function flush() { if (cur >= 0) { run(); print cur * m, spec } }
        BEGIN { cur = -1 }
        { c = int($1 / m); i = $1 - c * m
          if (c != cur) { flush(); cur = c; spec = ""; s = i; e = i }
          else if (i == e + 1) { e = i }
          else { run(); s = i; e = i } }
        END { flush() }'
}

# Submits the shards listed on stdin (one a line, increasing) as arrays of at most
# NQ_MAX_ARRAY tasks, and the merge job after all of them, from run.env; further sbatch
# options in "$@".
submit_jobs() {
    local extra=("$@")
    # shellcheck disable=SC1091
    source "$NQ_DIR/run.env"
    local max="${NQ_MAX_ARRAY:-1001}" throttle="${NQ_THROTTLE:-}"
    local base="ALL,NQ_N=$NQ_N,NQ_K=$NQ_K,NQ_DIR=$NQ_DIR,NQ_THREADS=$NQ_THREADS,NQ_BIN=$NQ_BIN,NQ_ALGORITHM=$NQ_ALGORITHM"
    local array_opts=() merge_opts=()
    saved_opts array_opts NQ_ARRAY_OPTS
    saved_opts merge_opts NQ_MERGE_OPTS
    local arrays=() offset spec array after=() first="" last="" errors
    # sbatch's own messages: passed on, or into the one line that says why an array was refused.
    errors="$(mktemp)"
    while read -r offset spec; do
        after=()
        # With a throttle, one array at a time: the run never holds more than P tasks.
        [[ -n "$throttle" && ${#arrays[@]} -gt 0 ]] && after=(--dependency "afterany:${arrays[-1]}")
        if ! array=$(sbatch --parsable --job-name "nqueens-$NQ_N" --array "$spec${throttle:+%$throttle}" \
            --cpus-per-task "$NQ_THREADS" --mem "${NQ_MEM}M" --time "$NQ_TIME" --signal "B:USR1@$NQ_SIGNAL_LEAD" \
            --requeue --open-mode append --output "$NQ_DIR/slurm-%A.log" --export "$base,NQ_OFFSET=$offset" \
            "${after[@]}" "${extra[@]}" "${array_opts[@]}" "$NQ_SCRIPT" task </dev/null 2>"$errors"); then
            # A limit on jobs (MaxJobCount, a QOS's MaxSubmitJobs) can refuse a later array: keep
            # the ones submitted in DIR/jobs, so that `resume` waits for them.
            ((${#arrays[@]} == 0)) || echo "${arrays[*]}" >>"$NQ_DIR/jobs"
            local why
            why="$(tail -n 1 "$errors")"
            rm -f "$errors"
            die "sbatch refused the array of shards $(shards_of "$offset:$spec") (${why:-no message}) after ${#arrays[@]} array(s) were submitted (${arrays[*]:-none}); no merge job was submitted: once they have ended, \`resume $NQ_DIR\` submits the rest"
        fi
        cat "$errors" >&2
        arrays+=("${array%%;*}")
        [[ -n "$first" ]] || first="$offset:$spec"
        last="$offset:$spec"
    done < <(array_specs "$max")
    rm -f "$errors"
    [[ ${#arrays[@]} -gt 0 ]] || die "no shards to submit"
    local dependency
    dependency="afterany$(printf ':%s' "${arrays[@]}")"
    local merge
    merge=$(sbatch --parsable --job-name "nqueens-$NQ_N-merge" --dependency "$dependency" \
        --cpus-per-task "$NQ_THREADS" --mem "${NQ_MEM}M" --time "$NQ_MERGE_TIME" --open-mode append \
        --output "$NQ_DIR/merge.log" --export "$base,NQ_AUDIT=${NQ_AUDIT:-}" "${extra[@]}" "${merge_opts[@]}" \
        "$NQ_SCRIPT" merge </dev/null)
    merge="${merge%%;*}"
    echo "${arrays[*]} $merge" >>"$NQ_DIR/jobs"
    local what
    if [[ ${#arrays[@]} -eq 1 ]]; then
        what="array job ${arrays[0]} (shards $(shards_of "$first") of K = $NQ_K)"
    else
        what="${#arrays[@]} array jobs ${arrays[0]} .. ${arrays[-1]} of at most $max tasks (shards $(shards_of "$first") .. $(shards_of "$last") of K = $NQ_K)"
    fi
    echo "submitted $what and merge job $merge; result in $NQ_DIR/result.txt"
}

# Prints the shards of an array "OFFSET:SPEC" (the indices SPEC, each plus OFFSET), e.g.
# "1001:0-2,5" gives "1001-1003,1006".
shards_of() {
    local offset="${1%%:*}" spec="${1#*:}" part out=()
    local IFS=,
    for part in $spec; do
        if [[ "$part" == *-* ]]; then out+=("$((offset + ${part%-*}))-$((offset + ${part#*-}))")
        else out+=("$((offset + part))"); fi
    done
    echo "${out[*]}"
}

submit() {
    local n="" k="" dir="" threads=1 time=1:00:00 mem="" algorithm="${ALGORITHM:-auto}" lead=120
    local throttle="" merge_time=0:30:00 bin="" extra=() positional=() array_opts=() merge_opts=()
    local max_array="" audit=0.01
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --dir|--threads|--time|--mem|--algorithm|--signal-lead|--throttle|--merge-time|--nqueens|--array-opt|--merge-opt|--max-array|--audit)
                [[ $# -ge 2 ]] || die "$1 needs a value (see --help)" ;;&
            --dir) dir="$2"; shift 2 ;;
            --threads) threads="$2"; shift 2 ;;
            --time) time="$2"; shift 2 ;;
            --mem) mem="$2"; shift 2 ;;
            --algorithm) algorithm="$2"; shift 2 ;;
            --signal-lead) lead="$2"; shift 2 ;;
            --throttle) throttle="$2"; shift 2 ;;
            --max-array) max_array="$2"; shift 2 ;;
            --audit) audit="$2"; shift 2 ;;
            --merge-time) merge_time="$2"; shift 2 ;;
            --array-opt) array_opts+=("$2"); shift 2 ;;
            --array-opt=*) array_opts+=("${1#--array-opt=}"); shift ;;
            --merge-opt) merge_opts+=("$2"); shift 2 ;;
            --merge-opt=*) merge_opts+=("${1#--merge-opt=}"); shift ;;
            --nqueens) bin="$2"; shift 2 ;;
            --) shift; extra=("$@"); break ;;
            -*) die "unknown option '$1' (see --help)" ;;
            *) positional+=("$1"); shift ;;
        esac
    done
    [[ ${#positional[@]} -eq 2 ]] || die "submit needs N and K (see --help)"
    n="${positional[0]}" k="${positional[1]}"
    [[ "$n" =~ ^[0-9]+$ && "$k" =~ ^[0-9]+$ && "$k" -ge 1 ]] || die "N '$n' and K '$k' must be integers, K >= 1"
    [[ "$threads" =~ ^[0-9]+$ && "$threads" -ge 1 ]] || die "--threads '$threads' must be an integer >= 1"
    [[ "$lead" =~ ^[0-9]+$ ]] || die "--signal-lead '$lead' must be a number of seconds"
    [[ -z "$throttle" || ("$throttle" =~ ^[0-9]+$ && "$throttle" -ge 1) ]] ||
        die "--throttle '$throttle' must be an integer >= 1"
    [[ -z "$max_array" || ("$max_array" =~ ^[0-9]+$ && "$max_array" -ge 1) ]] ||
        die "--max-array '$max_array' must be an integer >= 1 (tasks per job array)"
    [[ "$audit" =~ ^(0|1|0?\.[0-9]+|1\.0+|0\.)$ ]] ||
        die "--audit '$audit' must be a fraction from 0 to 1 (e.g. 0.01; 0 recounts nothing)"
    case "$algorithm" in auto|d4|join|mirror) ;; *) die "--algorithm '$algorithm' is not one of auto, d4, join, mirror" ;; esac
    local seconds
    seconds="$(time_seconds "$time")" || die "--time '$time' is not an sbatch time (M, M:S, H:M:S, D-H:M:S)"
    time_seconds "$merge_time" >/dev/null || die "--merge-time '$merge_time' is not an sbatch time"
    # Slurm checks time limits every 30 s and may send the warning up to 60 s early: keep at
    # least 30 s of work per start.
    if ((seconds < lead + 90)); then
        die "--time $time ($seconds s) is too short for the ${lead} s warning (Slurm may send it up to 60 s early): use --time of at least $(((lead + 90 + 59) / 60)) minutes, or a smaller --signal-lead"
    fi
    local mib=""
    if [[ -n "$mem" ]]; then
        mib="$(mem_mib "$mem")" || die "--mem '$mem' is not an sbatch memory size (e.g. 4G, 500M)"
    fi
    bin="${bin:-$(default_bin)}"
    [[ -x "$bin" ]] || die "the nqueens binary '$bin' is not executable (give --nqueens BIN)"
    # Fix the algorithm for the whole run: `auto` as a task with $mib MiB would resolve it
    # (SLURM_MEM_PER_NODE=0: no limit but this machine's, when --mem is not given).
    local plan limit=0
    [[ $algorithm == auto ]] && limit="${mib:-0}"
    plan="$(SLURM_MEM_PER_NODE="$limit" "$bin" plan "$n" --shards "$k" --algorithm "$algorithm" \
        --sample-seconds 0 --format json 2>&1)" || die "$(tail -n 1 <<<"$plan")"
    local resolved needed
    resolved="$(json_field algorithm "$plan")"
    needed="$(json_field memory_mib "$plan")"
    [[ -n "$resolved" && -n "$needed" ]] || die "could not read the plan of nqueens: $plan"
    if [[ -z "$mib" ]]; then
        mib=$((needed + needed / 4))
    elif ((mib < needed)); then
        die "--mem $mem ($mib MiB) is less than the $needed MiB a $resolved process needs at n = $n: give more, or --algorithm d4"
    fi
    command -v sbatch >/dev/null || die "sbatch not found: run submit on a Slurm login node"
    if [[ -z "$max_array" ]]; then
        max_array="$(max_array_size)"
        ((max_array >= 1)) || die "this cluster's MaxArraySize is $max_array: it runs no job arrays"
    fi
    dir="${dir:-shards-n$n-k$k}"
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    if [[ -f "$dir/run.env" ]]; then
        local old
        old="$(grep -E '^NQ_(N|K|ALGORITHM)=' "$dir/run.env" | tr '\n' ' ')"
        [[ "$old" == "NQ_N=$n NQ_K=$k NQ_ALGORITHM=$resolved " ]] ||
            die "$dir holds another run ($old): use another --dir, or \`resume $dir\`"
        refuse_if_active "$dir"
    fi
    {
        echo "NQ_N=$n"
        echo "NQ_K=$k"
        echo "NQ_ALGORITHM=$resolved"
        printf 'NQ_DIR=%q\nNQ_BIN=%q\nNQ_SCRIPT=%q\n' "$dir" "$bin" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
        echo "NQ_THREADS=$threads"
        echo "NQ_MEM=$mib"
        printf 'NQ_TIME=%q\nNQ_MERGE_TIME=%q\n' "$time" "$merge_time"
        echo "NQ_SIGNAL_LEAD=$lead"
        echo "NQ_MAX_ARRAY=$max_array"
        echo "NQ_THROTTLE=$throttle"
        echo "NQ_AUDIT=$audit"
        save_opts NQ_ARRAY_OPTS "${array_opts[@]}"
        save_opts NQ_MERGE_OPTS "${merge_opts[@]}"
    } >"$dir/run.env"
    NQ_DIR="$dir"
    submit_jobs "${extra[@]}" < <(seq 0 $((k - 1)))
}

# Prints the cluster's MaxArraySize (`scontrol show config`), or Slurm's default 1001 when
# scontrol does not say.
max_array_size() {
    local v
    v="$(scontrol show config 2>/dev/null | awk -F= '/^MaxArraySize[[:space:]]*=/ { gsub(/[[:space:]]/, "", $2); print $2 }')"
    [[ "$v" =~ ^[0-9]+$ ]] && echo "$v" || echo 1001
}

# Exits 2 if a job of the run in $1 (its DIR/jobs) is still queued or running: a second task on
# the same shard would find its journal locked and fail.
refuse_if_active() {
    local dir="$1" job active=()
    [[ -f "$dir/jobs" ]] || return 0
    command -v squeue >/dev/null || die "squeue not found: run this on a Slurm login node"
    # One job at a time: squeue refuses a whole list if one id in it is no longer known.
    for job in $(cat "$dir/jobs"); do
        while read -r id; do
            [[ -n "$id" ]] && active+=("$id")
        done < <(squeue -h -j "$job" -t PENDING,RUNNING,REQUEUED,SUSPENDED,CONFIGURING,COMPLETING -o %i 2>/dev/null || true)
    done
    [[ ${#active[@]} -eq 0 ]] || die "jobs of the run in $dir are still queued or running (${active[*]}): wait, or scancel them first"
}

# Prints the shards of the run in $NQ_DIR that have no result yet, one a line, increasing.
unfinished() {
    local i
    for ((i = 0; i < NQ_K; i++)); do [[ -f "$NQ_DIR/shard-$i.json" ]] || echo "$i"; done
}

resume() {
    [[ $# -ge 1 ]] || die "resume needs the run's DIR (see --help)"
    local dir="$1"
    shift
    [[ "${1:-}" == "--" ]] && shift
    [[ -f "$dir/run.env" ]] || die "$dir/run.env not found: not a folder of \`slurm-shards.sh submit\`"
    refuse_if_active "$dir"
    # shellcheck disable=SC1091
    source "$dir/run.env"
    local todo
    todo="$(unfinished)"
    if [[ -z "$todo" ]]; then
        echo "every shard of $dir has a result; merging"
        merge
        return
    fi
    submit_jobs "$@" <<<"$todo"
}

task() {
    : "${NQ_N:?}" "${NQ_DIR:?}" "${SLURM_ARRAY_TASK_ID:?}"
    local i=$((${NQ_OFFSET:-0} + SLURM_ARRAY_TASK_ID)) k="${NQ_K:-${SLURM_ARRAY_TASK_COUNT:?}}"
    local bin="${NQ_BIN:-$(default_bin)}"
    # The shard's own log (an array's tasks share Slurm's --output, which names no shard).
    exec >>"$NQ_DIR/task-$i.log" 2>&1
    local journal="$NQ_DIR/shard-$i.journal" child=0 reason="" started
    started="$(date +%s)"
    local recorded=0
    [[ -f "$journal" ]] && recorded="$(grep -c '^id=' "$journal" || true)"
    echo "task $i/$k: start on $(hostname) at $(date -u +%FT%TZ), restart ${SLURM_RESTART_COUNT:-0}, journal holds $recorded subproblem(s), algorithm ${NQ_ALGORITHM:-auto}, memory limit ${SLURM_MEM_PER_NODE:-none} MiB"
    # Slurm signals this script: USR1 is the time-limit warning (B:USR1@LEAD), TERM is scancel
    # or the limit itself. Both reach nqueens (a graceful stop); only the warning requeues.
    trap 'reason=warning; [[ $child -ne 0 ]] && kill -USR1 "$child" 2>/dev/null || true' USR1
    trap 'reason=cancel; [[ $child -ne 0 ]] && kill -TERM "$child" 2>/dev/null || true' TERM
    local status=0
    if [[ -z "$reason" ]]; then
        "$bin" count "$NQ_N" --shard "$i/$k" --algorithm "${NQ_ALGORITHM:-auto}" -j "${NQ_THREADS:-1}" \
            --progress never --checkpoint "$journal" --output "$NQ_DIR/shard-$i.json" &
        child=$!
        # A signal that came while nqueens was starting.
        case "$reason" in warning) kill -USR1 "$child" 2>/dev/null ;; cancel) kill -TERM "$child" 2>/dev/null ;; esac
        # `wait` returns early when a trapped signal arrives: wait again until nqueens has exited.
        while true; do
            wait "$child" && status=0 || status=$?
            kill -0 "$child" 2>/dev/null || break
        done
    else
        status=143
    fi
    local took=$(($(date +%s) - started)) at
    at="$(date -u +%FT%TZ)"
    if [[ $status -eq 0 ]]; then
        echo "task $i/$k: finished on $(hostname) at $at after $took s"
    elif [[ $reason == warning && ($status -eq 143 || $status -eq 130) ]]; then
        echo "task $i/$k: stopped by the time-limit warning at $at after $took s; its journal keeps the work done; requeueing"
        if [[ -n "${SLURM_ARRAY_JOB_ID:-}" ]] && command -v scontrol >/dev/null; then
            scontrol requeue "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}"
        fi
    elif [[ $reason == cancel ]]; then
        echo "task $i/$k: cancelled at $at after $took s (exit $status); its journal keeps the work done; \`slurm-shards.sh resume $NQ_DIR\` continues"
    else
        echo "task $i/$k: FAILED at $at after $took s (exit $status); \`slurm-shards.sh resume $NQ_DIR\` runs it again from its journal"
    fi
    exit "$status"
}

merge() {
    : "${NQ_N:?}" "${NQ_DIR:?}"
    local bin="${NQ_BIN:-$(default_bin)}"
    echo "merge: start on $(hostname) at $(date -u +%FT%TZ)"
    shopt -s nullglob
    local shards=("$NQ_DIR"/shard-*.json)
    if [[ -n "${NQ_K:-}" ]]; then
        local todo
        todo="$(unfinished | paste -sd, -)"
        [[ -z "$todo" ]] || echo "merge: shard(s) $todo of $NQ_K have no result; \`slurm-shards.sh resume $NQ_DIR\` runs them again from their journals" >&2
    fi
    [[ ${#shards[@]} -gt 0 ]] || { echo "slurm-shards.sh: no shard results in $NQ_DIR" >&2; exit 1; }
    local out status=0 audit=()
    [[ -n "${NQ_AUDIT:-}" ]] && audit=(--audit "$NQ_AUDIT" -j "${NQ_THREADS:-1}")
    # The names on standard input: 10^5 of them would overflow an argument list (ARG_MAX).
    out="$(printf '%s\n' "${shards[@]}" | "$bin" merge --files-from - --verify "${audit[@]}")" || status=$?
    if [[ $status -ne 0 ]]; then
        echo "merge: REFUSED (exit $status) at $(date -u +%FT%TZ); no result.txt written" >&2
        exit "$status"
    fi
    echo "$out" | tee "$NQ_DIR/result.txt"
    echo "merge: done at $(date -u +%FT%TZ)"
}

case "${1:-}" in
    -h|--help|"") usage; [[ -n "${1:-}" ]] || exit 2; exit 0 ;;
    submit) shift; submit "$@" ;;
    resume) shift; resume "$@" ;;
    task) task ;;
    merge) merge ;;
    *) die "unknown mode '$1': use submit, resume, task or merge (see --help)" ;;
esac
