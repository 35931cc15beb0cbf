#!/usr/bin/env python3
"""The ISS tiles' fault and refusal reports (docs/tiles.md), through the built CLI.

A tile whose core faults stops the run with exit 1 and one line naming the tile, the
fault and the program counter; a tile that never finishes is reported as a timeout or a
deadlock with its program counter; a bad --firmware file, and options the Cortex-M4
tiles do not take, exit 2 with one line naming the value. Usage:
tile_faults.py TESSERA BAREMETAL_DIR
"""
import json
import re
import subprocess
import sys

tessera, bm = sys.argv[1], sys.argv[2]
run = ["run", "--model", "tlm", "--fabric", "mesh:2x2", "--collective", "bcast", "--bytes", "64"]
iss = run + ["--tiles", "cortex-m4"]


def image(name):
    return f"{bm}/tessera_tile_{name}.elf"


cases = [
    # The core's own faults: exit 1, the tile, the fault, the program counter.
    (iss + ["--firmware", image("fault_read")], 1,
     r"tile 0: the core stopped: bad memory read of 4 bytes at 0x30000000 outside tile memory,"
     r" pc 0x[0-9a-f]+"),
    (iss + ["--firmware", image("fault_undefined")], 1,
     r"tile 0: the core stopped: undefined instruction 0xde07 at 0x[0-9a-f]+$"),
    (iss + ["--firmware", image("fault_stack")], 1,
     r"tile 0: the core stopped: bad memory write of 4 bytes at 0x203f7[0-9a-f]{3} in the stack "
     r"guard \(stack overflow\)"),
    # Tiles that never finish: computing forever (a timeout), asleep forever (a deadlock).
    (iss + ["--firmware", image("fault_hang"), "--param", "max_cycles=100000"], 1,
     r"stopped at cycle 100000 by max_cycles with 4 of 4 tiles unfinished: tile 0 before its first op at pc "
     r"0x[0-9a-f]+ computing; tile 1 before its first op at pc"),
    (iss + ["--firmware", image("fault_sleep")], 1,
     r"deadlock: tile 0 before its first op at pc 0x[0-9a-f]+ asleep \(wfi\); tile 1"),
    # Without --param max_cycles a tile stops at its instruction budget (docs/tiles.md, "A
    # tile that never finishes"): a timeout, with the program counters. The broadcast's
    # tiles need far less than the floor of 2^20 (below), so that is the budget.
    (iss + ["--firmware", image("fault_hang")], 1,
     r"^tessera: stopped at cycle \d+ by the instruction budget \(tile \d retired \d+ "
     r"instructions, past its 1048576 for this workload; --param max_cycles sets a cycle limit "
     r"instead, docs/tiles.md\) with 4 of 4 tiles unfinished: tile 0 before its first op at pc 0x[0-9a-f]+ computing; "
     r"tile 1 before its first op at pc"),
    (iss + ["--firmware", image("fault_setup_hang")], 1,
     r"^tessera: stopped at cycle 0 by the instruction budget \(tile \d retired \d+ "
     r"instructions, past its 1048576 .* tile 0 before its first op at pc 0x[0-9a-f]+ computing"),
    # Computing forever before its program starts: untimed up to untimed_max instructions,
    # then timed, so max_cycles still stops it. Its cycles are the timed instructions'
    # alone: 100000 fabric cycles of 1 GHz at 100 MHz are 10000 instructions, so the run
    # must have gone past untimed_max and then run the 10000.
    (iss + ["--firmware", image("fault_setup_hang"), "--param", "max_cycles=100000",
            "--param", "untimed_max=200000"], 1,
     r"stopped at cycle 100000 by max_cycles with 4 of 4 tiles unfinished: tile 0 before its first op at pc "
     r"0x[0-9a-f]+ computing; tile 1 before its first op at pc"),
    # An image of one's own that outgrows the memory plan of the collective it runs under
    # (the ring all-gather of examples/firmware under a broadcast's plan): the executor's
    # error names the op, and the report says whose plan it is.
    (iss + ["--firmware", f"{bm}/ring_allgather.elf"], 1,
     r"^tessera: tile 0: op 0 \(sendrecv, step 1\): the message does not fit the tile's "
     r"buffer \(block 0\); the tile's memory plan is the host's for --collective bcast "
     r"--algorithm mesh \(64-byte blocks\), which an image of one's own must fit$"),
    # Bad images.
    (iss + ["--firmware", image("too_big")], 2,
     r"is too big for the tile or not linked for it: segment at 0x0 of \d+ bytes lies outside"),
    (iss + ["--firmware", image("fault_read") + ".map"], 2, r"is not an ELF file"),
    (iss + ["--firmware", "/bin/true"], 2, r"'/bin/true' is not a 32-bit little-endian ARM image"),
    (iss + ["--firmware", "/nonexistent/tile.elf"], 2, r"'/nonexistent/tile.elf' cannot be read"),
    # Options that go with the Cortex-M4 tiles, or that they do not take.
    (run + ["--firmware", image("fault_read")], 2, r"--firmware goes with --tiles cortex-m4"),
    (run + ["--tiles", "riscv"], 2, r"--tiles 'riscv' is not native or cortex-m4"),
    (run + ["--param", "cpu_mhz=50"], 2, r"--param cpu_mhz goes with --tiles cortex-m4"),
    (iss + ["--param", "cpu_mhz=0"], 2, r"cpu_mhz 0 is out of range"),
    (iss + ["--protocol", "reliable"], 2, r"--protocol reliable with --tiles cortex-m4"),
    (["run", "--model", "tlm", "--tiles", "cortex-m4", "--fabric", "mesh:32x33", "--collective",
      "bcast", "--bytes", "4"], 2, r"--tiles cortex-m4 runs at most 1024 tiles .* not 1056"),
    (["run", "--model", "alphabeta", "--fabric", "mesh:2x2", "--collective", "bcast", "--tiles",
      "cortex-m4"], 2, r"--tiles"),
]

