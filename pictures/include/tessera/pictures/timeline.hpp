// A run's timeline as one SVG picture (docs/visualize.md), for readers without a trace
// viewer and for the docs: the same trace_data as the JSON trace (trace.hpp), drawn as
// Paraver, Vampir and Perfetto draw a timeline. A row per tile holds its op spans,
// coloured by kind, with its waits as darker bands inside them; a line per message runs
// from its sender's row where the network took it to its receiver's where it was
// delivered; rows below hold the steps and the intervals each directed link was held.
#pragma once

#include <cstdint>
#include <ostream>

#include "tessera/pictures/trace.hpp"

namespace tessera::pictures {

// What the picture drew (the rest was left out, and the picture says so).
struct timeline_counts {
  std::uint64_t spans{0};       // op and wait spans drawn as rectangles of their own
  std::uint64_t messages{0};    // messages drawn, each on a line of its own or in an aggregate
  std::uint64_t arrows{0};      // message lines: one per message, or per aggregate
  std::uint64_t steps{0};       // step slices drawn as rectangles of their own
  std::uint64_t link_spans{0};  // link intervals drawn as rectangles of their own
};

// Limits that keep the file bounded for any run (a 512-tile run gives a picture of a
// few MB): rows and rectangles past them are left out, or narrow rectangles merged into
// hatched bars; past timeline_max_arrows messages, each line stands for the messages of
// a step between two blocks of rows; a note in the picture says what and how many.
inline constexpr std::uint32_t timeline_max_tile_rows = 256;
inline constexpr std::uint32_t timeline_max_link_rows = 256;
inline constexpr std::uint32_t timeline_max_step_lanes = 16;
inline constexpr std::uint64_t timeline_max_arrows = 500;
inline constexpr std::uint64_t timeline_max_bars = 50'000;

// Writes the run's timeline as one SVG document, self-contained (no script, no external
// resource). Uses the same trace_filter as write_trace (tiles kept, window [from, to) of
// cycles); the x axis is the window, in the trace's unit (microseconds when
// d.us_per_cycle > 0, else cycles). The root element declares the axis (data-x0,
// data-from-cycle, data-px-per-cycle, ...), and every rectangle and line its times, so
// a test or a script can read the picture back.
timeline_counts write_timeline_svg(std::ostream& os, const trace_data& d, const trace_filter& f);

}  // namespace tessera::pictures
