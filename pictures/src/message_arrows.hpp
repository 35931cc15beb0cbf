// The message lines of a timeline picture (timeline.cpp): one arrow per message while
// there are few enough to read, and past that, aggregate arrows, each standing for the
// data messages of one step (or a run of steps) from one block of consecutive tile rows
// to another, or the control messages started in one slice of the run, so every message
// is still drawn, in exactly one arrow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/harness/harness.hpp"

namespace tessera::pictures::detail {

struct message_arrow {
  std::vector<const harness::transfer_record*> messages;  // one, or the aggregate's, in order
  bool data{true};
  std::uint32_t src_block{0};  // row / block_rows of the senders
  std::uint32_t dst_block{0};
  std::uint64_t first_step{0};  // data: the steps its messages belong to
  std::uint64_t last_step{0};
  std::uint64_t start{0};  // the first message's start, the last one's delivery
  std::uint64_t end{0};
};

struct arrow_plan {
  std::vector<message_arrow> arrows;
  bool aggregated{false};
  std::uint32_t block_rows{1};  // tile rows per block (aggregated)
  std::uint64_t step_group{1};  // steps (control: slices of the run) per arrow
};

// The arrows for these messages (each with both ends on a row: row_of[tile] < rows).
// At most max_arrows messages: one arrow each. Beyond, the smallest aggregation that
// brings the arrows within max_arrows: a block of 1, 2, 4, ... rows, then a run of 2,
// 4, ... steps (or 64ths of the run).
arrow_plan plan_arrows(const std::vector<const harness::transfer_record*>& messages,
                       const std::vector<std::uint32_t>& row_of, std::uint32_t rows,
                       std::uint64_t max_arrows);

// "0-7,9": tile numbers in increasing order, runs as ranges.
std::string tile_ranges(const std::vector<std::uint32_t>& tiles);

// "8 data messages from tiles 0-7 to tiles 8-15, step 3" (src and dst: tile_ranges).
std::string aggregate_name(const message_arrow& m, const std::string& src, const std::string& dst);

}  // namespace tessera::pictures::detail