failed = 0
for args, want_code, pattern in cases:
    p = subprocess.run([tessera] + args, capture_output=True, text=True, timeout=300)
    lines = p.stderr.strip().splitlines()
    problems = []
    if p.returncode != want_code:
        problems.append(f"exit {p.returncode}, wanted {want_code}")
    if len(lines) != 1:
        problems.append(f"{len(lines)} stderr lines, wanted one")
    if not any(re.search(pattern, l) for l in lines):
        problems.append(f"stderr does not match {pattern!r}")
    if problems:
        failed += 1
        print(f"FAIL {' '.join(args)}: {'; '.join(problems)}\n  stderr: {p.stderr.strip()}")
    else:
        print(f"ok   {' '.join(args)}")

# The untimed budget, counted: every tile of the setup hang runs exactly untimed_max
# instructions untimed, then the 10000 that 100000 fabric cycles at 1 GHz are at 100 MHz
# and cpi 1 (docs/tiles.md, "Time"), all of them compute.
p = subprocess.run([tessera] + iss + ["--firmware", image("fault_setup_hang"), "--param",
                    "max_cycles=100000", "--param", "untimed_max=200000", "--json"],
                   capture_output=True, text=True, timeout=300)
tiles = json.loads(p.stdout)["per_tile"]
want = {"setup_instructions": 200000, "instructions": 10000, "compute_cycles": 100000,
        "wait_cycles": 0}
wrong = [(t["tile"], k, t[k]) for t in tiles for k, v in want.items() if t[k] != v]
if p.returncode != 1 or len(tiles) != 4 or wrong:
    failed += 1
    print(f"FAIL untimed budget: exit {p.returncode}, {len(tiles)} tiles, wrong {wrong}")
else:
    print("ok   untimed budget: 200000 untimed and 10000 timed instructions on each of 4 tiles")
# The instruction budget, derived: the estimate of tile t's work from its program's ops
# (docs/tiles.md), for the mesh broadcast of 64 bytes on mesh:2x2 from tile 0 (along its
# row, then down the columns), whose ops are at most two sends (tile 0) or a receive and a
# send (tile 1). Tile 0, the most: 2 ops, 2 blocks of 64 bytes moved, 1 block held at its
# start and at its end:
#   20000 + 5000 * 2 + 400 * 2 + 2 * 64 * 2 + 25 * 64 * 2 = 34256,
# 8 times it is 274048, below the floor of 2^20: every tile's budget is 2^20. The stop
# comes within one quantum (10000 instructions) of it, on the timed program (hang) or
# before the program starts (setup hang, at cycle 0), never as a deadlock.
floor = 1 << 20
est0 = 20000 + 5000 * 2 + 400 * 2 + 2 * 64 * 2 + 25 * 64 * 2
assert 8 * est0 < floor
extra = 0
for name, cycle0 in (("fault_hang", False), ("fault_setup_hang", True)):
    p = subprocess.run([tessera] + iss + ["--firmware", image(name), "--json"],
                       capture_output=True, text=True, timeout=300)
    j = json.loads(p.stdout)
    tiles = j["per_tile"]
    retired = [t["instructions"] + t["setup_instructions"] for t in tiles]
    problems = []
    if p.returncode != 1 or j.get("timed_out") is not True or "deadlock" in j["failure"]:
        problems.append(f"exit {p.returncode}, timed_out {j.get('timed_out')}: {j['failure']}")
    if any(t["instruction_budget"] != floor for t in tiles):
        problems.append(f"budgets {[t['instruction_budget'] for t in tiles]}, wanted {floor}")
    if max(retired) <= floor or max(retired) > floor + 10000:
        problems.append(f"retired {retired}, wanted the first past {floor} within a quantum")
    if cycle0 != (j["cycles"] == 0):
        problems.append(f"stopped at cycle {j['cycles']}")
    extra += 1
    if problems:
        failed += 1
        print(f"FAIL instruction budget, {name}: {'; '.join(problems)}")
    else:
        print(f"ok   instruction budget, {name}: stopped at cycle {j['cycles']}, retired {retired}")
print(f"{len(cases) + 1 + extra - failed} of {len(cases) + 1 + extra} cases as expected")
sys.exit(1 if failed else 0)
