#!/usr/bin/env python3
"""`tessera reproduce PAPER --model rtl` against `--model tlm`: every row within its
tolerance on the Verilated cube, and every simulated value equal to the circuit
engine's (the engine follows the cube's rules cycle for cycle, docs/rtl.md).
usage: reproduce_rtl.py TESSERA PAPER"""
import json
import subprocess
import sys


def run(tessera, paper, model):
    r = subprocess.run([tessera, "reproduce", paper, "--model", model, "--json"],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        sys.exit(f"reproduce {paper} --model {model}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def main():
    tessera, paper = sys.argv[1], sys.argv[2]
    tlm = run(tessera, paper, "tlm")
    rtl = run(tessera, paper, "rtl")
    if not rtl["model"].startswith("rtl,"):
        sys.exit(f"the rtl report names its model '{rtl['model']}'")
    if not rtl["pass"] or rtl["rows_failed"] != 0:
        sys.exit(f"{rtl['rows_failed']} rows fail on the rtl model")
    if len(rtl["rows"]) != len(tlm["rows"]) or len(rtl["rows"]) == 0:
        sys.exit(f"{len(rtl['rows'])} rtl rows against {len(tlm['rows'])} tlm rows")
    differ = [(a["what"], a["simulated"], b["simulated"])
              for a, b in zip(tlm["rows"], rtl["rows"]) if a["simulated"] != b["simulated"]]
    if differ:
        sys.exit(f"{len(differ)} rows differ, first: {differ[0]}")
    print(f"{paper}: {len(rtl['rows'])} rows, all within tolerance on the rtl model and equal "
          "to the tlm model's")


if __name__ == "__main__":
    main()
