#!/usr/bin/env python3
"""Module graph of a Rust crate from its sources: an edge A -> B when production code of module A
names crate::B (a `use` or a path), doc comments, comments and #[cfg(test)] items left out.
usage: scripts/results/modgraph.py SRC_DIR [CRATE_ALIAS=dir ...]  -> prints edges and cycles"""
import os, re, sys
src = sys.argv[1]
def modname(path):
    rel = os.path.relpath(path, src)[:-3]
    parts = rel.split(os.sep)
    if parts[-1] in ('mod', 'lib', 'main'): parts = parts[:-1]
    return parts
def strip(text):
    out = []; lines = text.split('\n'); i = 0; skip_depth = None
    while i < len(lines):
        l = lines[i]; s = l.strip()
        if s.startswith('#[cfg(test)]'):
            # skip the next item: count braces until balanced (or a ';' line)
            j = i + 1; depth = 0; started = False
            while j < len(lines):
                t = re.sub(r'//.*', '', lines[j])
                depth += t.count('{') - t.count('}')
                if '{' in t: started = True
                if (started and depth <= 0) or (not started and t.strip().endswith(';')): break
                j += 1
            i = j + 1; continue
        l = re.sub(r'//.*', '', l)
        out.append(l); i += 1
    return '\n'.join(out)
mods = {}
for root, _, files in os.walk(src):
    for f in files:
        if f.endswith('.rs'):
            p = os.path.join(root, f); mods[p] = modname(p)
tops = {m[0] for m in mods.values() if m}
RES = dict(a.split('=') for a in sys.argv[2:])
edges = set()
for p, m in mods.items():
    me = m[0] if m else 'lib'
    if len(m) >= 2 and m[0] == 'algo': me = 'algo::' + m[1]
    text = strip(open(p).read())
    refs = set()
    for a, b in re.findall(r'crate::(\w+)(?:::(\w+))?', text):
        if a[0].isupper() or a in ('check_n','make_plan','make_plan_with','count','MAX_N'): refs.add('lib:' + a); continue
        refs.add(('algo::' + b) if a == 'algo' and b in ('d4','join','mirror') else a)
    for grp in re.findall(r'use crate::\{([^;]*)\};', text, re.S):
        for name in re.findall(r'\b(\w+)\b', grp):
            if name in tops: refs.add(name)
            else: refs.add('lib:' + name)
    if len(m) >= 2 and m[0] == 'algo':
        for b in re.findall(r'super::(\w+)', text):
            if b in ('d4','join','mirror'): refs.add('algo::'+b)
            elif len(m) == 2: refs.add('algo')
    for r in refs:
        r2 = RES.get(r[4:], r) if r.startswith('lib:') else r
        if r2 != me and not (me.startswith(r2 + '::')): edges.add((me, r2))
for a, b in sorted(edges): print(f'{a} -> {b}')
# cycles among module nodes (lib:X re-exports resolved by hand)
import collections
g = collections.defaultdict(set)
for a, b in edges: g[a].add(b)
def sccs():
    idx = {}; low = {}; st = []; on = set(); res = []; c = [0]
    def dfs(v):
        idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
        for w in g[v]:
            if w not in idx: dfs(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: res.append(sorted(comp))
    for v in list(g): 
        if v not in idx: dfs(v)
    return res
for comp in sccs(): print('CYCLE:', ' '.join(comp))
