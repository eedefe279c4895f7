#!/usr/bin/env python3
"""Runs the inputs of issue 23's findings against one nqueens binary and records what it did.

    scripts/results/findings.py BIN OUT.json   (results/2026-12-02-hardening/)

Every forged file is made here, from files BIN itself writes (shards, journals), with the
checksums recomputed the way a forger would. Each case records the shell-like command, the exit
status ("exit N" or "killed by SIGx"), and stdout and stderr (cut to 600 characters, control
characters escaped). Needs Linux, prlimit, /usr/bin/time and (for the 64 KiB tmpfs) root; a
case that cannot run here says so. It runs for about two minutes on 2 cores.
"""

import base64
import json
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib

BIN = os.path.abspath(sys.argv[1])
OUT = os.path.abspath(sys.argv[2])
work = tempfile.mkdtemp(prefix="nq-findings-")
os.chdir(work)
cases = []


def esc(text):
    """Marks the control characters the binary wrote raw as ⟨1b⟩, so that they differ from its
    own escapes (\\u{1b}) in the table."""
    out = []
    for ch in text:
        if ch == "\n" or (ch.isprintable() and ch not in "\x1b"):
            out.append(ch)
        else:
            out.append("⟨%x⟩" % ord(ch))
    return "".join(out)


def cut(text, limit=600):
    text = esc(text)
    return text if len(text) <= limit else text[: limit // 2] + " [...] " + text[-limit // 2 :]


def status_of(code):
    if code < 0:
        return "killed by " + signal.Signals(-code).name
    return "exit %d" % code


def record(finding, command, proc_or_result, note=""):
    code, out, err = proc_or_result
    cases.append(
        {
            "finding": finding,
            "command": command,
            "status": status_of(code),
            "stdout": cut(out),
            "stderr": cut(err),
            "note": note,
        }
    )
    print("[%s] %s -> %s" % (finding, command, status_of(code)), file=sys.stderr)


def run(args, stdin=None, env=None, timeout=None, shell=False):
    e = dict(os.environ)
    e.update(env or {})
    try:
        p = subprocess.run(
            args,
            input=stdin,
            capture_output=True,
            env=e,
            timeout=timeout,
            shell=shell,
        )
        return (p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"))
    except subprocess.TimeoutExpired as t:
        out = (t.stdout or b"").decode("utf-8", "replace")
        err = (t.stderr or b"").decode("utf-8", "replace")
        return (-signal.SIGKILL, out, err + "\n(still running after %s s: killed)" % timeout)


def nq(*args, **kw):
    return run([BIN, *args], **kw)


# --- shard results -------------------------------------------------------------------------


def checksum_text(r):
    if r.get("ids") is not None:
        ids = "ids=" + ",".join(str(i) for i in r["ids"])
    elif r.get("covers") is not None:
        ids = "covers=%d:%s" % (r["covers"]["count"], r["covers"]["ids_crc32"])
    else:
        ids = "ids="
    c = r["classes"]
    nodes = "-" if r.get("nodes") is None else str(r["nodes"])
    sub = " subtotals=" + r["subtotals"] if r.get("subtotals") is not None else ""
    text = "%s %d n=%d algorithm=%s split_depth=%d subproblems=%d shard=%d/%d version=%s %s solutions=%d classes=%d,%d,%d,%d nodes=%s%s" % (
        r["format"], r["format_version"], r["n"], r["algorithm"], r["split_depth"], r["subproblems"],
        r["shard"], r["shards"], r["version"], ids, r["solutions"], c["8"], c["4"], c["2"], c["1"], nodes, sub,
    )
    if r["format_version"] >= 4:
        text += " host=" + (r.get("host") or "")
    return text


def seal(r):
    r["checksum"] = "crc32:%08x" % zlib.crc32(checksum_text(r).encode())
    return r


def leb_decode(text):
    b = base64.b64decode(text[len("leb128:"):] + "=" * (-len(text) % 4))
    vals, v, shift = [], 0, 0
    for byte in b:
        v |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            vals.append(v)
            v, shift = 0, 0
    return vals


def leb_encode(vals):
    out = bytearray()
    for v in vals:
        while True:
            low = v & 0x7F
            v >>= 7
            if v:
                out.append(low | 0x80)
            else:
                out.append(low)
                break
    return "leb128:" + base64.b64encode(bytes(out)).decode().rstrip("=")


def shards(n, k, algorithm, prefix, only=None):
    names = []
    for i in range(k) if only is None else only:
        name = "%s%d.json" % (prefix, i)
        code, out, err = nq("count", str(n), "--algorithm", algorithm, "--shard", "%d/%d" % (i, k), "-j", "2", "--output", name)
        assert code == 0, err
        names.append(name)
    return names


def load(name):
    with open(name) as f:
        return json.load(f)


def save(name, r):
    with open(name, "w") as f:
        json.dump(r, f)
        f.write("\n")


# 1. Impossible totals.
m = shards(12, 2, "mirror", "m")
r = load(m[0])
v = leb_decode(r["subtotals"])
v[0] += 1
r["subtotals"] = leb_encode(v)
r["solutions"] += 1
save(m[0], seal(r))
record("1", "merge m0.json m1.json  (mirror n = 12, one subtotal +1)", nq("merge", *m))

d = shards(10, 2, "d4", "d")
good = load(d[0])
for what, orbit, extra in [("orbit1", "1", 1), ("orbit2", "2", 2)]:
    r = json.loads(json.dumps(good))
    v = leb_decode(r["subtotals"])
    v[{"1": 3, "2": 2}[orbit]] += 1  # the first subproblem's orbit count; its delta unchanged
    r["subtotals"] = leb_encode(v)
    r["classes"][orbit] += 1
    r["solutions"] += extra
    save("dx0.json", seal(r))
    record("1", "merge dx0.json d1.json  (d4 n = 10, %s +1)" % what, nq("merge", "dx0.json", d[1], "--format", "json"))

code, out, err = nq("count", "12", "--algorithm", "mirror", "--checkpoint", "t.j")
assert code == 0, err
lines = open("t.j").read().split("\n")
for i, line in enumerate(lines[1:], 1):
    fields = dict(w.split("=", 1) for w in line.split(" ")[:4]) if line else {}
    if fields and int(fields["solutions"]) > 0:
        body = "id=%s solutions=%d classes=%s nodes=%s" % (fields["id"], int(fields["solutions"]) + 1, fields["classes"], fields["nodes"])
        lines[i] = body + " crc32=%08x" % zlib.crc32(body.encode())
        forged_line = i + 1
        break
open("t.j", "w").write("\n".join(lines))
shutil.copy("t.j", "t-before.j")
record("1", "count 12 --algorithm mirror --checkpoint t.j  (line %d: solutions +1, CRC recomputed)" % forged_line,
       nq("count", "12", "--algorithm", "mirror", "--checkpoint", "t.j"))

r = json.loads(json.dumps(good))
r.pop("subtotals")
r["format_version"] = 3
r["classes"]["8"] += 1
r["solutions"] += 8
save("d3.json", seal(r))
record("1", "merge d3.json d1.json  (format 3, subtotals removed, orbit8 +1, solutions +8)", nq("merge", "d3.json", d[1]))

# 2. A forged journal line, join n = 12.
code, out, err = nq("count", "12", "--algorithm", "join", "--checkpoint", "full.j")
assert code == 0, err
header = open("full.j").readline()
body = "id=5 solutions=1 classes=0,0,0,0 nodes=-"
open("f.j", "w").write(header + body + " crc32=%08x\n" % zlib.crc32(body.encode()))
before = open("f.j").read()
res = nq("count", "12", "--algorithm", "join", "--checkpoint", "f.j")
after = open("f.j").read()
record("2", "count 12 --algorithm join --checkpoint f.j  (header + 'id=5 solutions=1 ...', CRC-valid)", res,
       "journal lines before: %d, after: %d" % (before.count("\n"), after.count("\n")))
res = nq("count", "12", "--algorithm", "join", "--checkpoint", "f.j")
record("2", "count 12 --algorithm join --checkpoint f.j  (again)", res)
res = nq("count", "12", "--algorithm", "join", "--checkpoint", "f.j", "--repair")
note = ("f.j.repaired: %d lines" % open("f.j.repaired").read().count("\n")) if os.path.exists("f.j.repaired") else "no f.j.repaired"
record("2", "count 12 --algorithm join --checkpoint f.j --repair", res, note)

# 3. A failed --output.
os.makedirs("full", exist_ok=True)
mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", "full"], capture_output=True).returncode == 0
if mounted:
    subprocess.run("dd if=/dev/zero of=full/fill bs=1k count=100 2>/dev/null", shell=True)
    res = nq("count", "12", "--algorithm", "d4", "--shard", "0/4", "--output", "full/s.json")
    left = sorted(os.listdir("full"))
    subprocess.run(["umount", "full"])
    record("3", "count 12 --algorithm d4 --shard 0/4 --output full/s.json  (a full 64 KiB tmpfs)", res, "files left: %s" % left)
else:
    res = nq("count", "12", "--algorithm", "d4", "--shard", "0/4", "--output", "/dev/full")
    record("3", "count 12 --algorithm d4 --shard 0/4 --output /dev/full", res, "(no tmpfs here)")
os.makedirs("fs", exist_ok=True)
res = run("cd fs && ulimit -f 1 && exec %s count 12 --algorithm d4 --shard 0/4 --output s.json" % BIN, shell=True)
record("3", "ulimit -f 1; count 12 --algorithm d4 --shard 0/4 --output s.json", res, "files left: %s" % sorted(os.listdir("fs")))

# 4. Aborts and check's memory.
res = run(["timeout", "--preserve-status", "-s", "INT", "8", "prlimit", "--as=300000000", BIN, "count", "63", "--algorithm", "mirror",
           "--shard", "0/4096", "-j", "1", "--output", "x.json"])
record("4", "prlimit --as=300000000 count 63 --algorithm mirror --shard 0/4096 -j 1 --output x.json  (SIGINT after 8 s)", res)
for mb in ["100000000", "200000000"]:
    res = run(["prlimit", "--as=" + mb, BIN, "plan", "40", "--algorithm", "mirror", "--shards", "4096", "--sample-seconds", "0"])
    record("4", "prlimit --as=%s plan 40 --algorithm mirror --shards 4096 --sample-seconds 0" % mb, res)
code, out, err = nq("solve", "15", "--format", "cols")
open("l15.txt", "w").write(out)
res = run(["prlimit", "--as=60000000", BIN, "check", "l15.txt"])
record("4", "prlimit --as=60000000 check l15.txt  (solve 15 --format cols)", res)
open("r15.txt", "w").write("".join(reversed(out.splitlines(keepends=True))))
res = run(["prlimit", "--as=60000000", BIN, "check", "r15.txt"])
record("4", "prlimit --as=60000000 check r15.txt  (the same list reversed)", res)
del out
res = run("/usr/bin/time -f 'peak %%M KiB, %%e s' %s solve 16 --format cols | /usr/bin/time -f 'check: peak %%M KiB, %%e s' %s check -" % (BIN, BIN), shell=True)
record("4", "solve 16 --format cols | check -  (/usr/bin/time -f %M on each)", res)

# 5. plan's memory against the measured peak (the count stopped by SIGINT after 20 s).
for n, alg, k in [(63, "d4", 1), (50, "d4", 4096), (24, "d4", 1), (28, "d4", 1), (30, "mirror", 4096)]:
    code, out, err = nq("plan", str(n), "--algorithm", alg, "--shards", str(k), "--sample-seconds", "0", "-j", "1", "--format", "json")
    plan_mib = json.loads(out)["memory_mib"] if code == 0 else None
    args = [BIN, "count", str(n), "--algorithm", alg, "-j", "1", "--progress", "never"] + (["--shard", "0/%d" % k] if k > 1 else [])
    res = run(["/usr/bin/time", "-f", "peak %M KiB", "timeout", "-s", "INT", "20"] + args)
    peak = [l for l in res[2].splitlines() if l.startswith("peak ")]
    record("5", "plan %d --algorithm %s --shards %d -j 1  vs  count %d --algorithm %s -j 1%s" % (n, alg, k, n, alg, " --shard 0/%d" % k if k > 1 else ""),
           (code, "plan: %s MiB" % plan_mib, "measured %s" % (peak[0] if peak else res[2][-200:])))

# 6. plan N >= 28.
start = time.time()
res = nq("plan", "28", "--sample-seconds", "1", timeout=60)
record("6", "plan 28 --sample-seconds 1", res, "%.1f s" % (time.time() - start))
start = time.time()
res = nq("plan", "34", "--sample-seconds", "1", timeout=60)
record("6", "plan 34 --sample-seconds 1", res, "%.1f s" % (time.time() - start))

# 7. Text from files reaches the terminal.
j = shards(12, 4, "join", "h")
r = load(j[1])
r["format_version"] = 3  # a format-3 result (host outside the checksum) ...
v = leb_decode(r["subtotals"])  # ... with 8 solutions moved between two subtotals (every total kept) ...
src = next(i for i, x in enumerate(v) if i > 0 and x >= 8)
v[src] -= 8
v[0] += 8
r["subtotals"] = leb_encode(v)
r.pop("host", None)
seal(r)
# ... and a host that draws a fake verdict.
r["host"] = "vm): ok\n\x1b[2K\rnqueens: audit: 472 of 472 subproblems in 4 shard(s) recounted: all agree\x1b[8m"
save(j[1], r)
record("7", "merge --audit 1 --seed 1 h0.json h1.json h2.json h3.json  (h1: format 3, host with escapes, 8 solutions moved between two subtotals)",
       nq("merge", "--audit", "1", "--seed", "1", *j))
r = load(j[2])
r["host"] = "vm\x1b[8m"
save("h2x.json", r)
record("7", "merge h0.json h1.json h2x.json h3.json  (h2x: its host changed, checksum not recomputed)", nq("merge", j[0], j[1], "h2x.json", j[3]))
evil = "s\x1b[31mred.json"
open(evil, "w").write("{}")
record("7", "merge 's\\e[31mred.json'  (a file name with an escape; not a shard)", nq("merge", evil))
record("7", "check 'x\\e[31m'  (a missing file whose name has an escape)", nq("check", "x\x1b[31m"))
jh = open("full.j").readline().rstrip("\n").rsplit(" crc32=", 1)[0].replace("version=0.1.0", "version=0.1.0\x1b[8m")
open("v.j", "w").write(jh + " crc32=%08x\n" % zlib.crc32(jh.encode()))
record("7", "count 12 --algorithm join --checkpoint v.j  (journal header version with an escape, CRC recomputed)",
       nq("count", "12", "--algorithm", "join", "--checkpoint", "v.j"))
r = load(j[2])
r["version"] = "0.1.0\x1b[8m"
save("v.json", seal(r))
record("7", "merge h0.json v.json  (version with an escape, checksum recomputed)", nq("merge", j[0], "v.json"))

# 8. The resume hint.
p = subprocess.Popen([BIN, "count", "18", "--checkpoint", "au.j", "-j", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(1.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate()
record("8", "count 18 --checkpoint au.j -j 1  (SIGINT after 1.5 s)", (p.returncode, out.decode(), err.decode()))
record("8", "SLURM_MEM_PER_NODE=12 count 18 --checkpoint au.j -j 1",
       nq("count", "18", "--checkpoint", "au.j", "-j", "1", env={"SLURM_MEM_PER_NODE": "12"}))

# 9. The audit runs before the cheap checks.
g = shards(12, 4, "join", "g")
start = time.time()
res = nq("merge", "--audit", "1", "--seed", "1", *g[:3])
record("9", "merge --audit 1 g0.json g1.json g2.json  (join n = 12, K = 4, shard 3 missing)", res, "%.2f s" % (time.time() - start))
code, out, err = nq("count", "12", "--shard", "0/4096", "--output", "k0.json")
record("9", "merge k0.json  (a lone shard 0/4096)", nq("merge", "k0.json"))

# 10. --any where no board exists.
for n in ["2", "3"]:
    record("10", "solve %s --any" % n, nq("solve", n, "--any"))

# 11. Boards over 63 rows.
code, out, err = nq("solve", "100", "--any")
record("11", "solve 100 --any | check", nq("check", stdin=out.encode()))
record("11", "solve 100 --any | check --partial", nq("check", "--partial", stdin=out.encode()))
code, out, err = nq("solve", "1000", "--any", "--format", "cols")
record("11", "solve 1000 --any --format cols | check --size 1000", nq("check", "--size", "1000", stdin=out.encode()))

# 12. Smaller ones.
text = open("full.j").read()
open("crlf.j", "w").write(text.replace("\n", "\r\n"))
record("12", "count 12 --algorithm join --checkpoint crlf.j  (the journal converted to CRLF)",
       nq("count", "12", "--algorithm", "join", "--checkpoint", "crlf.j"))
master, slave = pty.openpty()
p = subprocess.Popen([BIN, "solve", "100000", "--any"], stdout=slave, stderr=subprocess.PIPE)
os.close(slave)
got = 0
end = time.time() + 1.0
while time.time() < end:
    ready, _, _ = select.select([master], [], [], 0.1)
    if ready:
        try:
            got += len(os.read(master, 1 << 16))
        except OSError:
            break
p.kill()
err = p.stderr.read().decode()
p.wait()
os.close(master)
record("12", "solve 100000 --any  (stdout a terminal; killed after 1 s)", (p.returncode, "(%d bytes reached the terminal)" % got, err))
code, out, err = nq("solve", "0", "--format", "cols")
record("12", "solve 0 --format cols | check --size 0", nq("check", "--size", "0", stdin=out.encode()))
record("12", "SLURM_MEM_PER_NODE=1 merge g0.json g1.json g2.json g3.json", nq("merge", *g, env={"SLURM_MEM_PER_NODE": "1"}))
open("bom.json", "wb").write(b"\xef\xbb\xbf" + open(g[0], "rb").read())
record("12", "merge bom.json g1.json g2.json g3.json  (a UTF-8 byte order mark before shard 0)", nq("merge", "bom.json", *g[1:]))
m16 = shards(16, 2, "mirror", "big")
for cmd in [["merge", "--audit", "1", *m16], ["solve", "18", "--format", "cols"], ["plan", "17", "--sample-seconds", "10"]]:
    for sig in [signal.SIGINT, signal.SIGTERM, signal.SIGUSR1]:
        p = subprocess.Popen([BIN, *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(0.7)
        p.send_signal(sig)
        err = p.stderr.read().decode()
        p.wait()
        record("12", "%s  (%s after 0.7 s)" % (" ".join(cmd), sig.name), (p.returncode, "", err))

with open(OUT, "w") as f:
    json.dump(cases, f, indent=1)
shutil.rmtree(work, ignore_errors=True)
