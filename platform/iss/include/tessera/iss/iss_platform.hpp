// The TLM platform with Cortex-M4 tiles (--tiles cortex-m4, docs/tiles.md): every tile is
// an ISS core (cortex_m4.hpp) running a tile image against the NIC's registers, whose
// device (nic_device.hpp) drives the same tlm_nic, fabric and engines as a native tile's.
//
// Time. A core runs ahead of the fabric by the instructions it retires, converted by the
// CPU model: a tile's fabric time advances by instructions x cpi x fabric clock / core clock
// (in kHz; the remainder carried), and the tile catches the fabric up (SystemC wait) before every
// NIC command, at every wfi, and after `quantum` instructions without either. A wfi costs
// no compute: the tile sleeps until the NIC changes, unless it already changed since the
// tile's last command.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tessera/firmware/collective.hpp"
#include "tessera/tlm/platform.hpp"

namespace tessera::iss {

struct iss_options {
  std::string firmware;                 // the tile image; empty: the one this build made
  std::uint64_t cpu_khz{100'000};       // the tile's core clock
  std::uint64_t fabric_khz{1'000'000};  // the fabric clock (a machine preset's, when given)
  std::uint64_t cpi{1};                 // core cycles per instruction
  std::uint64_t quantum{10000};         // instructions a core runs before it catches the fabric up
  // Instructions a tile runs untimed outside its program: before its start command (making
  // its initial data) and after its program_end (its report). Past this many, they are
  // timed (a tile that computes forever before it starts still reaches max_cycles).
  std::uint64_t untimed_max{std::uint64_t{1} << 28};
  // Stop the run as a timeout when a tile retires more instructions, untimed ones
  // included, than its budget (instruction_budget below): an image that never finishes
  // ends in bounded time whatever the cycle limit.
  bool instruction_budget{true};
  // GDB on one tile (--gdb TILE[:PORT], docs/tiles.md "Debugging a tile"): the tile's core
  // waits for a debugger on 127.0.0.1:gdb_port before its first instruction and stops for
  // it at breakpoints, steps and interrupts (gdb_server.hpp); the whole simulation waits
  // while it is stopped.
  std::optional<std::uint32_t> gdb_tile;
  std::uint16_t gdb_port{3333};
  // The run checks the image's own contract (tessera/firmware/contract.hpp) instead of a
  // built-in collective's: the collective_params give the fabric, --bytes, --type and --op
  // only. An image with a contract runs only so, one without never.
  bool own_contract{false};
};

// The contract the image at `firmware` declares (empty: the default image), if any;
// throws input_error for an image that cannot be read.
std::optional<fw::contract> image_contract(const std::string& firmware);

// The contract's name as the run's report shows it.
std::string contract_name(const fw::contract& k);

// Tile t's instruction budget for the collective: 8 times an estimate of what its
// program, its setup and its report retire, at least 2^20 (docs/tiles.md, "A tile that
// never finishes"). The estimate, from the ops of its program (harness::plan_tile), with s
// the slot (largest block) in bytes and b the most blocks it holds at once:
//   20,000 + 5,000 ops + (400 + 2 b + 2 s) blocks moved + 5 s blocks combined
//   + 25 s (blocks held at the start + at the end).
std::uint64_t instruction_budget(const fw::collective_params& c, std::uint32_t t);
// The same for an image's own contract, which gives no ops: as many as the blocks the tile
// starts and ends with, each of them moved once.
std::uint64_t instruction_budget(const fw::contract_layout& l, std::uint32_t t);

// The tile image: $TESSERA_DATA_DIR's or an installed tessera's
// (share/tessera/tessera_tile.elf), else the one this build made (baremetal/tile), or ""
// without either.
std::string default_firmware();

// Runs the collective with an ISS core per tile; every tile's blocks are read from its RAM
// and checked byte by byte. Throws input_error for a bad image, a workload that does not
// fit the tile, or a protocol the tiles cannot run.
tlm_models::platform_outcome run_collective(const fw::collective_params& c,
                                            const tlm_models::platform_options& o,
                                            const iss_options& io);

}  // namespace tessera::iss
