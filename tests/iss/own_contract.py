#!/usr/bin/env python3
"""A collective of one's own with its own contract (docs/tiles.md, "A contract of one's
own"), through the built CLI: the halo exchange of examples/firmware runs without
--collective and verifies on several fabrics, with the bytes its contract defines computed
here from the fabrics' links; the ring reduce-scatter of examples/firmware, a fold
contract, verifies element by element for several types and reductions; the halo
exchange's three broken copies (HALO_BUG) fail with reports that
name what was expected and what came; and the refusals around contracts exit 2 with one
line. Usage: own_contract.py TESSERA BAREMETAL_DIR
"""
import json
import re
import subprocess
import sys

tessera, bm = sys.argv[1], sys.argv[2]
halo = f"{bm}/halo_exchange.elf"


def bug(n):
    return f"{bm}/halo_exchange_bug{n}.elf"


def run(args):
    return subprocess.run([tessera, "run", "--model", "tlm", "--tiles", "cortex-m4"] + args,
                          capture_output=True, text=True, timeout=300)


def neighbours(kind, a, b, t):
    """The tiles one link away from t, by the fabric's definition (row-major ids)."""
    if kind == "hypercube":
        return {t ^ (1 << d) for d in range(a)}
    if kind == "ring":
        return {(t + 1) % a, (t - 1) % a} - {t}
    r, c = divmod(t, b)
    out = set()
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        nr, nc = r + dr, c + dc
        if kind == "torus":
            nr, nc = nr % a, nc % b
        elif not (0 <= nr < a and 0 <= nc < b):
            continue
        out.add(nr * b + nc)
    return out - {t}


def tiles_of(kind, a, b):
    return {"hypercube": 1 << a, "ring": a}.get(kind, a * b)


failed = 0


def report(ok, what, detail=""):
    global failed
    if ok:
        print(f"ok   {what}")
    else:
        failed += 1
        print(f"FAIL {what}: {detail}")


# The halo exchange verifies, every tile holding its block and its neighbours'.
for spec, kind, a, b in (("mesh:4x4", "mesh", 4, 4), ("mesh:1x3", "mesh", 1, 3),
                         ("torus:4x4", "torus", 4, 4), ("torus:2x3", "torus", 2, 3),
                         ("hypercube:3", "hypercube", 3, 0), ("ring:5", "ring", 5, 0)):
    m = 96
    p = run(["--firmware", halo, "--fabric", spec, "--bytes", str(m), "--json"])
    want = sum(m * (1 + len(neighbours(kind, a, b, t))) for t in range(tiles_of(kind, a, b)))
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        j = {}
    ok = (p.returncode == 0 and j.get("verified") is True and j.get("bytes_checked") == want
          and j.get("collective") == "halo-exchange" and j.get("contract") == "image")
    report(ok, f"halo exchange on {spec}: verified, {want} bytes checked",
           f"exit {p.returncode}, verified {j.get('verified')}, bytes_checked "
           f"{j.get('bytes_checked')}, stderr {p.stderr.strip()}")

# A reduction of one's own: the ring reduce-scatter's contract is a fold (contrib inputs,
# tile t holds block t reduced over every tile), checked element by element against the
# fold the platform computes; p tiles each hold one block of --bytes.
rrs = f"{bm}/ring_reduce_scatter.elf"
for spec, p_tiles, m, typ, op in (("ring:8", 8, 64, "i32", "sum"), ("mesh:4x4", 16, 256, "f32", "max"),
                                   ("hypercube:3", 8, 40, "u32", "min"), ("ring:2", 2, 16, "i64", "bxor")):
    p = run(["--firmware", rrs, "--fabric", spec, "--bytes", str(m), "--type", typ, "--op", op,
             "--json"])
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        j = {}
    ok = (p.returncode == 0 and j.get("verified") is True and j.get("bytes_checked") == p_tiles * m
          and j.get("collective") == "ring-reduce-scatter" and j.get("type") == typ
          and j.get("op") == op)
    report(ok, f"ring reduce-scatter on {spec} ({typ} {op}): verified, {p_tiles * m} bytes",
           f"exit {p.returncode}, verified {j.get('verified')}, bytes_checked "
           f"{j.get('bytes_checked')}, stderr {p.stderr.strip()}")


