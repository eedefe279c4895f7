# Shared helpers for the study scripts; sourced, not run.
# NQUEENS: the binary to run (default: target/release/nqueens, built on first use).
# OUT: the folder for results (default: target/studies/<date>-<host>/ in the checkout, which git
# ignores: results/ holds only the studies a person curates, each with its README.md).

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

nqueens_bin() {
  if [ -n "${NQUEENS:-}" ]; then
    printf '%s\n' "$NQUEENS"
    return
  fi
  local bin="$repo_root/target/release/nqueens"
  if [ ! -x "$bin" ]; then
    (cd "$repo_root" && cargo build --release --quiet --bin nqueens) >&2
  fi
  printf '%s\n' "$bin"
}

host_name() { hostname 2>/dev/null || uname -n; }

cpu_model() {
  local m
  m=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
  [ -n "$m" ] || m=$(uname -m)
  # Commas would break the CSV.
  printf '%s\n' "${m//,/ }"
}

out_dir() {
  local dir="${OUT:-$repo_root/target/studies/$(date -u +%Y-%m-%d)-$(host_name)}"
  mkdir -p "$dir"
  printf '%s\n' "$dir"
}

# csv_get NAME: reads a two-line CSV (header, one row) on stdin, prints the field NAME.
csv_get() {
  awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    NR == 2 { if (!(name in col)) { print "no column " name > "/dev/stderr"; exit 1 } print $col[name] }'
}

is_positive_int() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ]; }

# check_header FILE HEADER: writes HEADER to a new or empty FILE; refuses (exit 2) to append to a
# FILE whose first line is another layout (an older study), so no CSV mixes two layouts.
check_header() {
  if [ ! -s "$1" ]; then
    echo "$2" >"$1"
  elif [ "$(head -n 1 "$1")" != "$2" ]; then
    echo "$(basename "$0"): $1 has another header (an older layout): use a new OUT folder" >&2
    exit 2
  fi
}
