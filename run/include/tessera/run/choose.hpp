// --algorithm auto: the algorithm of a collective chosen for the fabric, the size and
// the model from estimates, before the run (docs/algorithms.md, "Choosing an
// algorithm"). Complete exchange only: its algorithms are schedules the estimate of
// tessera/models/estimate.hpp can time on the run's engine with its parameters
// (the machine preset's, --param's), without simulating them.
#pragma once

#include "tessera/models/registry.hpp"
#include "tessera/run/config.hpp"

namespace tessera::run {

// The engine and parameters a run of the config times its messages with: the
// platform's (--switching, --machine, --param) for tlm and rtl, the ideal network of
// the alpha-beta model otherwise. Throws input_error as run() would.
struct timing {
  models::switching sw{models::switching::ideal};
  models::engine_params params;
};
timing timing_of(const run_config& config);

// Every alltoall algorithm the fabric supports (with --pair-sync, those with
// exchanges), estimated and ranked. Throws input_error when the collective is not
// alltoall or none applies.
algorithm_choice choose_algorithm(const run_config& config);

}  // namespace tessera::run
