#!/usr/bin/env python3
"""Runs one workload with --model tlm and --model rtl (--json) and requires the named
parts of the two reports to be equal: `contention` (blocked requests, cycles waited,
longest wait, retries) and/or `links` (per channel: busy cycles, messages, most
waiting at once). The engine and the bridge compute them independently, the bridge
from the Verilated fabric's own signals (docs/rtl.md, "The RTL as a model").

usage: stats_agree.py TESSERA PARTS -- RUN_ARGS...   (PARTS: comma-separated)
"""
import json
import subprocess
import sys


def report(tessera, model, args):
    out = subprocess.run([tessera, "run", "--model", model, *args, "--json"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"--model {model} exited {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    tessera, parts = sys.argv[1], sys.argv[2].split(",")
    args = sys.argv[sys.argv.index("--") + 1:]
    tlm, rtl = report(tessera, "tlm", args), report(tessera, "rtl", args)
    bad = 0
    for part in parts:
        a, b = tlm.get(part), rtl.get(part)
        if a is None or b is None:
            print(f"{part}: missing from a report")
            bad += 1
        elif a != b:
            bad += 1
            if isinstance(a, list):
                print(f"{part}: {len(a)} entries on tlm, {len(b)} on rtl")
                for x, y in zip(a, b):
                    if x != y:
                        print(f"  first difference: tlm {x}, rtl {y}")
                        break
            else:
                print(f"{part}: tlm {a}, rtl {b}")
        else:
            print(f"{part}: equal ({len(a) if isinstance(a, list) else a})")
    print(f"cycles: tlm {tlm['cycles']}, rtl {rtl['cycles']}")
    sys.exit(1 if bad or tlm["cycles"] != rtl["cycles"] else 0)


if __name__ == "__main__":
    main()
