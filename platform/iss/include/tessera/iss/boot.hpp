// The host's side of the boot block (tessera/runtime/tile_abi.hpp): what the platform
// writes into a tile's RAM before the core starts, and what it reads back when the tile
// has finished: its state, its fault, what it waited for, and the blocks it holds, whose
// bytes are then checked against the collective's payload like a native tile's.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/contract.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/tile_abi.hpp"

namespace tessera::iss {

// Writes tile t's boot block at ram[0]: the fabric and collective of c, the executor
// settings of cfg, and the memory plan of t's program (from a walk of it on the host).
// With trace_ops the tile sends op_mark at each op it takes up (the timeline's op spans).
// With `own` (an image's own contract) the plan is the contract's (fw::plan_of).
void write_boot(std::span<std::byte> ram, const fw::collective_params& c,
                const executor_config& cfg, std::uint32_t t, bool trace_ops = false,
                const fw::contract_layout* own = nullptr);

struct tile_result {
  tile_abi::tile_state_code state{tile_abi::tile_state_code::running};
  tile_fault fault{};
  tile_wait wait{};
  std::uint64_t messages{0};
  std::uint64_t bytes{0};
  std::uint32_t arena_used{0};
  std::uint32_t arena_size{0};
  std::vector<tile_abi::block_report> blocks;
  std::string problem;  // the block table is malformed: what is wrong with it
};

tile_result read_result(std::span<const std::byte> ram);
// Where the tile's program was when it last went idle (the boot block's op_* and wait_*
// words), for the timeline's op spans.
harness::tile_snapshot read_progress(std::span<const std::byte> ram);

// The blocks a finished tile reports, copied from its RAM into a host store (which
// fw::verify_tile checks); empty when every report lies in RAM and matches its own check,
// else the first problem, naming the tile and the block.
class reported_blocks {
 public:
  std::string load(std::uint32_t tile, const tile_result& r, std::span<const std::byte> ram,
                   std::uint32_t slot);
  [[nodiscard]] block_store& store() { return store_; }

 private:
  std::vector<std::byte> arena_;
  std::vector<block_store::entry> entries_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> hash_;
  block_store store_;
};

}  // namespace tessera::iss
