#pragma once

// tb_torus --compare 1: the scenario's messages (post cycles, sizes, packets, tree
// tables) through the TLM engine net::torus_engine with buffers = Buffers; every packet's
// arrival cycle at every tile must equal the RTL's.
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "torus_scenarios.hpp"

namespace tessera::tb::torus {

// Compares the engine's arrivals with the RTL run's (`rtl`, every packet at every tile;
// `posted`: its messages, reactive ones included) and prints the agreement. Returns
// exit_pass when they are identical and `ok` (the RTL run's own checks) holds.
int compare_with_engine(const scenario& sc, const options& o, const tessera::fabric& f,
                        const std::vector<plan_msg>& posted,
                        const std::map<arrival_key, std::uint64_t>& rtl, std::string_view size,
                        bool ok);

}  // namespace tessera::tb::torus
