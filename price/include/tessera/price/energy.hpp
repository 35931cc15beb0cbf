// A run's energy (docs/ppa.md, "Energy"): the events its model counted (net/energy.hpp)
// times the coefficients of its preset and --param overrides (models/energy.hpp), and
// the routers' static power over the run's time.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tessera/models/energy.hpp"
#include "tessera/net/energy.hpp"

namespace tessera::price {

// Picojoules one event of each kind costs in this run: the data events' fJ per byte
// times the bytes of the run's unit (a flit's, an element's, or 1).
std::array<double, net::energy_event_kinds> event_pj(const net::energy_counts& c,
                                                     const models::energy_params& p);

struct energy_total {
  double dynamic_pj{0};
  double static_pj{0};
  double total_pj{0};
  std::uint64_t bytes{0};  // delivered: units ejected x bytes a unit
};
energy_total total_energy(const net::energy_counts& c, const models::energy_params& p,
                          std::uint64_t cycles);

// The run JSON's "energy" object: preset, unit, events, coefficients_pj, dynamic_pj,
// static_pj, total_pj, pj_per_byte, per router (all its events and its static energy)
// and per link (its hops: each unit's traversal, its read and switching at the sender
// and its write at the receiver, and the heads' grants or set-ups at the sender; the
// links' figures overlap the routers', which hold every event).
nlohmann::ordered_json energy_json(const net::energy_counts& c, const models::energy_params& p,
                                   std::uint64_t cycles);
// The text report's line: "energy      1.234 nJ (dynamic ..., static ...; 0.15 pJ/byte,
// floonoc-12nm)".
std::string energy_text(const net::energy_counts& c, const models::energy_params& p,
                        std::uint64_t cycles);

}  // namespace tessera::price
