#!/usr/bin/env bash
# Speed of the Verilated wormhole mesh (issue 15): the RTL model alone (tb_mesh
# --scenario uniform) and under the platform (`run --model rtl`, the tlm2rtl bridge).
# Not part of the test suite (timings are not deterministic); run it by hand after a
# build:
#   cmake --build build && bash bench/rtl.sh build
#
# Target (2 cores): 8x8 mesh, uniform traffic, 0.01 packets/node/cycle, 8-flit packets:
#   >= 28,000 simulated cycles per second, BookSim2's speed on this machine kind (Noxim
#   about 17,000).
set -euo pipefail
dir=${1:-build}
cycles=${TESSERA_BENCH_CYCLES:-50000}

timed() {  # prints "seconds MiB" of one command, its stdout discarded
  # shellcheck disable=SC2068
  { /usr/bin/time -f '%e %M' $@ > /dev/null; } 2>&1 | tail -1
}
rate_of() {  # simulated cycles per second
  awk "BEGIN{printf \"%.0f\", $1 / ($2 > 0 ? $2 : 0.001)}"
}
verdict() {
  if [ "$1" -lt 28000 ]; then echo "$1 cycles/s: UNDER TARGET (28000)"; else echo "$1 cycles/s: ok"; fi
}

printf '%-110s %8s %8s %s\n' run seconds MiB result
alone="$dir/tb/tb_mesh --scenario uniform --mesh 8x8 --rate 0.01 --flits 8 --cycles $cycles"
read -r secs kib <<< "$(timed "$alone")"
printf '%-110s %8s %8d %s\n' "$alone" "$secs" $((kib / 1024)) "$(verdict "$(rate_of "$cycles" "$secs")")"

platform="$dir/tessera run --model rtl --fabric mesh:8x8 --traffic uniform --rate 0.01 --packet-flits 8 --cycles $cycles --json"
read -r secs kib <<< "$(timed "$platform")"
printf '%-110s %8s %8d %s\n' "$platform" "$secs" $((kib / 1024)) "$(verdict "$(rate_of "$cycles" "$secs")")"

# The same traffic on the wormhole engine, for scale.
tlm="$dir/tessera run --model tlm --fabric mesh:8x8 --traffic uniform --rate 0.01 --packet-flits 8 --cycles $cycles --json"
read -r secs kib <<< "$(timed "$tlm")"
printf '%-110s %8s %8d %s\n' "$tlm" "$secs" $((kib / 1024)) "$(rate_of "$cycles" "$secs") cycles/s"

# A run with a long idle stretch: the reliable protocol's timer resends a dropped
# message about 37,000 cycles after everything else is delivered. The bridge simulates
# the idle cycles only until the RTL is quiet and skips the rest.
idle="$dir/tessera run --model rtl --fabric mesh:4x4 --collective alltoall --bytes 256 --protocol reliable --fault drop=0->1#1 --json"
read -r secs kib <<< "$(timed "$idle")"
simulated=$($idle | python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"])')
printf '%-110s %8s %8d %s\n' "$idle" "$secs" $((kib / 1024)) "$simulated cycles, $(rate_of "$simulated" "$secs") cycles/s"
