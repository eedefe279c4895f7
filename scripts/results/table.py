#!/usr/bin/env python3
"""Renders the before/after table of results/2026-12-02-hardening/README.md from two runs of findings.py.

    scripts/results/table.py before.json after.json > table.md

Each row: the finding, the command, and for each binary its exit status and what it wrote
(stderr first, then stdout, cut to `LIMIT` characters; the absolute path of the scratch folder
and of the binary shortened).
"""

import json
import re
import sys

LIMIT = 420


def shown(case):
    text = "\n".join(t for t in (case["stderr"].strip(), case["stdout"].strip()) if t)
    text = re.sub(r"/tmp/nq-findings-[A-Za-z0-9_]+/", "", text)
    text = re.sub(r"/[^ ]*/target/release/nqueens", "nqueens", text)
    text = re.sub(r"seed \d+ \(--seed \d+", "seed S (--seed S", text)
    if len(text) > LIMIT:
        text = text[: LIMIT - 40] + " […] " + text[-35:]
    text = text.replace("|", "\\|").replace("\n", "<br>")
    note = f" ({case['note']})" if case["note"] else ""
    return f"**{case['status']}**{note}: {text}" if text else f"**{case['status']}**{note}"


before = json.load(open(sys.argv[1]))
after = json.load(open(sys.argv[2]))
print("| # | command | before (38d89fe) | after |")
print("|---|---|---|---|")
same = lambda c: re.sub(r"line \d+", "line L", c)  # the forged journal line differs by run
for b, a in zip(before, after):
    assert same(b["command"]) == same(a["command"]), (b["command"], a["command"])
    command = same(b["command"]).replace("|", "\\|")
    print(f"| {b['finding']} | `{command}` | {shown(b)} | {shown(a)} |")
