// tessera_tile.elf: the tile runtime and the built-in collective generators as every
// Cortex-M4 tile runs them on the platform's ISS tiles (--tiles cortex-m4, docs/tiles.md).
#include "tessera/firmware/textbook.hpp"
#include "tile_app.hpp"

int main() {
  using namespace tessera;
  const tile_abi::boot_block& b = tile::boot();
  tile::run(fw::collective_program{tile::collective(b), tile_id{b.tile}});
}
