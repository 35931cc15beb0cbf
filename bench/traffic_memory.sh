#!/usr/bin/env bash
# Memory of synthetic traffic against run length (Trust issue, section 3): the statistics
# are streamed, so a run holds only the packets in flight and a 10M-cycle run should need
# about the memory of a 100k-cycle one. Not part of the test suite (timings and RSS are
# not deterministic); run it by hand after a build:
#   cmake --build build --target tessera && bash bench/traffic_memory.sh build/tessera
# Optional second argument: the longest run in cycles (default 10000000), to compare an
# older binary without waiting for a run it would refuse or take long on.
#
# Target: each series' longest run's max RSS within 1.5x of its 100k-cycle run's. With a
# log per packet (before the Trust issue) the 8x8 took 22, 83 and 517 MiB for 100k, 1M
# and 10M cycles.
set -euo pipefail
cli=${1:-build/tessera}
longest=${2:-10000000}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

timed() {  # prints "seconds KiB" of one run, its stdout discarded; stops on a failed run
  # shellcheck disable=SC2068
  if ! /usr/bin/time -f '%e %M' -o "$tmp" "$cli" $@ > /dev/null; then
    echo "bench/traffic_memory.sh: '$cli $*' failed" >&2
    exit 1
  fi
  tail -1 "$tmp"
}

# One series: a run at 100k cycles and longer ones; the longest's max RSS against the
# shortest's.
series() {  # $1: the run's options without --cycles
  printf '%s\n%-10s %8s %8s\n' "$1" cycles seconds MiB
  local first_kib=0 last_kib=0 c result secs kib ratio verdict
  for c in 100000 1000000 10000000; do
    [ "$c" -le "$longest" ] || continue
    result=$(timed "$1 --cycles $c --json")
    read -r secs kib <<< "$result"
    printf '%-10s %8s %8.1f\n' "$c" "$secs" "$(awk "BEGIN{print $kib / 1024}")"
    [ "$first_kib" -gt 0 ] || first_kib=$kib
    last_kib=$kib
  done
  ratio=$(awk "BEGIN{printf \"%.2f\", $last_kib / $first_kib}")
  verdict=ok
  if awk "BEGIN{exit !($ratio > 1.5)}"; then verdict="OVER TARGET (1.5)"; fi
  printf 'max RSS %s / 100000 cycles: %s (%s)\n\n' "$longest" "$ratio" "$verdict"
}

# Below saturation on the 8x8 and on the 32x32 (where the engine's event buckets once kept
# every burst they saw: 47 MB at 1k cycles, 179 MB at 200k), and far past saturation on
# the 16x16, where only the source queues (--source-queue, default 64) bound memory (it
# reached 7 GB by 10^6 cycles before they did).
series "run --model tlm --fabric mesh:8x8 --traffic uniform --rate 0.01 --packet-flits 8"
series "run --model tlm --fabric mesh:32x32 --traffic uniform --rate 0.005"
series "run --model tlm --fabric mesh:16x16 --traffic uniform --rate 1"