def one_line(p, code, pattern, what):
    lines = p.stderr.strip().splitlines()
    ok = p.returncode == code and len(lines) == 1 and re.search(pattern, lines[0])
    report(ok, what, f"exit {p.returncode}, stderr {p.stderr.strip()!r}, wanted {pattern!r}")
    return lines[0] if lines else ""


# Bug 1 leaves out the north step: no tile sends north, so each tile with a tile below it
# misses that tile's block. Tile 0 of mesh:3x3 is the first: tile 3's block (id 3).
one_line(run(["--firmware", bug(1), "--fabric", "mesh:3x3", "--bytes", "64"]), 1,
         r"^tessera: tile 0: block 3 never arrived \(tile 3's block 0 in the image's contract\)$",
         "bug 1 (no north step): the missing block, named by its source")

# Bug 2 receives the south step from the south, where the message goes the other way: the
# tiles above the bottom row take their south neighbour's north-step message early, then
# wait for it again in the north step, while their north neighbour's south-step message
# sits unreceived. The report names each waiting tile's op (the program's, step 4, from
# the tile below) and the message it holds (from the tile above, step 3, one block, its
# sender's block id, 64 data bytes).
line = one_line(run(["--firmware", bug(2), "--fabric", "mesh:3x3", "--bytes", "64"]), 1,
                r"^tessera: deadlock: tile 0 in op \d+ \(", "bug 2 (wrong side): a deadlock")
for t in range(3, 6):  # the middle row: a tile above and below each
    up, down = t - 3, t + 3
    pattern = (rf"tile {t} in op \d+ \((recv|sendrecv), step 4, (to tile {up}, )?from tile "
               rf"{down}\) at pc 0x[0-9a-f]+ asleep \(wfi\), waiting for data from tile {down} "
               rf"\(step 4\), holding an unexpected message from tile {up} \(step 3, 1 block from "
               rf"block {up}, 64 bytes\)")
    report(re.search(pattern, line) is not None, f"bug 2: tile {t}'s op and the message it holds",
           f"{line!r} does not match {pattern!r}")

# Bug 3 sends its block twice in the east step where the receive expects one: the receive
# names the sender, what came (2 blocks: 2 directory entries of 8 bytes and 2 x 64 data
# bytes) and the room for what it expects (1 entry and 1 block: 8 + 64).
one_line(run(["--firmware", bug(3), "--fabric", "mesh:2x2", "--bytes", "64"]), 1,
         r"^tessera: tile 1: op 0 \(recv, step 1\): the message is larger than the receive "
         rf"expects: tile 0 sent 2 blocks \({2 * 8 + 2 * 64} bytes with its directory\), the "
         rf"receive expects 1 block \(room for {8 + 64} bytes\)$",
         "bug 3 (two blocks where one is expected): sizes and source")

# Refusals: one line, exit 2.
refusals = [
    (["--firmware", halo, "--fabric", "mesh:2x2", "--collective", "allgather"],
     r"declares its own contract \('halo-exchange', docs/tiles.md\): leave out --collective"),
    (["--firmware", f"{bm}/ring_allgather.elf", "--fabric", "mesh:2x2"],
     r"declares no contract of its own \(TESSERA_CONTRACT, docs/tiles.md\): give --collective"),
    (["--firmware", halo, "--fabric", "mesh:2x2", "--algorithm", "ring"],
     r"--algorithm goes with --collective; an image's own contract"),
    (["--firmware", halo, "--fabric", "mesh:2x2", "--payload-bytes", "16"],
     r"--payload-bytes goes with a built-in --collective"),
    (["--fabric", "mesh:2x2"],
     r"needs a workload: --collective, --schedule, --pattern or --traffic \(or --firmware"),
    (["--firmware", rrs, "--fabric", "ring:4", "--bytes", "10"],
     r"--bytes 10 is not a multiple of the 4-byte i32 element the contract's folds use"),
]
for args, pattern in refusals:
    one_line(run(args), 2, pattern, "refused: " + " ".join(args[2:] if args[0] == "--firmware"
                                                             else args))
p = subprocess.run([tessera, "run", "--firmware", halo, "--fabric", "mesh:2x2"],
                   capture_output=True, text=True, timeout=60)
one_line(p, 2, r"--firmware goes with --tiles cortex-m4", "refused: --firmware without --tiles")

print(f"{failed} failed")
sys.exit(1 if failed else 0)
