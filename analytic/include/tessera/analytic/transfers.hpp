// The transfers of a schedule: one per send half, in each tile's op order.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/schedule/schedule.hpp"

namespace tessera::analytic {

struct transfer {
  std::uint32_t src;
  std::uint32_t dst;
  std::uint32_t step;      // the algorithm's round
  std::uint32_t op_index;  // in the source tile's stream
  std::uint64_t bytes;
  bool exchange;  // half of a pairwise exchange (Thakur's beta_ex) or not (beta_sr)
};

// What a tile does in one unit-time slot of the circuit-switched chart.
struct slot_item {
  static constexpr std::uint32_t idle = 0xffffffffU;
  std::uint32_t transfer;  // index into the transfer list, or idle
};

struct transfer_list {
  std::vector<transfer> all;                  // grouped by source tile, in op order
  std::vector<std::vector<slot_item>> items;  // per tile: transfers and explicit idles
  std::uint32_t rounds{0};                    // largest step number
};

transfer_list extract_transfers(const schedule& s);

}  // namespace tessera::analytic
