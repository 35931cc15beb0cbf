#!/bin/sh
# Regenerates the heat maps and timelines docs/visualize.md embeds (docs/figures/*.svg) from the
# built CLI. Usage: scripts/visualize-figures.sh [BUILD_DIR]
set -e
cd "$(dirname "$0")/.."
build=${1:-build}
out=docs/figures
run() { "$build/tessera" run "$@" > /dev/null; }
# Thakur's two power-of-two algorithms on the Delta preset, 8 x 8, 1 KB blocks: how busy
# each link was over the whole exchange.
for alg in pex gen; do
  run --machine delta --fabric mesh:8x8 --collective alltoall --algorithm $alg --bytes 1024 \
    --heatmap $out/heatmap-delta-8x8-$alg.svg
done
# GEN's steps on 4 x 4: how many of each step's messages cross each link.
run --model tlm --fabric mesh:4x4 --collective alltoall --algorithm gen --bytes 256 \
  --heatmap $out/heatmap-steps-gen-4x4.svg --heatmap-steps
# Bokhari's stable schedule on the iPSC-860 5-cube, one run with the preset's jitter.
run --machine ipsc860 --fabric hypercube:5 --collective alltoall --algorithm stable \
  --protocol forced --prepost --bytes 1000 --param jitter=25 --param jitter_seed=3 \
  --heatmap $out/heatmap-ipsc-stable.svg
# A pipelined broadcast on a torus (MegaNode preset): the wrap links carry the trees too.
run --machine meganode --fabric torus:4x4 --collective bcast --algorithm edst-simmen \
  --bytes 4096 --heatmap $out/heatmap-meganode-bcast.svg

# Timelines (--timeline): Bokhari's stable schedule on the iPSC-860 3-cube, the same run
# as docs/visualize.md's trace; and GEN on the Delta 4 x 4 mesh on the Verilated RTL.
run --machine ipsc860 --fabric hypercube:3 --collective alltoall --algorithm stable \
  --protocol forced --prepost --bytes 1000 --timeline $out/timeline-ipsc-stable.svg
run --model rtl --fabric mesh:4x4 --collective alltoall --algorithm gen --bytes 256 \
  --timeline $out/timeline-rtl-mesh-gen.svg

# A load-latency study (docs/sweeps.md): uniform and transpose traffic on an 8 x 8
# wormhole mesh, twelve loads each.
"$build/tessera" sweep --model tlm --fabric mesh:8x8 --traffic uniform,transpose \
  --rate 0.002:0.1:log12 --cycles 20000 --jobs 2 --csv docs/figures/sweep-load-latency.csv \
  --plot docs/figures/sweep-load-latency.svg
ls $out/heatmap-*.svg $out/timeline-*.svg $out/sweep-*
