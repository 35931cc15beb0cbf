// What a run kept for its timeline (run_result::trace()): the tiles' op spans, every
// message's transfer, the steps and the intervals each link was held. The run library
// records it; the pictures library (tessera/pictures/) draws it as a Perfetto trace, a
// timeline picture and a link heat map.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/harness/harness.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::run {

struct trace_data {
  bool available{false};  // the run's model keeps these (a traffic run does not)
  fabric f{};
  std::string title;           // the run in one line, for the trace's metadata
  std::string model;           // alphabeta, tlm or rtl
  double us_per_cycle{0.0};    // a machine's cycle; 0: none, the trace counts cycles
  std::uint64_t cycles{0};     // the run's end
  bool spans_recorded{false};  // native tiles: op and wait spans (ISS tiles have none)
  std::vector<harness::op_span> spans;
  std::vector<harness::transfer_record> transfers;
  std::vector<harness::step_timing> steps;
  std::vector<net::link_busy> links;  // the engines that model links one by one
};

}  // namespace tessera::run
