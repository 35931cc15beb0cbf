#!/bin/sh
# Regenerates the figures docs/reproduction.md embeds (docs/figures/*.svg) from the built
# CLI: every paper `tessera reproduce` draws. Usage: scripts/reproduce-figures.sh [BUILD_DIR]
set -e
cd "$(dirname "$0")/.."
build=${1:-build}
for paper in thakur grama boppana bermond bokhari; do
  # Exit 1 only says rows miss their tolerance; the figures are written all the same.
  "$build/tessera" reproduce "$paper" --plots docs/figures > /dev/null || [ $? -eq 1 ]
done
# Thakur's tables on his step model too (docs/reproduction.md shows both).
"$build/tessera" reproduce thakur --model analytic --plots docs/figures > /dev/null || [ $? -eq 1 ]
ls docs/figures
