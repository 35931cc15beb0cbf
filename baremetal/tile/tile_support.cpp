// The tile library's out-of-line part (tile_app.hpp): the command entry the platform
// synchronises on, the end of a tile's run, and exit().
#include <cstddef>
#include <cstdint>

#include "tile_app.hpp"

extern "C" {
// Every NIC command goes through here: the platform stops the core on this function's
// first instruction and brings the tile's time and the fabric's together before the
// command runs (docs/tiles.md, "Time"). Its name is part of the tile ABI.
__attribute__((noinline, used)) void tessera_nic_command(std::uint32_t code) {
  *reinterpret_cast<volatile std::uint32_t*>(tessera::tile_abi::nic_base +
                                             tessera::tile_abi::reg::command) = code;
}

// memcpy for the tile: a word at a time where both ends are word-aligned. picolibc's, in
// the size-optimised build, copies a byte at a time, four instructions a byte; the tile
// runtime copies every block it sends and receives, and on the ISS tiles that was the
// larger part of a tile's instructions (docs/tiles.md, "Compute"). The loops must not be
// turned back into a memcpy call by the compiler.
__attribute__((optimize("no-tree-loop-distribute-patterns"))) void* memcpy(
    void* __restrict dst, const void* __restrict src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (((reinterpret_cast<std::uintptr_t>(d) | reinterpret_cast<std::uintptr_t>(s)) & 3U) == 0) {
    auto* dw = reinterpret_cast<std::uint32_t*>(d);
    const auto* sw = reinterpret_cast<const std::uint32_t*>(s);
    for (; n >= 16; n -= 16, dw += 4, sw += 4) {
      dw[0] = sw[0];
      dw[1] = sw[1];
      dw[2] = sw[2];
      dw[3] = sw[3];
    }
    for (; n >= 4; n -= 4)
      *dw++ = *sw++;
    d = reinterpret_cast<unsigned char*>(dw);
    s = reinterpret_cast<const unsigned char*>(sw);
  }
  while (n-- > 0)
    *d++ = *s++;
  return dst;
}

// exit(): the run is over for this tile whatever it reported; the core sleeps.
[[noreturn]] void _exit(int status) {
  (void)status;
  for (;;)
    __asm volatile("wfi");
}
}

namespace tessera::tile {

void finish(abi::boot_block& b, abi::tile_state_code state) {
  b.state = static_cast<std::uint32_t>(state);
  tile_nic_t nic{tile_bus{}};
  nic.finish();
  _exit(0);
}

}  // namespace tessera::tile
