#!/usr/bin/env bash
# Speed of the Cortex-M4 tiles (--tiles cortex-m4, docs/tiles.md) against the native tiles
# on the same workload: an all-to-all of 256-byte blocks on mesh:8x8. Not part of the test
# suite (timings are not deterministic); run it by hand after a build:
#   cmake --build build && bash bench/iss.sh build
#
# Goal (issue 16): the ISS run within 10x of the native run's wall time. Three runs: native
# tiles; Cortex-M4 tiles whose instructions cost no fabric time (cpu_mhz 10^9: the same
# network cycles); Cortex-M4 tiles at 100 MHz against a 1 GHz fabric (compute counts).
set -euo pipefail
dir=${1:-build}
cli="$dir/tessera"
base="run --model tlm --fabric mesh:8x8 --collective alltoall --bytes 256 --json"

measure() {  # label, then the extra options: the run's line on stderr, its seconds on stdout
  local label=$1
  shift
  local out
  out=$(mktemp)
  # shellcheck disable=SC2086
  local t
  t=$({ /usr/bin/time -f '%e %M' "$cli" $base "$@" > "$out"; } 2>&1 | tail -1)
  read -r secs kib <<< "$t"
  read -r cycles verified instr untimed <<< "$(python3 -c "
import json, sys
j = json.load(open('$out'))
print(j['cycles'], j['verified'], sum(t.get('instructions', 0) for t in j['per_tile']),
      sum(t.get('setup_instructions', 0) for t in j['per_tile']))")"
  rm -f "$out"
  local rate
  rate=$(awk "BEGIN{printf \"%.0f\", $cycles / ($secs > 0 ? $secs : 0.001)}")
  printf '%-30s %6s s %4d MiB %9d cycles %10d + %10d untimed instructions %9d cycles/s verified %s\n' \
    "$label" "$secs" $((kib / 1024)) "$cycles" "$instr" "$untimed" "$rate" "$verified" >&2
  echo "$secs"
}

native=$(measure "native tiles")
fast=$(measure "cortex-m4, compute negligible" --tiles cortex-m4 --param cpu_mhz=1000000000)
measure "cortex-m4, 100 MHz core" --tiles cortex-m4 > /dev/null
ratio=$(awk "BEGIN{printf \"%.0f\", $fast / ($native > 0 ? $native : 0.01)}")
if [ "$ratio" -le 10 ]; then verdict=ok; else verdict="OVER THE GOAL (10x)"; fi
echo "cortex-m4 / native wall time: ${ratio}x: $verdict"
