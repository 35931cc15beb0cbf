#!/usr/bin/env bash
# Whole-run timings of the TLM platform against the targets of issue 4. Not part of the
# test suite (timings are not deterministic); run it by hand after a Release build:
#   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-rel --target tessera && bash bench/tlm.sh build-rel/tessera
#
# Targets (2 cores):
#   8x8 mesh, uniform traffic, 0.01 packets/node/cycle, 8-flit packets, 200k cycles:
#     >= 200k simulated cycles per second (BookSim2: about 20k on this configuration)
#   Delta 16x32 PEX complete exchange, 16 KB messages: <= 5 s wall
# Virtual channels (issue 36): the same traffic with vcs 1 (the closed form), 2..4 shared
# round robin (the flit engine, which counts the per-VC statistics; also vcs 1 with
# engine=flit) and 2 in fixed shares, at 0.01 and near saturation (0.04);
# no target beyond vcs 1 keeping the rate above.
# The other runs have no target; they show the cost of the circuit and torus engines.
set -euo pipefail
cli=${1:-build/tessera}

timed() {  # prints "seconds MiB" of one run, its stdout discarded
  # shellcheck disable=SC2068
  { /usr/bin/time -f '%e %M' "$cli" $@ > /dev/null; } 2>&1 | tail -1
}

printf '%-100s %8s %8s %s\n' run seconds MiB result
traffic="run --model tlm --fabric mesh:8x8 --traffic uniform --rate 0.01 --packet-flits 8 --cycles 200000 --warmup 20000 --json"
read -r secs kib <<< "$(timed "$traffic")"
rate=$(awk "BEGIN{printf \"%.0f\", 200000 / ($secs > 0 ? $secs : 0.001)}")
verdict="$rate cycles/s"
if [ "$rate" -lt 200000 ]; then verdict="$verdict: UNDER TARGET (200000)"; else verdict="$verdict: ok"; fi
printf '%-100s %8s %8d %s\n' "$traffic" "$secs" $((kib / 1024)) "$verdict"

for rate in 0.01 0.04; do
  for vc in "vcs=1" "vcs=1 --param engine=flit" "vcs=2" "vcs=3" "vcs=4" "vcs=2 --param vc_share=fixed"; do
    r="run --model tlm --fabric mesh:8x8 --traffic uniform --rate $rate --packet-flits 8 --cycles 200000 --warmup 20000 --param $vc --json"
    read -r secs kib <<< "$(timed "$r")"
    printf '%-100s %8s %8d %s\n' "$r" "$secs" $((kib / 1024)) \
      "$(awk "BEGIN{printf \"%.0f\", 200000 / ($secs > 0 ? $secs : 0.001)}") cycles/s"
  done
done

delta="run --model tlm --machine delta --fabric mesh:16x32 --collective alltoall --algorithm pex --bytes 16384 --payload-bytes 64 --json"
read -r secs kib <<< "$(timed "$delta")"
verdict=ok
if awk "BEGIN{exit !($secs > 5)}"; then verdict="OVER TARGET (5 s)"; fi
printf '%-100s %8s %8d %s\n' "$delta" "$secs" $((kib / 1024)) "$verdict"

others=(
  "run --model tlm --fabric hypercube:10 --collective alltoall --algorithm aap --bytes 1024 --payload-bytes 64 --json"
  "run --model tlm --machine ipsc860 --fabric hypercube:7 --collective alltoall --algorithm pairwise --bytes 4096 --protocol forced --prepost --json"
  "run --model tlm --machine meganode --fabric torus:16x16 --collective allgather --bytes 1024 --json"
  "run --model tlm --machine meganode --fabric torus:16x16 --collective bcast --algorithm edst-optimal --bytes 1048576 --json"
  "run --model tlm --machine meganode --fabric torus:16x16 --collective bcast --algorithm edst-saad-schultz --bytes 1048576 --json"
  "run --model tlm --fabric mesh:32x32 --traffic transpose --rate 0.005 --cycles 100000 --json"
)
for r in "${others[@]}"; do
  read -r secs kib <<< "$(timed "$r")"
  printf '%-100s %8s %8d %s\n' "$r" "$secs" $((kib / 1024)) "-"
done
