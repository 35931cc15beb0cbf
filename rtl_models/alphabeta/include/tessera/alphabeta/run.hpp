// Runs a collective for real on the alpha-beta network: every tile executes the
// firmware's op stream with the tile runtime, data moves through ab_nic, and every
// tile's final holdings are checked byte by byte against payload.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/alphabeta/network.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::ab {

struct run_options {
  params prm{};
  protocol proto{protocol::raw};
  std::uint64_t unforced_threshold{100};
  bool prepost{false};  // post every receive, then a global barrier (Bokhari §5)
  // Memory all tiles together may use (blocks, buffers); above it the run is refused.
  std::uint64_t memory_limit{std::uint64_t{4} << 30};
};

struct step_timing {
  std::uint32_t step{0};
  std::uint64_t start{0};
  std::uint64_t end{0};
  std::uint64_t messages{0};
  std::uint64_t bytes{0};
};

struct tile_report {
  std::uint64_t finish{0};
  std::uint64_t messages{0};
  std::uint64_t bytes{0};
  std::uint32_t peak_blocks{0};
};

struct run_outcome {
  bool completed{false};  // every tile ran its program to the end
  bool verified{false};   // and every tile holds exactly what it should
  std::uint64_t cycles{0};
  std::vector<step_timing> steps;
  std::vector<tile_report> tiles;
  std::uint64_t data_messages{0};
  std::uint64_t control_messages{0};
  std::uint64_t dropped{0};
  std::uint64_t memory_bytes{0};
  std::string failure;  // one line naming the tile and block, when not verified
};

// Work bounds: tiles x steps, and tiles x steps x blocks per message.
inline constexpr std::uint64_t max_ops = 50'000'000;
inline constexpr std::uint64_t max_block_moves = 1'000'000'000;

// Throws input_error when the run would need more than opt.memory_limit or exceed the
// work bounds above.
run_outcome run_collective(const fw::collective_params& c, const run_options& opt);

}  // namespace tessera::ab
