// Timeline traces of a run in the Chrome trace-event format, which the Perfetto UI
// (ui.perfetto.dev) and chrome://tracing open (docs/visualize.md). One track per tile
// holds its ops as spans, with what it waited for as spans inside them; every message
// is a flow arrow from its sender, where the network took it, to its receiver, where it
// was delivered; a track of its own holds the algorithm's steps.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "tessera/net/engine.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::run {

// What a run kept for its trace (run_result::trace()).
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

// A directed link's name by its port, as the engines' link reports name it: E, W, S,
// N on meshes and tori, +1 and -1 on rings, dim k on hypercubes.
std::string port_name(const fabric& f, std::uint32_t port);

// Which part to write: tiles (empty: all), and a window of cycles [from, to).
struct trace_filter {
  std::vector<bool> tiles;
  std::uint64_t from{0};
  std::uint64_t to{std::numeric_limits<std::uint64_t>::max()};
};

struct trace_counts {
  std::uint64_t spans{0};     // op and wait spans written
  std::uint64_t messages{0};  // messages written as flows
  std::uint64_t steps{0};
  std::uint64_t link_spans{0};  // intervals a link was held
};

// Writes the trace as one JSON object, event by event (a large run is never held as a
// JSON tree). A span, message or step is written when it overlaps the window; a span
// when its tile is kept, a message when its sender or receiver is.
trace_counts write_trace(std::ostream& os, const trace_data& d, const trace_filter& f);

}  // namespace tessera::run
