// Symbolic execution of a schedule: moves block ids, not data, and proves that every
// block reaches every tile that wants it exactly once, or says what went wrong.
//
// Semantics (docs/schedule-format.md):
//  - A tile runs its ops in order. The send half of an op is posted when the op
//    starts and is buffered in the (sender, receiver) channel, which is FIFO.
//  - The receive half of an op completes when a message from `from` is at the head
//    of that channel; the op completes when its receive half does.
//  - barrier: completes when every tile has reached the same barrier.
//  - pair_sync: the k-th pair_sync of a with b completes together with the k-th of b with a.
//  - idle and shuffle complete at once.
//  - A sent block is copied: the sender keeps it.
// A deadlock is a state where some tiles still have ops and none can progress.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/schedule/schedule.hpp"

namespace tessera {

struct stuck_tile {
  std::uint32_t tile;
  std::uint32_t op_index;
  std::string waits_for;  // human-readable, e.g. "recv from tile 2 (step 3)"
};

struct check_result {
  bool completed{false};             // every tile ran all its ops (no deadlock)
  bool delivers_all_blocks{false};   // completed, and every wanted block arrived exactly once
  std::uint64_t messages{0};         // messages delivered
  std::uint64_t block_receipts{0};   // block ids received, over all tiles
  std::vector<stuck_tile> deadlock;  // tiles that cannot progress
  std::string deadlock_cycle;        // "0 -> 1 -> 0" when a recv wait cycle exists
  std::vector<std::string> errors;   // first errors found (data, matching, deadlock)
  std::uint64_t error_count{0};

  [[nodiscard]] bool ok() const { return completed && delivers_all_blocks && error_count == 0; }
};

// At most max_errors messages are kept; the count covers them all.
check_result check_schedule(const schedule& s, std::size_t max_errors = 20);

}  // namespace tessera
