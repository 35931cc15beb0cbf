// Timeline traces of a run in the Chrome trace-event format, which the Perfetto UI
// (ui.perfetto.dev) and chrome://tracing open (docs/visualize.md). One track per tile
// holds its ops as spans, with what it waited for as spans inside them; every message
// is a flow arrow from its sender, where the network took it, to its receiver, where it
// was delivered; a track of its own holds the algorithm's steps.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <vector>

#include "tessera/run/trace.hpp"

namespace tessera::pictures {

using run::trace_data;

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

}  // namespace tessera::pictures
