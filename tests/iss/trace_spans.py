#!/usr/bin/env python3
"""Op spans of ISS tiles in the timeline trace (docs/visualize.md): the tile image marks
each op it takes up (NIC command op_mark, docs/nic-registers.md), and the platform turns
the marks and the image's idle reports into the same spans native tiles give.

Pairwise exchange on a 4 x 4 mesh (Bokhari, "Complete Exchange on the iPSC-860", §4.1:
in step i tile t exchanges with t XOR i): each tile's track must be its prologue from
cycle 0, then ops 1..15 in order, one after another, op i named "exchange with t^i",
then its drain; every wait inside its op (the same op index). The same run on native tiles names the same
op at each index (native tiles draw only the ops that span a poll, so a subset).

usage: trace_spans.py TESSERA
"""
import json
import os
import subprocess
import sys
import tempfile

tessera = sys.argv[1]
problems = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        problems.append(what)


def spans(tiles_model, d):
    path = os.path.join(d, tiles_model + ".json")
    cmd = [tessera, "run", "--model", "tlm", "--tiles", tiles_model, "--fabric", "mesh:4x4",
           "--collective", "alltoall", "--algorithm", "pairwise", "--bytes", "64",
           "--trace", path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"{tiles_model}: exit {p.returncode} {p.stderr.strip()}")
    with open(path) as f:
        t = json.load(f)
    check(t["otherData"]["tessera"]["op_spans"] is True, f"{tiles_model}: op_spans in the header")
    out = {}
    for e in t["traceEvents"]:
        if e.get("ph") != "X" or e.get("pid") != 1:
            continue
        a = e["args"]
        out.setdefault(e["tid"], []).append(
            (a["start_cycle"], a["end_cycle"], e["cat"], e["name"], a.get("op", -1)))
    return out


with tempfile.TemporaryDirectory() as d:
    iss = spans("cortex-m4", d)
    native = spans("native", d)
    check(sorted(iss) == list(range(16)), "cortex-m4: a track for every tile")
    for tile in range(16):
        ops = [s for s in iss.get(tile, []) if s[2] != "wait"]
        waits = [s for s in iss.get(tile, []) if s[2] == "wait"]
        ops.sort()
        names = [s[3] for s in ops]
        want = ["prologue"] + [f"exchange with {tile ^ i}" for i in range(1, 16)] + ["drain"]
        check(names == want, f"tile {tile}: prologue, exchange with t^1 .. t^15, drain "
                             f"({names[:3]} ... {names[-2:]})")
        check(bool(ops) and ops[0][0] == 0, f"tile {tile}: the prologue starts at cycle 0")
        check(all(ops[k][1] == ops[k + 1][0] for k in range(len(ops) - 1)),
              f"tile {tile}: each op starts where the one before ended")
        check(all(s[0] < s[1] for s in ops[1:-1]), f"tile {tile}: every op takes time")
        inside = all(any(o[0] <= w[0] and w[1] <= o[1] and o[4] == w[4] for o in ops)
                     for w in waits)
        check(inside, f"tile {tile}: every wait inside its op ({len(waits)} waits)")
        # The trace's "op" argument is the op's 0-based index.
        by_index = {s[4]: s[3] for s in ops if s[2] == "op"}
        nat = {s[4]: s[3] for s in native.get(tile, []) if s[2] == "op"}
        check(all(by_index.get(i) == n for i, n in nat.items()),
              f"tile {tile}: native tiles name the same op at each index ({len(nat)} drawn)")

for p_ in problems:
    print("FAIL:", p_)
sys.exit(1 if problems else 0)
