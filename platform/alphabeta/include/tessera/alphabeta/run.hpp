// Runs a collective for real on the alpha-beta network: every tile executes the
// firmware's op stream with the tile runtime, data moves through ab_nic, and every
// tile's final holdings are checked byte by byte against payload.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/alphabeta/network.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/harness/faults.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/harness/schedule_run.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::ab {

struct run_options {
  params prm{};
  protocol proto{protocol::raw};
  std::uint64_t unforced_threshold{100};
  bool prepost{false};     // post every receive, then a global barrier (Bokhari §5)
  bool send_ahead{false};  // post the next op's send early (executor_config)
  bool trace_ops{false};   // record the tiles' op spans (run_outcome::ops)
  // Memory all tiles together may use (blocks, buffers); above it the run is refused.
  std::uint64_t memory_limit{std::uint64_t{4} << 30};
  // A run still going at this cycle stops there (a timeout, not a deadlock).
  std::uint64_t max_cycles{std::uint64_t{1} << 50};
  // Faults to inject (docs/faults.md), and the reliable protocol's retransmission
  // timer (executor_config; from the message's lone time when left at 0).
  std::vector<harness::fault_spec> faults;
  std::uint32_t max_retries{10};
  // When set, receives every delivered message (start, delivery) in delivery order.
  std::vector<harness::transfer_record>* transfers{nullptr};
};

using harness::run_outcome;
using harness::step_timing;
using harness::tile_report;

// Throws input_error when the run would need more than opt.memory_limit or exceed the
// work bounds above.
run_outcome run_collective(const fw::collective_params& c, const run_options& opt);

// A schedule file's op streams (harness/schedule_run.hpp), every block checked.
run_outcome run_schedule(const fabric& f, const resolved_schedule& s, const run_options& opt);

}  // namespace tessera::ab
