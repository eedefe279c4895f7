#!/usr/bin/env bash
# Issue 40's findings on their exact inputs, against one nqueens binary: each command, its exit
# code and what it printed (stdout and stderr, cut to 600 bytes), in order. Run as root (tmpfs
# mounts) with pocl installed (apt-get install pocl-opencl-icd ocl-icd-libopencl1):
#   findings.sh BIN > OUT.txt
# Before: the binary of 85b91d6; after: this folder's commit (README.md says which).
set -uo pipefail
bin=$(readlink -f "$1")
work=$(mktemp -d)
trap 'umount "$work"/full "$work"/ro "$work"/small 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
show() { # show LABEL COMMAND...: runs COMMAND under bash, prints its code and output
  local label=$1; shift
  echo "### $label"
  echo "\$ $*"
  local out rc
  out=$(timeout 300 bash -c "$*" 2>&1); rc=$?
  printf '%s\n' "${out:0:600}"
  echo "[exit $rc]"
  echo
}
mkdir full ro small
mount -t tmpfs -o size=64k tmpfs full && dd if=/dev/zero of=full/fill bs=4k 2>/dev/null
mount -t tmpfs -o ro,size=64k tmpfs ro
mount -t tmpfs -o size=64k tmpfs small && dd if=/dev/zero of=small/fill bs=4k count=15 2>/dev/null
N="$bin"
("$N" solve 50 --any; echo; "$N" solve 50 --any) > dup50.txt
show "High: check with a full TMPDIR" "TMPDIR=$work/full $N check --partial dup50.txt"
show "High: check with a missing TMPDIR" "TMPDIR=$work/nothere $N check --partial dup50.txt"
show "High: check with a read-only TMPDIR" "TMPDIR=$work/ro $N check --partial dup50.txt"
# 1,200 distinct boards of n = 1009 and a repeat: past the 4 MiB kept in memory.
awk 'BEGIN { n = 1009; for (k = 0; k <= 1200; k++) { kk = (k == 1200 ? 0 : k); a = 2 + int(kk / n); b = kk % n;
  line = ""; for (r = 0; r < n; r++) line = line (r ? " " : "") ((a * r + b) % n + 1); print line } }' > big.txt
show "High: a large list with a full TMPDIR" "TMPDIR=$work/full $N check --partial big.txt"
show "High: a large list with a writable TMPDIR" "TMPDIR=$work $N check --partial big.txt"
show "Medium: plan --device ignores --sample-seconds (n = 20 as a quick proxy of n = 22)" "/usr/bin/time -f '%e s wall' $N plan 20 --device opencl --sample-seconds 0.05 | grep 'device time'"
for rows in 1 3 6; do
  show "Medium: NQUEENS_GPU_TASK_ROWS=$rows under prlimit --as=1000000000" "NQUEENS_GPU_TASK_ROWS=$rows prlimit --as=1000000000 $N count 16 --device opencl"
done
show "Low: --checkpoint /dev/stderr into a file" "$N count 10 --checkpoint /dev/stderr 2> err.txt; echo \"exit \$?\"; head -c 200 err.txt"
show "Low: --breakdown on a full disk" "$N count 10 --algorithm mirror --breakdown $work/small/b.csv 2>&1 | head -4"
show "Low: solve 12 --limit -1" "$N solve 12 --limit -1"
show "Low: solve -1 --any" "$N solve -1 --any"
echo hi > afile
show "Low: a file where a folder belongs" "$N count 12 --shard 0/2 --output afile/x.json"
show "Low: a file where a folder belongs (journal)" "$N count 12 --checkpoint afile/j"
for i in 0 1; do "$N" count 10 --shard $i/2 --output s$i.json >/dev/null 2>&1; done
show "Low: merge --audit 1e-300" "$N merge s0.json s1.json --audit 1e-300 --seed 1"
python3 - <<'PY'
import json
v = json.load(open('s1.json')); v['devices'] = ['my GPU']; json.dump(v, open('s1.json', 'w'))
PY
show "Low: a shard's devices field" "$N merge s0.json s1.json --format json"
show "First hour 2: man nqueens-count" "$N man count | head -3"
show "First hour 8: count 16 --format plain" "$N count 16 --format plain"
show "First hour 8: check --report json" "$N solve 6 | $N check --report json"
show "First hour 5: the stop message of a run auto chose" "rm -f au.j; ( $N count 18 -j 1 --checkpoint au.j --progress never & p=\$!; while [ \$(wc -l < au.j 2>/dev/null || echo 0) -lt 3 ]; do sleep 0.05; done; kill -INT \$p; wait \$p ) 2>&1 | tail -1"
show "First hour 6: the JSON of count 8 -j 2" "$N count 8 -j 2 --format json"
