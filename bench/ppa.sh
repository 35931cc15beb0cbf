#!/usr/bin/env bash
# The area table of docs/ppa.md: `tessera area` over routers, network interfaces and
# small fabrics of the three fabrics, every target, printed as a Markdown table. Not part
# of the test suite (a cold cache synthesizes for tens of minutes); run it by hand after
# a build:
#   cmake --build build && bash bench/ppa.sh build
# Results are cached ($TESSERA_AREA_CACHE, else ~/.cache/tessera/area), so a second run
# prints the table at once. The torus nodes are priced with 32-byte packets: their
# buffers are register files read through multiplexers, and Yosys takes 2 minutes on the
# node with 2 buffers of 32 bytes, 6 with 4 (docs/ppa.md, "The torus's buffers"); the
# 256-byte packets the Verilated tori carry would be eight times that storage. The nodes
# with 8 and 16 buffers are priced in gates only (the iCE40 flow took over 18 minutes on
# 8); the table shows "-" for the FPGA columns there.
set -euo pipefail
dir=${1:-build}

configs=(
  "--router mesh --param vcs=1 --param buffer=4 --param width=4"
  "--router mesh --param vcs=2 --param buffer=4 --param width=4"
  "--router mesh --param vcs=4 --param buffer=4 --param width=4"
  "--router mesh --param vcs=2 --param buffer=8 --param width=4"
  "--router mesh --param vcs=2 --param buffer=16 --param width=4"
  "--router mesh --param vcs=2 --param buffer=4 --param width=8"
  "--router mesh --param vcs=2 --param buffer=4 --param width=16"
  "--router mesh-ni --param vcs=2 --param buffer=4 --param width=4"
  "--router torus --param buffers=2 --param packet_bytes=32"
  "--router torus --param buffers=4 --param packet_bytes=32"
  "--router torus --param buffers=8 --param packet_bytes=32 --target gates"
  "--router torus --param buffers=16 --param packet_bytes=32 --target gates"
  "--router torus-ni --param buffers=4 --param packet_bytes=32"
  "--router cube --param dims=4"
  "--router cube --param dims=7"
  "--router cube-ni --param dims=4"
  "--fabric mesh:4x4 --param vcs=1 --param buffer=4 --param width=4"
  "--fabric torus:4x4 --param packet_bytes=16 --target gates"
  "--fabric hypercube:4"
)

printf '| design | parameters | iCE40 LUT4 | iCE40 FF | Xilinx LUT | Xilinx FF | LUTRAM | NAND2 eq. | storage bits |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
for c in "${configs[@]}"; do
  # shellcheck disable=SC2086
  json=$("$dir/tessera" area $c --json)
  python3 - "$json" <<'EOF'
import json, sys
j = json.loads(sys.argv[1])
name = j.get("router") or j.get("fabric")
params = " ".join(f"{k}={v}" for k, v in j["params"].items())
def cell(target, field):
    return f"{round(j[target][field]):,}" if target in j else "-"
print(f"| {name} | {params} | {cell('ice40', 'lut4')} | {cell('ice40', 'ff')} | "
      f"{cell('xilinx', 'lut')} | {cell('xilinx', 'ff')} | {cell('xilinx', 'lutram')} | "
      f"{cell('gates', 'nand2_eq')} | {j['storage_bits']:,} |")
EOF
done
