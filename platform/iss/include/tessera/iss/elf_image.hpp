// A tile image as the ISS tiles load it: an arm-none-eabi ELF executable for the
// Cortex-M4 (32-bit, little-endian, EM_ARM), its loadable segments, which must lie in the
// tile's flash and RAM (tessera/runtime/tile_abi.hpp), and the symbols the platform needs:
// tessera_nic_command (where the core stops to synchronise before a NIC command) and
// picolibc's __heap_end (the bottom of the stack reserve, below which the platform leaves
// the stack guard unmapped). Read with libelf; the file is read once, bounded by its size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/firmware/contract.hpp"

namespace tessera::iss {

struct elf_segment {
  std::uint32_t addr{0};         // physical (load) address
  std::vector<std::byte> bytes;  // file contents; memsz beyond them is zero
  std::uint32_t memsz{0};
};

struct elf_image {
  std::string path;
  std::uint32_t entry{0};
  std::vector<elf_segment> segments;
  std::uint32_t nic_command{0};  // address of tessera_nic_command (Thumb bit cleared)
  std::uint32_t heap_end{0};     // __heap_end: the stack guard lies just below it
  std::uint64_t flash_bytes{0};  // bytes of flash the image occupies
  std::uint64_t ram_bytes{0};    // bytes of RAM its segments occupy
  // The image's own contract (its symbol tessera_contract, tessera/firmware/contract.hpp),
  // as its flash holds it; checked against a fabric by the platform, not here.
  std::optional<fw::contract> contract;
};

// The largest image file read.
inline constexpr std::uint64_t max_image_bytes = std::uint64_t{64} << 20;

// Throws input_error naming the file and what is wrong: not readable, not ELF, not a
// 32-bit little-endian ARM executable, a segment outside the tile's flash and RAM (too
// big for the tile), a missing symbol (not built as a Tessera tile image), or a
// tessera_contract of another size than this platform's or outside the loaded bytes.
elf_image load_elf(const std::string& path);

}  // namespace tessera::iss
