// Synthetic traffic on the TLM platform, measured the way BookSim2 measures it: each
// tile creates packets by a Bernoulli process of `rate` packets per cycle (sampled as
// geometric gaps), addressed by a traffic pattern; a packet's latency runs from the
// cycle it is created (it may wait in its source queue) to the cycle its tail
// arrives. Packets created in [warmup, cycles) are measured; after `cycles` no new
// packets are made and the run drains until every measured packet has arrived (or
// the drain limit is hit: the offered load is above saturation). Accepted throughput
// counts packets and flits that arrive during the measurement window.
//
// Every packet carries (source, sequence number); the sinks check that each arrives
// exactly once, at the tile it was sent to.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/net/engine.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/tlm/platform.hpp"

namespace tessera::tlm_models {

enum class traffic_kind : std::uint8_t { uniform, transpose, bitcomp, bitrev, hotspot, neighbor };

const char* traffic_name(traffic_kind k);
bool parse_traffic(std::string_view s, traffic_kind& out);

struct traffic_options {
  traffic_kind kind{traffic_kind::uniform};
  double rate{0.01};  // packets per tile per cycle, 0 < rate <= 1
  std::uint32_t packet_flits{8};
  std::uint32_t flit_bytes{4};  // bytes per flit on the wire
  std::uint64_t cycles{10000};  // injection stops here
  std::uint64_t warmup{1000};   // packets created before this are not measured
  std::uint64_t seed{1};
  std::uint32_t hotspot{0};        // the hot tile of `hotspot`
  double hot_fraction{0.25};       // share of packets sent to it
  std::uint64_t drain_factor{10};  // drain for at most drain_factor * cycles more
};

// Throws input_error when the pattern does not fit the fabric (transpose needs a
// square mesh or torus, bitcomp and bitrev a power-of-two tile count) or an option
// is out of range.
void validate(const fabric& f, const traffic_options& t);

// The destination of a packet from `src`, or src itself when the pattern maps the
// tile onto itself (it then injects nothing: transpose's diagonal, for one).
std::uint32_t traffic_destination(const fabric& f, const traffic_options& t, std::uint32_t src,
                                  std::mt19937_64& rng);

struct traffic_outcome {
  std::uint64_t created{0};
  std::uint64_t delivered{0};
  std::uint64_t measured{0};  // created in the window
  std::uint64_t measured_delivered{0};
  double avg_latency{0};  // measured packets, cycles
  std::uint64_t min_latency{0};
  std::uint64_t max_latency{0};
  double offered{0};           // packets per tile per cycle actually created
  double accepted_packets{0};  // per tile per cycle, arrivals in the window
  double accepted_flits{0};
  std::uint64_t end{0};  // cycle the run stopped
  bool drained{false};   // every measured packet arrived
  bool verified{false};  // each packet arrived exactly once, where sent
  std::string failure;
  std::vector<net::link_stat> links;
  net::contention_stat contention{};
};

traffic_outcome run_traffic(const fabric& f, const traffic_options& t, const platform_options& o);

}  // namespace tessera::tlm_models
