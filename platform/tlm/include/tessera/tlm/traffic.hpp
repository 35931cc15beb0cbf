// Synthetic traffic on the TLM platform, measured the way BookSim2 measures it: each
// tile creates packets at `rate` packets per cycle, by a Bernoulli process (sampled as
// geometric gaps) or a bursty on-off one, addressed by a traffic pattern, of a fixed
// size or sizes drawn from a distribution; a packet's latency runs from the
// cycle it is created (it may wait in its source queue) to the cycle its tail
// arrives. Packets created in [warmup, cycles) are measured; after `cycles` no new
// packets are made and the run drains until every measured packet has arrived (or
// the drain limit is hit: the offered load is above saturation). Accepted throughput
// counts packets and flits that arrive during the measurement window.
//
// Every packet carries (source, sequence number); the sinks check that each arrives
// exactly once, at the tile it was sent to.
//
// Statistics are streamed: the run keeps a record only for packets in flight, plus
// counts, sums and a latency histogram, so its memory does not grow with `cycles`. A
// source holds at most `source_queue` packets in flight (created and not yet arrived:
// waiting at its NIC or in the fabric); a packet it creates while that many are out is
// not injected, only counted, so past saturation the queues, and memory, stay bounded.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/latency_histogram.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/tlm/platform.hpp"

