// The TLM platform: one SC_THREAD tile per fabric node running the tile runtime's
// executor over its tlm_nic, all NICs bound to one fabric_module that drives the
// chosen timing engine. SystemC elaborates once per process, so a process runs one
// platform (the CLI does; tests run one case per process).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/firmware/collective.hpp"
#include "tessera/harness/faults.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/harness/schedule_run.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/net/alphabeta_engine.hpp"
#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::tlm_models {

// The switching modes and every engine's parameters are the registry's
// (tessera/models/registry.hpp).
using models::switching;

// The engine parameters (ideal, circuit, torus, wormhole, unforced_threshold,
// max_cycles, max_retries) come from the registry's engine_params.
struct platform_options : models::engine_params {
  switching sw{switching::ideal};
  std::vector<net::forwarding_entry> forwarding;  // store-forward: explicit routes
  protocol proto{protocol::raw};
  bool prepost{false};
  bool send_ahead{false};  // implied by circuit.presetup (the NIC needs the next message)
  bool trace_ops{false};   // record the tiles' op spans (run_outcome::ops)
  // Every data byte a tile sends is charged as wire_scale bytes on the fabric: a run
  // can carry (and verify) a sample of each block while timing the full size, for
  // runs whose real data would not fit in memory. 1: what is carried is what is timed.
  std::uint64_t wire_scale{1};
  std::uint64_t memory_limit{std::uint64_t{4} << 30};
  std::vector<harness::fault_spec> faults;  // docs/faults.md
  // The model behind the fabric (the registry's row: tlm, rtl): the platform asks the
  // registry for its engine (models::make_engine). nullptr: the registry's default
  // platform model, each engine's own factory.
  const models::model_info* model{nullptr};
  [[nodiscard]] std::string_view model_name() const {
    return (model != nullptr ? *model : models::default_model(models::model_kind::platform)).name;
  }
};

// Gives the fault injector the links a message crosses where they are not the fabric's
// dimension order with columns first: the store-and-forward engine's forwarding tables,
// the wormhole's routing=yx (docs/faults.md, "Which messages").
void set_fault_routes(harness::fault_injector& faults, const net::engine& engine,
                      const platform_options& o, const fabric& f);

// What a tile's processor did, for tiles that model one (--tiles cortex-m4).
struct tile_cpu {
  std::uint64_t instructions{0};        // retired by its program (from its start to its end)
  std::uint64_t setup_instructions{0};  // before (its initial data) and after (its report)
  std::uint64_t compute_cycles{0};      // fabric cycles the instructions took
  std::uint64_t wait_cycles{0};         // fabric cycles idle (wfi) waiting for the NIC
  // Instructions (both kinds) past which the run stops as a timeout; 0: no budget.
  std::uint64_t instruction_budget{0};
};

struct platform_outcome {
  harness::run_outcome run;
  std::vector<harness::transfer_record> transfers;
  std::vector<net::link_stat> links;
  net::contention_stat contention{};
  net::energy_counts energy;         // the events that cost energy (net/energy.hpp)
  std::vector<tile_cpu> cpu;         // per tile; empty for native tiles
  std::vector<net::link_busy> busy;  // with trace_ops: every interval a link was held
};

// The registry's engine for o.sw, with the forwarding tables; throws input_error for a
// switching the fabric cannot have and for parameters out of range.
std::unique_ptr<net::engine> make_engine(const fabric& f, const platform_options& o);

// Cycles one m-byte message takes over one hop with nothing else on the fabric (the
// engine's zero-load formula): the length of the stable algorithm's idle slot
// (Bokhari §5).
std::uint64_t one_hop_cycles(const platform_options& o, std::uint64_t bytes);

// Runs the collective; every tile's data is verified as in harness::harness.
platform_outcome run_collective(const fw::collective_params& c, const platform_options& o);

// A schedule file's op streams on the platform, every block checked.
platform_outcome run_schedule(const fabric& f, const resolved_schedule& s,
                              const platform_options& o);

}  // namespace tessera::tlm_models
