#!/usr/bin/env python3
"""The Cortex-M4 tiles' compute against its closed form (docs/tiles.md, "Compute").

With the default processor model (a 100 MHz core, cpi 1, a 1 GHz fabric) an instruction
is r = 10 fabric cycles. Two per-byte costs are counted in the tile image's disassembly
(arm-none-eabi-objdump -d build/baremetal/tessera_tile.elf):
  c_copy = 14/16: the tile library's memcpy copies 16 bytes in a 14-instruction loop;
  c_comb = 14/4:  combining one i32 element (tessera::combine, combine_elem<long>) takes
                  14 instructions.
On hypercube:4 (circuit-switched; one hop carries k bytes in xi + tau + k cycles,
Boppana's xi + i tau + i + k - 1 with i = 1):

- the binomial reduce of m bytes has four steps on its critical path, each a copy into
  the message, the hop and a combine: T(m) = 4 (xi + tau + m + (c_copy + c_comb) m r) + T0,
  so T(4096) - T(2048) = 4 x 2048 x (1 + (c_copy + c_comb) r), exactly; a tile's program
  instructions grow by c_copy per byte for its send and c_comb per combining receive;
- Bokhari's standard exchange with blocks of m bytes (p = 16, d = 4) moves p/2 blocks a
  step, packed and unpacked: T(m) = 4 (xi + tau + 8m + 2 x 8m c_copy r) + T0, a slope of
  592 cycles a byte; measured within 5 % (the executor's bookkeeping is not in it);
- the native tiles take the network part alone, exactly.
And the processor model itself: a tile's compute cycles are its instructions x cpi x
fabric clock / core clock, the remainder carried (so floor of the exact product, summed
over the run), and the quantum changes nothing, since a tile meets the fabric at every
NIC command whatever it ran before.
Usage: compute.py TESSERA
"""
import json
import subprocess
import sys
from fractions import Fraction

tessera = sys.argv[1]
c_copy = Fraction(14, 16)
c_comb = Fraction(14, 4)
r = Fraction(10)  # cpi 1 x 1,000,000 kHz fabric / 100,000 kHz core
failed = []


def run(*args):
    p = subprocess.run([tessera, "run", "--model", "tlm", "--fabric", "hypercube:4", "--json",
                        *args], capture_output=True, text=True, timeout=300)
    j = json.loads(p.stdout)
    if p.returncode != 0 or not j["verified"]:
        sys.exit(f"FAIL {' '.join(args)}: exit {p.returncode}, {j.get('failure')}")
    return j


def check(what, got, want, source="closed form"):
    ok = got == want
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got} ({source} {want})")
    if not ok:
        failed.append(what)


# The reduce.
red = {m: run("--collective", "reduce", "--bytes", str(m), "--tiles", "cortex-m4")
       for m in (2048, 4096)}
for m in (2048, 4096):
    native = run("--collective", "reduce", "--bytes", str(m))
    xi, tau = native["params"]["xi"], native["params"]["tau"]
    check(f"reduce {m} B native cycles", native["cycles"], 4 * (xi + tau + m))
check("reduce cycles, 4096 B - 2048 B", red[4096]["cycles"] - red[2048]["cycles"],
      4 * 2048 * (1 + (c_copy + c_comb) * r))
# Tile 1 only sends; tiles 2, 4 and 8 combine 1, 2, 3 arrivals and send; tile 0 combines 4.
roles = {1: c_copy, 2: c_copy + c_comb, 4: c_copy + 2 * c_comb, 8: c_copy + 3 * c_comb,
         0: 4 * c_comb}
for t, per_byte in roles.items():
    grew = red[4096]["per_tile"][t]["instructions"] - red[2048]["per_tile"][t]["instructions"]
    check(f"reduce tile {t} instructions per byte", Fraction(grew, 2048), per_byte)

# The standard exchange.
se = {m: run("--collective", "alltoall", "--algorithm", "standard", "--bytes", str(m),
             "--tiles", "cortex-m4") for m in (256, 512, 1024)}
for m in (256, 512, 1024):
    native = run("--collective", "alltoall", "--algorithm", "standard", "--bytes", str(m))
    xi, tau = native["params"]["xi"], native["params"]["tau"]
    check(f"standard exchange {m} B native cycles", native["cycles"], 4 * (xi + tau + 8 * m))
slope = 4 * 8 * (1 + 2 * c_copy * r)
for a, b in ((256, 512), (512, 1024)):
    got = Fraction(se[b]["cycles"] - se[a]["cycles"], b - a)
    ok = abs(got - slope) <= slope / 20
    print(f"{'ok  ' if ok else 'FAIL'} standard exchange cycles per byte, {a} to {b} B: "
          f"{float(got):.1f} (closed form {slope}, within 5 %)")
    if not ok:
        failed.append(f"standard exchange slope {a}-{b}")

# The processor model: compute cycles from instructions, and the quantum.
for mhz in (100, 30):
    runs = {}
    for q in (100, 10000, 10**9):
        runs[q] = run("--collective", "allreduce", "--bytes", "1024", "--tiles", "cortex-m4",
                      "--param", f"cpu_mhz={mhz}", "--param", f"quantum={q}")
    for t in runs[10000]["per_tile"]:
        check(f"{mhz} MHz tile {t['tile']} compute cycles", t["compute_cycles"],
              t["instructions"] * 1000 // mhz)
    base = runs[10000]
    for q in (100, 10**9):
        same = (runs[q]["cycles"] == base["cycles"] and runs[q]["per_tile"] == base["per_tile"])
        check(f"{mhz} MHz quantum {q}: cycles and every tile's counts as at quantum 10000",
              same, True, "wanted")

print(f"{len(failed)} failed" if failed else "all as the closed form says")
sys.exit(1 if failed else 0)
