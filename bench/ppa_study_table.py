#!/usr/bin/env python3
"""The table of docs/ppa.md's design study from bench/ppa_study.sh's CSV files: per
configuration (VCs, buffer depth, flit width), the iCE40 LUT4s and flip-flops and the
NAND2 equivalents (Yosys), the saturation throughput under uniform and transpose traffic
(the most bytes a tile's NIC accepted per cycle at any offered load: accepted flits per
tile and cycle times the flit's bytes), and the PEX and GEN all-to-all with 1 KB blocks:
cycles and energy (preset floonoc-12nm).
usage: ppa_study_table.py DIR (where ppa_study.sh wrote ppa-*.csv)"""
import csv
import sys
from collections import defaultdict


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def key(r):
    return (int(r["--param vcs"]), int(r["--param buffer"]), int(r["--param width"]))


def main():
    d = sys.argv[1]
    sat = defaultdict(lambda: defaultdict(float))
    area = {}
    for r in rows(f"{d}/ppa-saturation.csv"):
        if r["exit_status"] != "0":
            continue
        k = key(r)
        got = float(r["accepted.flits"]) * k[2]
        sat[k][r["--traffic"]] = max(sat[k][r["--traffic"]], got)
        area[k] = (int(float(r["area.ice40.lut4"])), int(float(r["area.ice40.ff"])),
                   round(float(r["area.gates.nand2_eq"])))
    a2a = defaultdict(dict)
    for alg in ("pex", "gen"):
        for r in rows(f"{d}/ppa-alltoall-{alg}.csv"):
            if r["exit_status"] != "0" or r["verified"] != "true":
                continue
            k = key(r)
            a2a[k][(alg, "cycles")] = int(float(r["cycles"]))
            a2a[k][(alg, "uj")] = float(r["energy.total_pj"]) / 1e6
    print("| VCs | buffer | width B | iCE40 LUT4 | iCE40 FF | NAND2 eq. | uniform B/tile/cycle "
          "| transpose B/tile/cycle | PEX cycles | GEN cycles | PEX uJ | GEN uJ |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k in sorted(area):
        lut, ff, nand = area[k]
        x = a2a.get(k, {})

        def cell(v, fmt):
            return fmt.format(v) if v is not None else "-"
        print(f"| {k[0]} | {k[1]} | {k[2]} | {lut:,} | {ff:,} | {nand:,} | "
              f"{sat[k]['uniform']:.3f} | {sat[k]['transpose']:.3f} | "
              f"{cell(x.get(('pex', 'cycles')), '{:,}')} | {cell(x.get(('gen', 'cycles')), '{:,}')} | "
              f"{cell(x.get(('pex', 'uj')), '{:.3f}')} | {cell(x.get(('gen', 'uj')), '{:.3f}')} |")

if __name__ == "__main__":
    main()
