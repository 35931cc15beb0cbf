// The tile library's out-of-line part (tile_app.hpp): the command entry the platform
// synchronises on, the end of a tile's run, and exit().
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
