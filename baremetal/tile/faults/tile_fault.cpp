// Tile images that go wrong on purpose, one way each (TESSERA_TILE_FAULT), for the tests
// of the ISS tiles' fault reports (tests/iss): a read outside tile memory, an undefined
// instruction, a stack that overflows into the guard page, a tile that computes forever
// in its program without touching its NIC, one that sleeps forever, and one that computes
// forever before its program starts (its untimed setup, docs/tiles.md "Time"). Every tile
// of a run behaves so.
#include <cstdint>

#include "tile_app.hpp"

namespace {

volatile std::uint32_t sink;

// Each call keeps 4 KiB on the stack: deep enough recursion runs into the guard page.
__attribute__((noinline)) std::uint32_t deep(std::uint32_t n) {
  volatile std::uint8_t frame[4096];
  frame[n % sizeof frame] = static_cast<std::uint8_t>(n);
  return n == 0 ? 0 : deep(n - 1) + frame[n % sizeof frame];
}

[[maybe_unused]] void start_program() {
  tessera_nic_command(static_cast<std::uint32_t>(tessera::tile_abi::command::start));
}

}  // namespace

int main() {
#if TESSERA_TILE_FAULT == 1
  sink = *reinterpret_cast<volatile std::uint32_t*>(0x3000'0000U);
#elif TESSERA_TILE_FAULT == 2
  __asm volatile("udf #7");
#elif TESSERA_TILE_FAULT == 3
  sink = deep(1'000'000);
#elif TESSERA_TILE_FAULT == 4
  start_program();
  for (;;)
    sink = sink + 1;
#elif TESSERA_TILE_FAULT == 5
  start_program();
  for (;;)
    __asm volatile("wfi");
#elif TESSERA_TILE_FAULT == 6
  for (;;)
    sink = sink + 1;
#else
#error "TESSERA_TILE_FAULT: 1 read, 2 undefined instruction, 3 stack, 4 hang, 5 sleep, 6 setup hang"
#endif
  return 0;
}
