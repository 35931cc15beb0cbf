#!/usr/bin/env python3
"""tessera area held to what the RTL's parameters imply, derived here (docs/ppa.md):

- the flip-flops of the iCE40 base router at least hold its input FIFOs: 5 ports x VCs x
  depth flits of 27 control bits (mesh_ctl_t without its 2 VC bits, which the FIFO a flit
  sits in gives) and 8 x width payload bits (iCE40 has no RAM with an asynchronous read,
  so the FIFOs are flip-flops);
- NAND2 equivalents grow with VCs, depth and flit width;
- a second run of the same design reads every target from the cache, with equal counts;
- sweep --area prices each run's router as `tessera area` does, and only in the targets
  it names;
- a parameter out of the RTL's range, an unknown parameter or design exits 2 with one
  stderr line that names it.

Usage: area_sanity.py TESSERA CACHE_DIR
"""
import json
import os
import shutil
import subprocess
import sys

CTL_BITS_STORED = 1 + 1 + 1 + 12 + 12  # head, tail, odd, dst, src (the VC is the FIFO's)


def area(cli, env, router, params, target):
    cmd = [cli, "area", "--router", router, "--target", target, "--json"]
    for k, v in params.items():
        cmd += ["--param", f"{k}={v}"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1200)
    if p.returncode != 0:
        raise SystemExit(f"FAIL {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def refused(cli, env, args, needle):
    p = subprocess.run([cli, "area"] + args, capture_output=True, text=True, env=env, timeout=60)
    lines = [l for l in p.stderr.split("\n") if l]
    ok = p.returncode == 2 and len(lines) == 1 and needle in lines[0] and p.stdout == ""
    print(("ok " if ok else "FAIL ") + f"refused {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return ok


def main():
    cli, cache = sys.argv[1], sys.argv[2]
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, TESSERA_AREA_CACHE=cache)
    failures = 0

    base = {"vcs": 1, "buffer": 2, "width": 1}
    designs = {
        "base": base,
        "vcs2": dict(base, vcs=2),
        "buffer4": dict(base, buffer=4),
        "width2": dict(base, width=2),
    }
    # Every target for the base design; gates (the fastest flow) for two VCs, the deeper
    # and the wider one, to keep the test within CI's time (iCE40 for two VCs takes 28 s;
    # docs/ppa.md's table has every target of each).
    got = {name: area(cli, env, "mesh", params, "all" if name == "base" else "gates")
           for name, params in designs.items()}
    storage = 5 * base["vcs"] * base["buffer"] * (CTL_BITS_STORED + 8 * base["width"])
    ff = got["base"]["ice40"]["ff"]
    ok = ff >= storage
    failures += not ok
    print(("ok " if ok else "FAIL ") + f"mesh {base}: iCE40 {ff} flip-flops >= {storage} storage bits")
    for bigger in ("vcs2", "buffer4", "width2"):
        a, b = got["base"]["gates"]["nand2_eq"], got[bigger]["gates"]["nand2_eq"]
        ok = b > a
        failures += not ok
        print(("ok " if ok else "FAIL ") + f"gates nand2_eq grows from base to {bigger}: {a} -> {b}")

    again = area(cli, env, "mesh", base, "all")
    ok = sorted(again["cached"]) == ["gates", "ice40", "xilinx"] and all(
        again[t] == got["base"][t] for t in ("ice40", "xilinx", "gates"))
    failures += not ok
    print(("ok " if ok else "FAIL ") + f"second run from the cache: cached {again['cached']}")

    # A target alone counts what it counts among all three (one Yosys process each, so no
    # flow's netlist depends on the flows run before it): a fresh cache, the base design
    # in gates on its own (the count that moved when the flows shared a process; Xilinx's
    # did not, and its flow is the slowest, so it is not run twice).
    alone_env = dict(env, TESSERA_AREA_CACHE=cache + "-alone")
    shutil.rmtree(alone_env["TESSERA_AREA_CACHE"], ignore_errors=True)
    for target in ("gates",):
        alone = area(cli, alone_env, "mesh", base, target)
        ok = alone["cached"] == [] and alone[target] == got["base"][target]
        failures += not ok
        print(("ok " if ok else "FAIL ") + f"{target} alone {alone[target]} == {target} among all {got['base'][target]}")
    shutil.rmtree(alone_env["TESSERA_AREA_CACHE"], ignore_errors=True)

    # sweep --area: each run's router priced as `tessera area` prices it (from the cache;
    # -j 2: the configurations are priced two at a time).
    sweep = [cli, "sweep", "--model", "tlm", "--fabric", "mesh:2x2", "--collective", "bcast",
             "--bytes", "64", "--param", "vcs=1,2", "--param", "buffer=2", "--param", "width=1",
             "--area", "gates", "-j", "2", "--json"]
    p = subprocess.run(sweep, capture_output=True, text=True, env=env, timeout=1200)
    rows = json.loads(p.stdout)["rows"] if p.returncode == 0 else []
    ok = p.returncode == 0 and len(rows) == 2
    for row, name in zip(rows, ("base", "vcs2")):
        ok = ok and "area.ice40.lut4" not in row
        ok = ok and row["area.gates.nand2_eq"] == got[name]["gates"]["nand2_eq"]
        ok = ok and row["area.router"].startswith(f"mesh vcs={designs[name]['vcs']} buffer=2 width=1")
        ok = ok and row["energy.total_pj"] > 0
    failures += not ok
    print(("ok " if ok else "FAIL ") + f"sweep --area: rows {[(r.get('area.router'), r.get('area.gates.nand2_eq')) for r in rows]} "
          f"(exit {p.returncode}: {p.stderr.strip()})")

    failures += not refused(cli, env, ["--router", "mesh", "--param", "vcs=5"], "vcs=5")
    failures += not refused(cli, env, ["--router", "mesh", "--param", "vcs=5"], "1..4")
    failures += not refused(cli, env, ["--router", "mesh", "--param", "depth=2"], "depth")
    failures += not refused(cli, env, ["--router", "switch"], "switch")
    failures += not refused(cli, env, ["--fabric", "mesh:8x8"], "16 tiles")
    failures += not refused(cli, env, ["--router", "mesh", "--target", "asic"], "asic")
    failures += not refused(cli, env, ["--fabric", "hypercube:3", "--switching", "wormhole"], "wormhole")
    if failures:
        print(f"{failures} check(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
