#!/usr/bin/env bash
# Whole-run timings of `tessera run --model alphabeta` on large fabrics: wall time and
# peak memory per run, against the targets below. Not part of the test suite (timings
# are not deterministic); run it by hand after a Release build:
#   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_HOST_ONLY=ON
#   cmake --build build-rel --target tessera && bash bench/alphabeta.sh build-rel/tessera
#
# Targets (2 cores, 24 GiB): every run below under 10 s and 2 GiB. Memory is mostly the
# tiles' own: each holds its blocks plus one tx and one rx buffer of a message.
set -euo pipefail
cli=${1:-build/tessera}
runs=(
  "--fabric hypercube:10 --collective alltoall --bytes 64"
  "--fabric mesh:32x32 --collective alltoall --bytes 64"
  "--fabric ring:1024 --collective allgather --bytes 64"
  "--fabric hypercube:12 --collective allreduce --bytes 65536"
  "--fabric mesh:64x64 --collective bcast --bytes 131072"
  "--fabric hypercube:10 --collective prefix --type f64 --bytes 8192"
  "--fabric hypercube:10 --collective alltoall --algorithm naive --protocol forced --prepost --bytes 64"
)
printf '%-95s %9s %9s %s\n' run seconds MiB verdict
for r in "${runs[@]}"; do
  # shellcheck disable=SC2086
  out=$( { /usr/bin/time -f '%e %M' "$cli" run $r --json > /dev/null; } 2>&1 | tail -1)
  read -r secs kib <<< "$out"
  verdict=ok
  if awk "BEGIN{exit !($secs > 10 || $kib > 2097152)}"; then verdict="OVER TARGET"; fi
  printf '%-95s %9s %9d %s\n' "$r" "$secs" $((kib / 1024)) "$verdict"
done
