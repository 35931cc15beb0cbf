// What a schedule moves, decided once for `analyze` and `run` alike
// (docs/schedule-format.md, "Checker semantics"): every message's block ids, every
// block's size, where each block starts and where it must end, and so the bytes a run
// checks.
//
// Blocks. A schedule names blocks only when it wants to; every message is made to carry
// blocks: a send without a block list gets a synthetic block of its size (ids from
// first_synthetic up), and a receive without one expects what the matching send carries
// (the k-th receive at d from s gets s's k-th message to d). A receive no send matches
// keeps its own list (or none): it waits forever, a deadlock for the checker and the run.
//
// Sizes are carried from the ops, and a block has one size. A send listing n blocks
// declares bytes / n for each (block_bytes when the schedule gives it; the reader checks
// that they agree). A send of a block by a tile that has not received it sets the
// block's size; every other send must declare the same: a relay that truncates or pads a
// block, or one block sent at two sizes, is refused (input_error naming the op,
// ops[t][k], and both sizes). A message is then timed and checked at its declared size.
//
// Blocks start where the delivery contract says, or, without one, at the tile that
// sends them before it ever receives them. Contract blocks must end where the contract
// wants them; every other block at the tiles that received it and still hold it. A
// block a combine changes is checked for presence and length, not bytes.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tessera/schedule/schedule.hpp"

namespace tessera {

struct resolved_schedule {
  schedule sched;  // every data op has its block ids
  std::uint32_t first_synthetic{0};
  std::unordered_map<std::uint32_t, std::uint32_t> length;  // block id -> bytes
  std::vector<std::vector<std::uint32_t>> initial;          // per tile
  std::vector<std::vector<std::uint32_t>> wanted;           // per tile
  std::unordered_set<std::uint32_t> combined;               // contents change
  std::uint32_t slot{1};                                    // the longest block
  // The data bytes a run compares at the end: every wanted block's, but a combined
  // block's (checked by length). 0: there is nothing to verify (verdict.hpp).
  std::uint64_t bytes_checked{0};
};

// Throws input_error when block sizes clash or a block is larger than 1 GiB.
resolved_schedule resolve_schedule(const schedule& s);

}  // namespace tessera
