#!/usr/bin/env bash
# Starts a single-node Slurm on this machine for the recipe tests: installs the Debian packages
# if missing, writes a minimal slurm.conf under a scratch folder, starts munged, slurmctld and
# slurmd, and waits until `sinfo` shows the node idle.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/ci/slurm-up.sh [DIR]

Brings up a single-node Slurm cluster (one partition `ci`, this machine's CPUs and memory) for
tests, as root on Debian/Ubuntu: installs slurmctld, slurmd, slurm-client and munge with apt-get
if they are missing, writes DIR/slurm.conf (state, spool and logs under DIR), starts munged (as
user munge), slurmctld and slurmd, and waits until the node is idle. The last line on stdout is
`SLURM_CONF=DIR/slurm.conf`: export it so that sbatch, squeue and sinfo find this cluster.
Stop it with scripts/ci/slurm-down.sh DIR.

DIR defaults to $NQ_SLURM_DIR, else /tmp/nqueens-slurm.

Exit codes: 0 up; 3 Slurm cannot be installed or started here (the tests then skip); 2 usage.
USAGE
}

case "${1:-}" in -h|--help) usage; exit 0 ;; -*) echo "slurm-up.sh: unknown option '$1'" >&2; exit 2 ;; esac
dir="${1:-${NQ_SLURM_DIR:-/tmp/nqueens-slurm}}"
unavailable() { echo "slurm-up.sh: $*" >&2; exit 3; }

[[ $(id -u) -eq 0 ]] || unavailable "needs root (it starts slurmd and munged)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
    ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || unavailable "Slurm is not installed and there is no apt-get to install it"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq slurmctld slurmd slurm-client munge >/dev/null; } ||
        unavailable "apt-get could not install slurmctld slurmd slurm-client munge"
fi

mkdir -p "$dir"/{state,spool,log}
dir="$(cd "$dir" && pwd)"
conf="$dir/slurm.conf"
host="$(hostname -s)"
# This node's CPUs, sockets, cores, threads and memory as slurmd sees them (the first line of
# `slurmd -C`, e.g. "NodeName=vm CPUs=2 ... RealMemory=24105").
node="$(slurmd -C | head -n 1)"
[[ "$node" == NodeName=* ]] || unavailable "slurmd -C did not describe this node: $node"
cat >"$conf" <<CONF
# Single-node test cluster written by scripts/ci/slurm-up.sh.
ClusterName=nqueensci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups: processes are tracked by parent id, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=512
MpiDefault=none
ReturnToService=2
# Short timers: a cancelled or timed-out task is killed 5 s after SIGTERM; finished jobs stay
# visible to squeue/scontrol for 10 minutes (there is no accounting database for sacct).
SchedulerType=sched/builtin
MailProg=/bin/true
KillWait=5
MinJobAge=600
# Arrays of at most 4 tasks (indices 0..3; Slurm's default is 1001), so that the tests submit
# runs of more shards than one array holds and scripts/slurm-shards.sh splits them.
MaxArraySize=4
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
MessageTimeout=10
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"

# munged, unless one already answers.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    [[ -s /etc/munge/munge.key ]] || { mungekey --create 2>/dev/null || create-munge-key -f; } ||
        unavailable "cannot create /etc/munge/munge.key"
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    chmod 0755 /run/munge
    runuser -u munge -- munged || unavailable "munged did not start"
    cp /run/munge/munged.pid "$dir/munged.pid" 2>/dev/null || true
    for _ in $(seq 50); do munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 || unavailable "munged does not answer"
fi

for daemon in slurmctld slurmd; do
    pidfile="$dir/$daemon.pid"
    if [[ -s "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then continue; fi
    "$daemon" -f "$conf" || unavailable "$daemon did not start (see $dir/log/$daemon.log)"
done
for _ in $(seq 300); do
    state="$(sinfo -h -o %t 2>/dev/null || true)"
    [[ "$state" == idle ]] && break
    sleep 0.1
done
[[ "$state" == idle ]] || {
    tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    unavailable "the node is '$state', not idle, after 30 s"
}
sinfo >&2
echo "SLURM_CONF=$conf"
