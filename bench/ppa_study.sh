#!/usr/bin/env bash
# The design study of docs/ppa.md ("An 8 x 8 mesh router, priced"): the wormhole mesh
# router over VCs 1, 2 and 4, buffers of 2 to 16 flits and flits of 4 to 16 bytes, on an
# 8 x 8 mesh. For each configuration: the saturation throughput under uniform and
# transpose traffic (a load-latency sweep), the time of PEX and GEN all-to-all with
# 1 KB blocks, the router's iCE40 LUTs and flip-flops and NAND2 equivalents (Yosys, cached),
# and the energy of every run. Writes the rows and the Pareto fronts into OUT (default
# docs/figures) and prints the table. Not part of the test suite: a cold area
# cache synthesizes for about an hour on two cores; the runs take minutes.
#   cmake --build build && bash bench/ppa_study.sh build docs/figures
set -euo pipefail
dir=${1:-build}
out=${2:-docs/figures}
jobs=${TESSERA_JOBS:-2}
mkdir -p "$out"
space=(--param vcs=1,2,4 --param buffer=2,4,8,16 --param width=4,8,16)

# Saturation: 8-flit packets, uniform and transpose, 0.004 to 0.15 packets/tile/cycle.
"$dir/tessera" sweep --model tlm --fabric mesh:8x8 --traffic uniform,transpose \
  --rate 0.004:0.15:log10 --cycles 10000 "${space[@]}" --area ice40,gates -j "$jobs" \
  --csv "$out/ppa-saturation.csv" \
  --pareto area.ice40.lut4,saturation_bytes --pareto-plot "$out/ppa-pareto-saturation.svg" \
  --json > "$out/ppa-saturation.json"

# All-to-all, 1 KB blocks, PEX and GEN (Thakur), one sweep each so that each has its
# own front: time against the router's NAND2 equivalents, and the energy of every run
# (preset floonoc-12nm; docs/ppa.md says why it is the same for every configuration).
for alg in pex gen; do
  "$dir/tessera" sweep --model tlm --fabric mesh:8x8 --collective alltoall --algorithm $alg \
    --bytes 1024 "${space[@]}" --area ice40,gates -j "$jobs" \
    --csv "$out/ppa-alltoall-$alg.csv" \
    --pareto area.gates.nand2_eq,cycles --pareto-plot "$out/ppa-pareto-alltoall-$alg.svg" \
    --json > "$out/ppa-alltoall-$alg.json"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for name in ("ppa-saturation", "ppa-alltoall-pex", "ppa-alltoall-gen"):
    j = json.load(open(f"{out}/{name}.json"))
    p = j["pareto"]
    print(f"{name}: {j['runs']} runs, {j['failed']} failed; front of {p['x']['column']}, "
          f"{p['y']['column']}: {len(p['front'])} of {p['points']}")
    for f in p["front"]:
        print(f"  {f['label']}: {f['x']:.6g}, {f['y']:.6g}")
PY
# The table of docs/ppa.md.
python3 "$(dirname "$0")/ppa_study_table.py" "$out"
