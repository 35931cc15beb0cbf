// A tile image larger than the tile's 1 MiB of flash (linked with tile_too_big.ld, whose
// flash is larger): the platform refuses it before it runs (tests/iss).
#include <cstdint>

#include "tile_app.hpp"

namespace {
// 2 MiB of constants, kept by the read below.
const std::uint8_t table[2U << 20] = {1};
volatile std::uint32_t index = 0;
}  // namespace

int main() {
  return table[index];
}
