// Bokhari's link-usage chart semantics for circuit-switched fabrics
// (Bokhari91 §3-4):
//  - transfers go into unit-time slots; a path holds all its directed links for its slot;
//  - a tile sends its transfers in order, one at a time; an explicit idle op takes a slot;
//  - when paths conflict the lowest-numbered source gets the links; the others retry
//    in the next slot with the same transfer.
// The schedule takes `slots` slots: Bokhari's "highest number in the schedule".
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/analytic/transfers.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"

namespace tessera::analytic {

struct slot_schedule {
  std::uint32_t slots{0};
  std::vector<std::uint32_t> slot_of;             // per transfer, 1-based
  std::vector<std::uint32_t> transfers_per_slot;  // index slot - 1
  std::uint32_t delayed{0};                       // transfers that lost a conflict at least once
  // Smallest distance in slots between two uses of one directed link (0: no link is
  // used twice). Bokhari's stability (drift tolerance) is min_reuse_gap >= 2.
  std::uint32_t min_reuse_gap{0};
  link_id min_gap_link{};
};

slot_schedule schedule_slots(const fabric& f, const transfer_list& t);

}  // namespace tessera::analytic
