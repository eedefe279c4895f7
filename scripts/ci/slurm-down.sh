#!/usr/bin/env bash
# Stops the single-node Slurm that scripts/ci/slurm-up.sh started: slurmd, slurmctld, and munged
# if slurm-up.sh started it. Leaves DIR (logs) in place.
set -uo pipefail
case "${1:-}" in
    -h|--help) echo "Usage: scripts/ci/slurm-down.sh [DIR]   (DIR as given to slurm-up.sh)"; exit 0 ;;
esac
dir="${1:-${NQ_SLURM_DIR:-/tmp/nqueens-slurm}}"
stop() {
    local pidfile="$1" pid
    [[ -s "$pidfile" ]] || return 0
    pid="$(cat "$pidfile")"
    if kill "$pid" 2>/dev/null; then
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$pidfile"
}
stop "$dir/slurmd.pid"
stop "$dir/slurmctld.pid"
stop "$dir/munged.pid"
exit 0
