#!/usr/bin/env bash
# The README demo: installs what is missing, builds the CLI, compares
# complete-exchange algorithms on the two fabrics of the source papers, and runs the
# TLM platform on Bokhari's contention experiment, Boppana's AAP and synthetic traffic.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > build.log 2>&1 ||
  { cat build.log; exit 1; }
cmake --build build --target tessera >> build.log 2>&1 || { cat build.log; exit 1; }

echo
echo "== Thakur: PEX vs GEN link contention on the 16x32 Touchstone Delta mesh (XY routing) =="
build/tessera compare --fabric mesh:16x32 --collective alltoall --algorithms pex,gen --bytes 1024
echo
echo "== Bokhari: naive vs pairwise vs stable on a circuit-switched 6-cube (e-cube routing) =="
build/tessera compare --fabric hypercube:6 --collective alltoall \
  --algorithms naive,pairwise,stable --bytes 1024
echo
echo "== Bokhari: eight paths through edge 7->15 of the iPSC-860 7-cube, simulated (TLM, circuit switching) =="
build/tessera run --model tlm --machine ipsc860 --fabric hypercube:7 --protocol forced \
  --pattern examples/patterns/bokhari_single_path.json | sed -n 1,2p
build/tessera run --model tlm --machine ipsc860 --fabric hypercube:7 --protocol forced \
  --pattern examples/patterns/bokhari_edge_contention.json
echo
echo "== Boppana: AAP all-to-all on a circuit-switched 6-cube, every byte checked (TLM) =="
build/tessera run --model tlm --fabric hypercube:6 --collective alltoall --algorithm aap \
  --bytes 256 --param xi=30 --param tau=3 | sed -n 1,4p
echo
echo "== Uniform traffic on an 8x8 wormhole mesh (TLM, BookSim-style measurement) =="
build/tessera run --model tlm --fabric mesh:8x8 --traffic uniform --rate 0.02 --cycles 50000
echo
echo "== Bermond-Michallon-Trystram: broadcast 64 KB on two edge-disjoint depth-12 trees of a 12x12 MegaNode torus (TLM) =="
build/tessera trees --fabric torus:12x12 --algorithm bermond-optimal | head -1
for alg in edst-single edst-saad-schultz edst-optimal; do
  build/tessera run --model tlm --machine meganode --fabric torus:12x12 --collective bcast \
    --algorithm "$alg" --bytes 65536 | grep -E '^bcast|time|trees|fill-in|verified'
done