namespace tessera::tlm_models {

// One packet that arrived where it was sent, for observers (tests, traces).
struct packet_arrival {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::uint32_t seq{0};  // the source's sequence number
  std::uint64_t created{0};
  std::uint64_t arrived{0};  // cycle its tail arrived
};

enum class traffic_kind : std::uint8_t {
  uniform,
  transpose,
  bitcomp,
  bitrev,
  hotspot,
  neighbor,
  tornado,
  shuffle,
  randperm
};

// How a source spaces its packets (Dally and Towles §24.2; BookSim2's injection_process):
//   bernoulli  a packet in each cycle with probability rate;
//   on_off     a two-state Markov source: it switches off -> on with probability
//              1 / burst_off a cycle and on -> off with 1 / burst_on (mean periods of
//              burst_off and burst_on cycles); while on it makes a packet with
//              probability rate x (burst_on + burst_off) / burst_on, so its mean rate is
//              `rate`. Each source starts on with probability burst_on / (on + off).
enum class injection_kind : std::uint8_t { bernoulli, on_off };

// A packet size and its weight in the distribution.
struct packet_size {
  std::uint32_t flits{8};
  std::uint32_t weight{1};
};

const char* traffic_name(traffic_kind k);
bool parse_traffic(std::string_view s, traffic_kind& out);
// The patterns' names in order, for a refusal's list.
std::string traffic_names();
const char* injection_name(injection_kind k);
bool parse_injection(std::string_view s, injection_kind& out);

struct traffic_options {
  traffic_kind kind{traffic_kind::uniform};
  double rate{0.01};              // packets per tile per cycle, 0 < rate <= 1
  std::uint32_t packet_flits{8};  // every packet's size, unless packet_sizes is given
  // A packet-size distribution (flits with integer weights; BookSim2's packet_size and
  // packet_size_rate): each packet draws its size, so the rate stays in packets. Empty:
  // every packet has packet_flits.
  std::vector<packet_size> packet_sizes{};
  injection_kind injection{injection_kind::bernoulli};
  double burst_on{10};          // on_off: mean cycles a source stays on, >= 1
  double burst_off{10};         // on_off: mean cycles it stays off, >= 1
  std::uint32_t flit_bytes{4};  // bytes per flit on the wire
  // A packet may go to its own source, through the tile's router (injection, the router,
  // ejection), as in BookSim2: uniform and hotspot draw from every tile, and a tile a
  // pattern maps onto itself sends to itself. Off (the default): uniform draws from the
  // other tiles, and such a tile sends nothing.
  bool self_packets{false};
  std::uint64_t cycles{10000};  // injection stops here
  std::uint64_t warmup{1000};   // packets created before this are not measured
  std::uint64_t seed{1};
  std::uint32_t hotspot{0};        // the hot tile of `hotspot`
  double hot_fraction{0.25};       // share of packets sent to it
  std::uint64_t drain_factor{10};  // drain for at most drain_factor * cycles more
  std::uint32_t source_queue{64};  // packets a source may have in flight, 1..65536
  // Called for every packet that arrives exactly once where it was sent (measured or
  // not); the run itself keeps no per-packet record. Empty: nothing is called.
  std::function<void(const packet_arrival&)> on_arrival{};
  // Keep every packet's transfer record (start and delivery cycle) in the outcome, for
  // crosscheck; memory then grows with the packets.
  bool keep_transfers{false};
};

// Packets a run may be expected to create (rate * tiles * cycles). Memory does not
// depend on it; it bounds a run's time (an 8x8 wormhole mesh simulates about 300000
// packets a second, so a billion take about an hour). It also keeps every source far
// below 2^32 packets, the range of a packet's sequence number.
inline constexpr double max_expected_packets = 1e9;
// Packets all sources together may have in flight (tiles x source_queue): each costs a
// few hundred bytes at its NIC and in the engine, so this keeps a run within a few GB.
inline constexpr std::uint64_t max_packets_in_flight = std::uint64_t{1} << 23;

// Throws input_error when the pattern does not fit the fabric (transpose needs a
// square mesh or torus, bitcomp, bitrev and shuffle a power-of-two tile count, tornado
// a mesh, torus or ring), an option is out of range or the run would take too long
// (max_expected_packets).
void validate(const fabric& f, const traffic_options& t);

// The permutation of randperm: tile i sends to perm[i], drawn from `seed` alone (Fisher
// and Yates on raw mt19937_64 draws), so every run with that seed uses the same one.
std::vector<std::uint32_t> random_permutation(std::uint32_t tiles, std::uint64_t seed);

// The destination of a packet from `src`, or src itself when the pattern maps the
// tile onto itself (it then injects nothing: transpose's diagonal, for one). `perm` is
// randperm's permutation (random_permutation), unused by the other patterns.
std::uint32_t traffic_destination(const fabric& f, const traffic_options& t, std::uint32_t src,
                                  std::mt19937_64& rng,
                                  const std::vector<std::uint32_t>& perm = {});

// The mean packet size in flits: packet_flits, or the distribution's weighted mean.
double mean_packet_flits(const traffic_options& t);

struct traffic_outcome {
  std::uint64_t created{0};  // injected (not_injected apart)
  // Packets a source created while its queue was full (source_queue in flight), in all
  // and in the measurement window: not injected, not measured, but offered.
  std::uint64_t not_injected{0};
  std::uint64_t not_injected_measured{0};
  std::uint64_t delivered{0};
  std::uint64_t measured{0};  // created in the window
  std::uint64_t measured_delivered{0};
  double avg_latency{0};  // measured packets, cycles
  std::uint64_t min_latency{0};
  std::uint64_t max_latency{0};
  // Nearest-rank percentiles of the measured packets' latencies, read from
  // latency_histogram: exact below 1024 cycles, above at most 0.2 % high (never low).
  std::uint64_t p50_latency{0};
  std::uint64_t p90_latency{0};
  std::uint64_t p99_latency{0};
  // The measured packets that arrived; bins() for a report.
  net::latency_histogram latency_histogram{};
  double offered{0};           // packets per tile per cycle created in the window, injected or not
  double accepted_packets{0};  // per tile per cycle, arrivals in the window
  double accepted_flits{0};
  std::uint64_t end{0};  // cycle the run stopped
  bool drained{false};   // every measured packet arrived
  bool verified{false};  // each packet arrived exactly once, where sent
  std::string failure;
  std::vector<harness::transfer_record> transfers;  // with keep_transfers
  std::vector<net::link_stat> links;
  net::contention_stat contention{};
  net::energy_counts energy;  // the events that cost energy (net/energy.hpp)
};

traffic_outcome run_traffic(const fabric& f, const traffic_options& t, const platform_options& o);

}  // namespace tessera::tlm_models
