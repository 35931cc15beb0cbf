#!/usr/bin/env bash
# Builds a tile image for the platform's Cortex-M4 tiles (--tiles cortex-m4, docs/tiles.md)
# from one C++ source of one's own, with the tile library and the tile runtime of this
# checkout: scripts/tile-image.sh my_collective.cpp my_collective.elf
# Needs the cross tools the bare-metal build uses (scripts/install-deps.sh installs them).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: scripts/tile-image.sh SOURCE.cpp OUTPUT.elf" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
exec arm-none-eabi-g++ -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 \
  -specs=picolibcpp.specs --crt0=hosted -std=c++20 -Os -g \
  -ffreestanding -fno-exceptions -fno-rtti -fno-threadsafe-statics \
  -ffunction-sections -fdata-sections -Wall -Wextra \
  -I "$root/runtime/include" -I "$root/firmware/include" -I "$root/baremetal/tile" \
  "$1" "$root/baremetal/tile/tile_support.cpp" "$root/baremetal/no_exceptions.cpp" \
  -T "$root/baremetal/tile/tile_cm4.ld" \
  -Wl,--undefined=tessera_nic_command -Wl,--undefined=__heap_end -Wl,--gc-sections \
  -o "$2"
