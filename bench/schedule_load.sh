#!/usr/bin/env bash
# Loading a schedule file is linear in its ops: `analyze` (read, resolve, check) and
# `run` (read, resolve, run on alphabeta) on 40k, 160k and 640k ops on one tile, and the
# same op counts over 64 tiles, with wall time and peak memory. Not part of the test
# suite (timings are not deterministic); run it by hand after a build:
#   bash bench/schedule_load.sh build/tessera
#
# Two shapes per size: n idle ops on tile 0 (the reader and checker alone), and n/2
# sends from tile 0 matched by n/2 receives on tile 1 (messages resolved, matched and
# checked). Target: time about proportional to n (x4 ops, about x4 time; before the
# reader was made linear, 160k idle ops on one tile took 41 s against 3.9 s for 40k).
set -euo pipefail
cli=${1:-build/tessera}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# make_schedule FILE SHAPE N TILES: on 2 tiles every op is on tile 0 (idle) or on the one
# pair 0 -> 1 (sendrecv); on 64 tiles they are spread evenly (32 pairs for sendrecv).
make_schedule() {
  python3 - "$@" <<'PY'
import json, sys
path, shape, n, tiles = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ops = [[] for _ in range(tiles)]
if shape == "idle":
    for i in range(n):
        ops[0 if tiles == 2 else (i * tiles) // n].append({"op": "idle"})
else:
    pairs = tiles // 2
    for i in range(n // 2):
        a = 2 * ((i * pairs) // (n // 2))
        ops[a].append({"op": "send", "peer": a + 1, "bytes": 8})
        ops[a + 1].append({"op": "recv", "peer": a, "bytes": 8})
with open(path, "w") as f:
    json.dump({"tiles": tiles, "ops": ops}, f)
PY
}

printf '%-8s %-10s %6s %-8s %9s %9s\n' ops shape tiles command seconds MiB
for n in 40000 160000 640000; do
  for shape in idle sendrecv; do
    for tiles in 2 64; do
      make_schedule "$dir/s.json" "$shape" "$n" "$tiles"
      for cmd in analyze run; do
        /usr/bin/time -o "$dir/time" -f '%e %M' "$cli" "$cmd" --fabric "ring:$tiles" \
          --schedule "$dir/s.json" > /dev/null 2>&1 || true
        read -r secs kib < "$dir/time"
        printf '%-8s %-10s %6s %-8s %9s %9d\n' "$n" "$shape" "$tiles" "$cmd" "$secs" $((kib / 1024))
      done
    done
  done
done
