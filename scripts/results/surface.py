"""The public items of `nqueens` before and after a change, as a Markdown table, for
results/2026-12-03-surface/: every item of BEFORE with what it became.

usage: python3 scripts/results/surface.py BEFORE.txt AFTER.txt INTERNALS.txt [RENAMES.tsv] > table.md
  BEFORE.txt, AFTER.txt: `scripts/public-items.sh COMMIT` at the two commits (KIND PATH a line);
  INTERNALS.txt: `scripts/public-items.sh --internals COMMIT` at the after commit;
  RENAMES.tsv: old path <TAB> what replaces it, for items whose name changed (optional).
An item of BEFORE is "kept" at the same public path, "now" at another public path of the same
name, replaced as RENAMES says, "behind `internals`" where only that feature makes it public,
else crate-private (nothing outside the core used it)."""
import sys

def read(path):
    items = {}
    for line in open(path):
        kind, p = line.split()
        items[p] = kind
    return items

before, after, internals = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
renames = {}
if len(sys.argv) > 4:
    for line in open(sys.argv[4]):
        if line.strip() and not line.startswith('#'):
            old, new = line.rstrip('\n').split('\t', 1)
            renames[old] = new
public_by_name = {}
for p in after:
    public_by_name.setdefault(p.rsplit('::', 1)[-1], []).append(p)

rows = []
tally = dict(kept=0, moved=0, replaced=0, internal=0, private=0)
for p, kind in sorted(before.items()):
    name = p.rsplit('::', 1)[-1]
    if p in after:
        tally['kept'] += 1
        continue
    if p in renames:
        what = renames[p]; tally['replaced'] += 1
    elif name in public_by_name and kind != 'mod' and after.get(public_by_name[name][0]) == kind:
        what = 'now ' + ', '.join(f'`{q}`' for q in public_by_name[name]); tally['moved'] += 1
    elif p in internals:
        what = 'behind `internals`'; tally['internal'] += 1
    else:
        what = 'crate-private (unused outside the core)'; tally['private'] += 1
    rows.append(f'| {kind} | `{p}` | {what} |')
added = sorted(p for p in after if p not in before)
print(f"Before: {len(before)} public items; after: {len(after)}. Of the {len(before)}: {tally['kept']} kept at the "
      f"same path, {tally['moved']} at another public path of the same name, {tally['replaced']} replaced, "
      f"{tally['internal']} behind `internals`, {tally['private']} crate-private.")
print()
print('| kind | before | after |')
print('| --- | --- | --- |')
print('\n'.join(rows))
print()
print(f'New public paths ({len(added)}):', ', '.join(f'`{p}`' for p in added) + '.')
