#!/usr/bin/env python3
"""Elaborate one RTL top with Yosys 0.23 in one configuration and fail on what would make
its netlist differ from the design the Verilated models simulate: an error, an inferred
latch, an identifier Yosys declared implicitly or a wire it left undriven (docs/rtl.md,
"Style: one source for Verilator and Yosys").

Usage: yosys_check.py YOSYS RTL_DIR TOP [Param=Value ...] [--synth | --hierarchy-only]
Reads every RTL_DIR/*.sv (the package first), sets the parameters, runs hierarchy, proc
and check, and with --synth the generic synth; with --hierarchy-only just the hierarchy
(every parameter and generate evaluated), for a large configuration whose smaller
sibling, the same but for its size, goes through proc and check. Exit 0 when clean, else
1 with the offending lines.
"""
import glob
import os
import subprocess
import sys
import tempfile

BAD = ("is implicitly declared", "is used but has no driver", "Latch inferred", "$dlatch",
       "ERROR:")


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    yosys, rtl, top = argv[1], argv[2], argv[3]
    synth = "--synth" in argv[4:]
    hierarchy_only = "--hierarchy-only" in argv[4:]
    params = [a for a in argv[4:] if a not in ("--synth", "--hierarchy-only")]
    files = sorted(glob.glob(os.path.join(rtl, "*_pkg.sv")))
    files += sorted(f for f in glob.glob(os.path.join(rtl, "*.sv")) if f not in files)
    script = ["read_verilog -sv " + " ".join(files)]
    if params:  # one chparam: each call elaborates the module again
        sets = " ".join("-set {} {}".format(*p.split("=", 1)) for p in params)
        script.append(f"chparam {sets} {top}")
    script += [f"hierarchy -check -top {top}"]
    if not hierarchy_only:
        script += ["proc", "check -assert"]
    if synth:
        script += [f"rename -top {top}", f"synth -top {top}", "check -assert", "stat"]
    with tempfile.TemporaryDirectory() as tmp:
        ys = os.path.join(tmp, "check.ys")
        log = os.path.join(tmp, "yosys.log")
        with open(ys, "w") as f:
            f.write("\n".join(script) + "\n")
        proc = subprocess.run([yosys, "-q", "-l", log, "-s", ys], capture_output=True, text=True)
        text = open(log).read() if os.path.exists(log) else proc.stdout + proc.stderr
    bad = [line for line in text.split("\n") if any(b in line for b in BAD)]
    what = f"{top} {' '.join(params)}".strip()
    if proc.returncode != 0 or bad:
        print(f"FAIL {what}: exit {proc.returncode}")
        for line in bad[:20]:
            print("  " + line)
        return 1
    print(f"ok {what}: " + ("elaborated, no error" if hierarchy_only else "no error, no latch, no misread"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
