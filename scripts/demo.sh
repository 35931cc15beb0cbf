#!/usr/bin/env bash
# The README demo: installs what is missing, builds the CLI, and compares
# complete-exchange algorithms on the two fabrics of the source papers.
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
