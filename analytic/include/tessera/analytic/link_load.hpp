// Static link loads of a schedule's rounds on wormhole and store-and-forward
// fabrics: for each round, the exact largest number of messages that share one
// directed link when all of the round's messages are in flight together
// (Thakur's f(i), Thakur93 §2-3).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/analytic/transfers.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/ids.hpp"

namespace tessera::analytic {

struct round_load {
  std::uint32_t step{0};
  std::uint32_t transfers{0};
  std::uint32_t max_link_load{0};
  link_id hottest{};           // a directed link carrying max_link_load messages
  std::uint64_t max_bytes{0};  // largest message of the round
  std::uint32_t max_hops{0};   // longest route of the round
  bool all_exchange{true};     // every transfer is half of a pairwise exchange
};

// One entry per round 1..rounds (rounds without transfers have zero load).
std::vector<round_load> round_loads(const fabric& f, const transfer_list& t);

}  // namespace tessera::analytic
