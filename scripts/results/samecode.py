"""Compares the machine code of two builds function by function, for A/B studies on a machine
without hardware counters (results/2026-12-03-surface/): each function whose demangled name
matches PATTERN is disassembled (objdump -d -C), its addresses and symbol operands blanked, and
hashed; the functions whose code is in one build only are listed (a function moved to another
module but compiled alike has the same hash under its new name).

usage: python3 scripts/results/samecode.py OLD_BINARY NEW_BINARY PATTERN
  PATTERN: a Python regular expression over demangled names, e.g. 'SearchCopies>::call'"""
import collections, hashlib, re, subprocess, sys

def functions(binary, pattern):
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '-C', binary], capture_output=True, text=True,
                         check=True).stdout
    found = collections.Counter()
    name, body = None, []
    def close():
        if name is not None:
            found[(hashlib.md5('\n'.join(body).encode()).hexdigest()[:10], name)] += 1
    for line in out.split('\n'):
        m = re.match(r'^[0-9a-f]+ <(.*)>:$', line)
        if m:
            close()
            name = m.group(1) if re.search(pattern, m.group(1)) else None
            body = []
        elif name is not None and '\t' in line:
            ins = re.sub(r'<.*$', '', line.split('\t', 1)[1])
            ins = re.sub(r'\b[0-9a-f]{5,}\b', 'ADDR', ins)
            body.append(re.sub(r'0x[0-9a-f]+\(%rip\)', 'RIP', ins).strip())
    close()
    return found

if len(sys.argv) != 4:
    sys.exit(__doc__.split('\n\n')[1])
old, new = functions(sys.argv[1], sys.argv[3]), functions(sys.argv[2], sys.argv[3])
old_hashes = collections.Counter(h for (h, _), c in old.items() for _ in range(c))
new_hashes = collections.Counter(h for (h, _), c in new.items() for _ in range(c))
same = sum((old_hashes & new_hashes).values())
print(f'{sum(old.values())} functions match in the old build, {sum(new.values())} in the new; {same} compiled alike')
for label, mine, theirs in [('old only', old, new_hashes), ('new only', new, old_hashes)]:
    for (h, name), _ in sorted(mine.items(), key=lambda x: x[0][1]):
        if h not in theirs:
            print(f'{label}: {h} {name[:110]}')
