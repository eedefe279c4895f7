#!/usr/bin/env bash
# The public items of the library `nqueens` (crates/core) at one commit, as rustdoc lists them
# (its all.html: modules, structs, enums, traits, functions, macros, constants, type aliases; not
# methods or fields), built with the crate's default features, so that items behind `internals`
# (hidden from the docs) are not counted. One line per item: KIND PATH, sorted.
# usage: scripts/public-items.sh [--internals] COMMIT > FILE.txt
#   COMMIT: any commit of this repository (a temporary worktree of it is documented and removed).
#   --internals: with the `internals` feature on and its modules' #[doc(hidden)] taken out of that
#   worktree's lib.rs, so that the list also holds what only the feature makes public.
set -euo pipefail
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
features=()
internals=false
if [ "${1:-}" = "--internals" ]; then internals=true; features=(--features internals); shift; fi
[ $# -eq 1 ] || { echo "usage: scripts/public-items.sh [--internals] COMMIT > FILE.txt" >&2; exit 2; }
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
git -C "$repo" rev-parse --verify -q "$1^{commit}" >/dev/null || { echo "public-items.sh: '$1' is not a commit of $repo" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/public-items.XXXXXX")
trap 'git -C "$repo" worktree remove --force "$dir/src" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
git -C "$repo" worktree add -q --detach "$dir/src" "$1"
if $internals; then sed -i '/^ *#\[doc(hidden)\]$/d' "$dir/src/crates/core/src/lib.rs"; fi
# The core's manifest alone: features unified with no other workspace member.
(cd "$dir/src" && CARGO_TARGET_DIR="$dir/target" cargo doc -q -p nqueens --no-deps "${features[@]}" --manifest-path crates/core/Cargo.toml 2>/dev/null)
python3 - "$dir/target/doc/nqueens/all.html" <<'PY'
import re, sys
html = open(sys.argv[1]).read()
# Each item is a link "path/kind.Name.html"; modules are listed by their index pages.
items = set()
for href in re.findall(r'<a href="([^"]+\.html)"', html):
    parts = href.split('/')
    page = parts[-1]
    m = re.match(r'(struct|enum|trait|fn|macro|constant|type|union|static|attr|derive|primitive)\.(\w+)\.html$', page)
    if m:
        kind, name = m.groups()
        items.add((kind, '::'.join(['nqueens'] + parts[:-1] + [name])))
        for i in range(1, len(parts)):
            items.add(('mod', '::'.join(['nqueens'] + parts[:i])))
for kind, path in sorted(items, key=lambda x: x[1]):
    print(kind, path)
PY
