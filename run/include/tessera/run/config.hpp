// What one run is asked to do, as every front end hands it to tessera::run::run()
// (tessera/run/run.hpp): the fabric, exactly one workload (a collective, a schedule, a
// pattern or synthetic traffic), the model and its parameters, the protocol and the
// faults. Front ends (the `tessera run` and `crosscheck` commands, a sweep, a test)
// read their inputs into it; files are read before, so the config holds data, and
// their names only for the report. run() checks what depends on the model (the
// machine, the switching, --param values, the payload sample) and throws input_error
// naming the offending value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/firmware/collective.hpp"
#include "tessera/harness/faults.hpp"
#include "tessera/harness/pattern.hpp"
#include "tessera/harness/schedule_run.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::run {

// What a run runs.
enum class workload_kind : std::uint8_t { collective, schedule, pattern, traffic };

// Synthetic traffic, BookSim-style (docs/tlm.md, "Synthetic traffic").
struct traffic_config {
  std::string pattern;                        // uniform, transpose, ..., randperm (tlm/traffic.hpp)
  std::optional<double> rate;                 // packets/tile/cycle, (0, 1]
  std::optional<std::uint32_t> packet_flits;  // flits a packet
  // (flits, weight) pairs: a packet-size distribution instead of packet_flits.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> packet_sizes;
  std::string injection;                // bernoulli (empty: the default) or on-off
  bool self_packets{false};             // a packet may go to its own source
  std::optional<double> burst_on;       // on-off: mean on period, cycles
  std::optional<double> burst_off;      // on-off: mean off period, cycles
  std::optional<std::uint64_t> cycles;  // injection ends
  std::optional<std::uint64_t> warmup;  // measurement starts (default cycles / 10)
  std::optional<std::uint64_t> seed;
  std::optional<std::uint32_t> hotspot;       // the hot tile
  std::optional<std::uint32_t> source_queue;  // packets a source may have in flight
};

// --algorithm auto: the estimates the algorithm was chosen by (tessera/run/choose.hpp).
struct algorithm_estimate {
  std::string algorithm;
  double cycles{0};
  // Other algorithms whose op streams are this one's, tile for tile (pex and pairwise on
  // a power-of-two mesh): one entry of the ranking stands for them all.
  std::vector<std::string> same_schedule;
};
struct algorithm_choice {
  std::string engine;                      // the timing engine the estimates are for
  std::vector<algorithm_estimate> ranked;  // fastest first: [0] chosen, [1] runner-up
};

struct run_config {
  workload_kind workload{workload_kind::collective};
  std::string fabric_spec;  // as given, for the report
  // The collective and its parameters; c.f is the fabric for every workload.
  fw::collective_params c;
  std::string algorithm;  // the collective's algorithm by name (the default's when not given)
  // "auto" above: run() chooses (tessera/run/choose.hpp) and says how here.
  std::optional<algorithm_choice> choice;
  // An edst broadcast's packets per tree (--packets); 0: the optimum of b(L, h, d).
  std::uint32_t packets{0};
  // Carry and verify this many bytes of every --bytes unit, charging the fabric for the
  // whole unit (platform models only).
  std::optional<std::uint64_t> payload_bytes;

  std::string schedule_name;  // --schedule FILE
  resolved_schedule schedule;
  std::string pattern_name;  // --pattern FILE
  std::vector<harness::pattern_transfer> pattern;
  traffic_config traffic;

  std::string model{"alphabeta"};  // tessera/models/registry.hpp
  // The tiles' processors on the platform models: "native" (the runtime compiled for the
  // host) or "cortex-m4" (the tile image on an ISS core per tile, docs/tiles.md), and the
  // image (empty: the one this build made).
  std::string tiles{"native"};
  std::string firmware;
  // The image declares its own contract (tessera/firmware/contract.hpp) and the run checks
  // it: no --collective; c gives the fabric, --bytes, --type and --op. contract_name is the
  // contract's, for the report (set by the run).
  bool own_contract{false};
  std::string contract_name;
  // cortex-m4: a GDB server on this tile's core, at 127.0.0.1:gdb_port (docs/tiles.md,
  // "Debugging a tile").
  std::optional<std::uint32_t> gdb_tile;
  std::uint16_t gdb_port{3333};
  std::optional<std::string> switching;
  std::optional<std::string> machine;
  std::vector<std::pair<std::string, std::string>> params;  // --param key=value, in order
  // Other models whose own parameter defaults (models::model_default) the run takes
  // besides its model's: a crosscheck gives each run the other model, so that both cut
  // messages into the same packets.
  std::vector<std::string> default_models;
  std::optional<std::vector<net::forwarding_entry>> routes;  // store-forward tables

  protocol proto{protocol::raw};
  bool prepost{false};
  bool send_ahead{false};
  std::vector<harness::fault_spec> faults;

  // Keep every message in the result (per_transfer); otherwise the report lists the
  // first 4096 (and a traffic run keeps none).
  bool all_transfers{false};
  // Record what every tile did (its ops and waits) for run_result::trace().
  bool trace{false};
};

}  // namespace tessera::run
