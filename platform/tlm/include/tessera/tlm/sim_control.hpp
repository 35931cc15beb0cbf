// How a platform run starts and stops SystemC, shared by every workload (collectives,
// schedules, patterns, traffic).
//
// The CLI's stdout carries one JSON object under --json, so SystemC's reports (which
// its default handler prints on stdout) go to stderr, and the info and deprecation
// chatter is dropped. A run stops once even when several tiles fail in the same
// instant (a second sc_stop is itself a warning). And the end of a run is told apart:
// finished, stopped by the cycle limit, or starved (nothing can happen any more: with
// work left, a deadlock).
#pragma once

#include <cstdint>
#include <string>

namespace tessera::tlm_models {

// Before elaboration: reports to stderr, info and deprecation messages off.
void route_systemc_reports();

// sc_stop() unless the run was already stopped.
void stop_once();

enum class run_end : std::uint8_t {
  stopped,      // sc_stop: the workload decided it is over (or a tile failed)
  starved,      // no process and no event left
  cycle_limit,  // events were still pending at max_cycles
};

struct sim_end {
  run_end how{run_end::starved};
  std::uint64_t cycle{0};  // the cycle the run ended at (max_cycles for cycle_limit)
};

// Before elaboration: refuses (input_error) a run of more SystemC threads than this
// machine can map. Each thread's stack is a mapping of its own with a guard page, two
// memory maps, and a process may hold at most vm.max_map_count of them (65530 by
// default): past it SystemC fails mid-elaboration. `what` names the threads
// ("tiles").
void check_thread_count(std::uint64_t threads, const char* what);

// sc_start until the run stops, starves or reaches max_cycles.
sim_end run_simulation(std::uint64_t max_cycles);

}  // namespace tessera::tlm_models
