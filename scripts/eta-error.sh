#!/usr/bin/env bash
# How right the progress bar's ETA is: the ETA each drawn line shows against the time really left.
set -euo pipefail
usage() {
  cat <<'HELP'
Usage: scripts/eta-error.sh ALGORITHM:N [ALGORITHM:N ...]

Counts each N with `--algorithm ALGORITHM --progress always` on THREADS threads (default all
logical CPUs). With stderr not a terminal the bar is one plain line a second
("n=20 41.2% 1685/4922 00:01:05 ETA 00:01:33"); each line is stamped on arrival with the wall
clock and the process's CPU time (/proc/PID/stat), and its ETA is compared with the time the
run really had left (until the process ended). Appends, in long format:
  OUT/eta-error.csv          one row per bar line:
    date,host,cpu_model,commit,command,algorithm,n,threads,run_seconds,elapsed_s,percent,eta_s,remaining_s,rel_error,cpu_rel_error
  OUT/eta-error-summary.csv  one row per run, over the lines from 50% to 95% of the run's time
    (the second half, less the last seconds, where the bar's whole seconds dominate):
    date,host,cpu_model,commit,command,algorithm,n,threads,run_seconds,lines,max_abs_rel_error,median_abs_rel_error,max_abs_cpu_rel_error,median_abs_cpu_rel_error,load
rel_error = (ETA - remaining) / remaining, in wall-clock time: what a user sees, including the
effect of other load on the machine, which no estimate can foresee. cpu_rel_error is the same
in the process's CPU time: the bar's fraction done projected on the CPU seconds used since its
first line, against the CPU seconds still to come; it isolates the estimate (the weights and
the order) from the machine. run_seconds runs from the first subproblem to the end; load is
the 1-minute load average before the run.

Environment: OUT (default target/studies/<date>-<host>/), NQUEENS (binary), THREADS, EXTRA (more
options for every count, split on spaces, such as EXTRA="--shard 0/8" to time one part of a
board too long to count whole; it is written into the command column).
Example: THREADS=2 scripts/eta-error.sh join:19 d4:19 mirror:18
HELP
}
[ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ] && { usage; exit 0; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
source "$(dirname "$0")/lib.sh"
for spec in "$@"; do
  [[ "$spec" =~ ^(mirror|d4|join|auto):[0-9]+$ ]] ||
    { echo "eta-error.sh: '$spec' is not ALGORITHM:N (mirror, d4, join or auto, then a board size)" >&2; exit 2; }
done
threads=${THREADS:-$(nproc)}
is_positive_int "$threads" || { echo "eta-error.sh: THREADS '$threads' is not a positive integer" >&2; exit 2; }
bin=$(nqueens_bin)
dir=$(out_dir)
lines_csv="$dir/eta-error.csv" summary_csv="$dir/eta-error-summary.csv"
check_header "$lines_csv" "date,host,cpu_model,commit,command,algorithm,n,threads,run_seconds,elapsed_s,percent,eta_s,remaining_s,rel_error,cpu_rel_error"
check_header "$summary_csv" "date,host,cpu_model,commit,command,algorithm,n,threads,run_seconds,lines,max_abs_rel_error,median_abs_rel_error,max_abs_cpu_rel_error,median_abs_cpu_rel_error,load"
host=$(host_name) cpu=$(cpu_model)
commit=$(git -C "$repo_root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$repo_root" diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
stamped=$(mktemp) fifo=$(mktemp -u) timed=$(mktemp)
mkfifo "$fifo"
trap 'rm -f "$stamped" "$fifo" "$timed"' EXIT
hz=$(getconf CLK_TCK)
# shellcheck disable=SC2206 # EXTRA is split on spaces on purpose.
extra=(${EXTRA:-})
# The CPU seconds (user + system) of this shell's finished children, from `times` (run in this
# shell, not in a command substitution, whose children are its own).
children_cpu() {
  times >"$timed"
  awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } print s }' "$timed"
}
for spec in "$@"; do
  algorithm=${spec%%:*} n=${spec##*:}
  command="nqueens count $n --algorithm $algorithm -j $threads --progress always${EXTRA:+ $EXTRA}"
  load=$(awk '{print $1}' /proc/loadavg 2>/dev/null || echo "")
  children_cpu >"$stamped"
  cpu_before=$(cat "$stamped")
  format=(--format csv)
  [[ " ${extra[*]} " == *" --shard "* ]] && format=()
  "$bin" count "$n" --algorithm "$algorithm" -j "$threads" --progress always "${format[@]}" "${extra[@]}" 2>"$fifo" >/dev/null &
  pid=$!
  # Each stderr line with the moment it arrived (bash's EPOCHREALTIME, microseconds) and the
  # process's CPU seconds then; the loop ends when stderr closes, with the process.
  while IFS= read -r line; do
    used=$(awk -v hz="$hz" '{ print ($14 + $15) / hz }' "/proc/$pid/stat" 2>/dev/null || echo NA)
    printf '%s %s %s\n' "$EPOCHREALTIME" "$used" "$line"
  done <"$fifo" >"$stamped"
  end=$EPOCHREALTIME
  wait "$pid"
  children_cpu >"$timed.now"
  cpu_end=$(awk -v a="$(cat "$timed.now")" -v b="$cpu_before" 'BEGIN { print a - b }')
  rm -f "$timed.now"
  date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  awk -v end="$end" -v cpu_end="$cpu_end" -v pre="$date,$host,$cpu,$commit,$command,$algorithm,$n,$threads" \
    -v name="$spec" -v lines_csv="$lines_csv" -v summary_csv="$summary_csv" -v load="$load" '
    function secs(hms,   p) { split(hms, p, ":"); return p[1] * 3600 + p[2] * 60 + p[3] }
    function median(a, m,   i, j, v) {
      for (i = 2; i <= m; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
      return m ? (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2) : ""
    }
    # Bar lines: TIME CPU n=N PERCENT% SOLVED/TOTAL HH:MM:SS ETA HH:MM:SS (other ETAs: ? or days).
    $3 ~ /^n=/ && $(NF - 1) == "ETA" && $NF ~ /^[0-9]+:[0-9][0-9]:[0-9][0-9]$/ && $2 != "NA" {
      k++; t[k] = $1; c[k] = $2; el[k] = secs($(NF - 2)); eta[k] = secs($NF)
      pc[k] = $(NF - 4); sub(/%$/, "", pc[k])
      s = $1 - el[k]; if (k == 1 || s < start) start = s
    }
    END {
      if (k == 0) {
        print name ": no bar line with an ETA (the run ended within a second or two)" > "/dev/stderr"
        printf "%s,,0,,,,,%s\n", pre, load >> summary_csv
        exit
      }
      run = end - start; m = 0
      for (i = 1; i <= k; i++) {
        left = end - t[i]; err = left > 0 ? (eta[i] - left) / left : 0
        # The same in CPU seconds, from the first line: fraction f0 at CPU c0.
        f = pc[i] / 100; f0 = pc[1] / 100; cleft = cpu_end - c[i]
        cerr = (f > f0 && cleft > 0) ? ((c[i] - c[1]) * (1 - f) / (f - f0) - cleft) / cleft : ""
        printf "%s,%.3f,%d,%s,%d,%.3f,%.4f,%s\n", pre, run, el[i], pc[i], eta[i], left, err, cerr >> lines_csv
        at = (t[i] - start) / run
        if (at >= 0.5 && at <= 0.95) {
          m++; a[m] = err < 0 ? -err : err
          if (cerr != "") { mc++; b[mc] = cerr < 0 ? -cerr : cerr }
        }
      }
      med = median(a, m); max = m ? a[m] : ""; cmed = median(b, mc); cmax = mc ? b[mc] : ""
      printf "%s,%.3f,%d,%s,%s,%s,%s,%s\n", pre, run, m, max, med, cmax, cmed, load >> summary_csv
      printf "%s: %.1f s, %d lines in 50-95%%: wall |error| max %s median %s; CPU |error| max %s median %s\n",
        name, run, m, max, med, cmax, cmed > "/dev/stderr"
    }' "$stamped"
done
echo "$summary_csv"
