// The timeline picture's plan (timeline.cpp draws it): the x axis of cycles, a row per
// tile, lanes of steps, a row per directed link lane, and which narrow intervals merge so
// the picture stays within timeline_max_bars, all decided before anything is drawn.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/pictures/svg.hpp"
#include "tessera/pictures/timeline.hpp"
#include "tessera/pictures/trace.hpp"

namespace tessera::pictures::detail {

constexpr double page_width = 1200;
constexpr double margin = 20;
constexpr double label_width = 150;  // the rows' names, left of the plot
constexpr double plot_x = margin + label_width;
constexpr double plot_width = page_width - plot_x - margin;
constexpr double row_height = 16;
constexpr double bar_height = 12;
constexpr double bar_top = (row_height - bar_height) / 2;
constexpr double wait_inset = 3;  // a wait's band leaves this much of its op's bar showing
constexpr double section_gap = 22;
constexpr std::uint32_t no_row = 0xffffffffU;

std::string plural(std::uint64_t n, const char* one, const char* many);

// Times in data attributes, exact enough to compare with the JSON trace's.
inline std::string exact(double v) {
  return significant(v, 12);
}

inline std::string brief(double v) {
  return significant(v, 6);
}

// The x axis: cycles [from, to) across the plot, labelled in the trace's unit.
struct time_axis {
  std::uint64_t from{0};
  std::uint64_t to{1};
  double us_per_cycle{0};
  double k{1};  // pixels a cycle

  [[nodiscard]] bool micros() const { return us_per_cycle > 0; }
  [[nodiscard]] double unit(std::uint64_t c) const {
    return micros() ? static_cast<double>(c) * us_per_cycle : static_cast<double>(c);
  }
  [[nodiscard]] double x(std::uint64_t c) const {
    return plot_x + static_cast<double>(std::clamp(c, from, to) - from) * k;
  }
  [[nodiscard]] std::string when(std::uint64_t c) const {
    if (!micros()) return "cycle " + std::to_string(c);
    return brief(unit(c)) + " µs (cycle " + std::to_string(c) + ")";
  }
  [[nodiscard]] std::string interval(std::uint64_t a, std::uint64_t b) const {
    std::string s = micros() ? brief(unit(a)) + " to " + brief(unit(b)) + " µs"
                             : "cycles " + std::to_string(a) + " to " + std::to_string(b);
    s += ", " + (micros() ? brief(unit(b) - unit(a)) + " µs" : plural(b - a, "cycle", "cycles"));
    if (micros()) s += " (cycles " + std::to_string(a) + " to " + std::to_string(b) + ")";
    return s;
  }
};

// Lays out a lane of intervals in time order: each as a bar of its own, or, when
// narrower than min_px, merged with the narrow intervals around it into one bar (so
// a lane holds at most a bar per min_px of the plot, plus its wide intervals).
// many(first, count, end) gets lane[first, first + count) and the end of the last.
template <typename T, typename One, typename Many>
void lay_out(const std::vector<const T*>& lane, const time_axis& a, double min_px, One&& one,
             Many&& many) {
  std::size_t first = 0;
  std::size_t count = 0;
  std::uint64_t run_end = 0;
  auto flush = [&] {
    if (count == 1) one(*lane[first]);
    if (count > 1) many(first, count, run_end);
    count = 0;
  };
  for (std::size_t i = 0; i < lane.size(); ++i) {
    const T& t = *lane[i];
    if (a.x(t.end) - a.x(t.start) >= min_px) {
      flush();
      one(t);
      continue;
    }
    if (count > 0 && a.x(t.start) - a.x(run_end) > min_px) flush();
    if (count == 0) {
      first = i;
      run_end = t.end;
    }
    ++count;
    run_end = std::max(run_end, t.end);
  }
  flush();
}

struct tile_row {
  std::uint32_t tile{0};
  std::vector<const harness::op_span*> ops;  // op, prologue and drain spans, in time order
  std::vector<const harness::op_span*> waits;
};

struct link_row {
  std::string name;
  std::vector<const net::link_busy*> held;
};

// What the picture holds, row by row, before any of it is drawn.
struct plan {
  time_axis axis;
  std::vector<std::uint32_t> row_of;  // a tile's row, or no_row
  std::vector<tile_row> tiles;
  std::uint64_t tiles_kept{0};
  std::uint64_t spans_without_row{0};
  std::vector<std::vector<const harness::step_timing*>> step_lanes;
  std::uint64_t steps_left_out{0};
  std::vector<link_row> links;
  std::uint64_t link_rows_left_out{0};
  std::uint64_t link_spans_left_out{0};
};

plan make_plan(const trace_data& d, const trace_filter& f);

// How many rectangles the plan takes when intervals narrower than min_px are merged.
struct bar_tally {
  std::uint64_t bars{0};
  std::uint64_t merged{0};         // merged bars
  std::uint64_t merged_in{0};      // intervals in them
  std::uint64_t waits_dropped{0};  // narrower than min_px: not drawn
};

bar_tally tally_bars(const plan& p, double min_px);

// The smallest width below which intervals are merged that keeps the picture within
// timeline_max_bars: 0 (none merged) for all but the largest runs.
double merge_width(const plan& p);

// Tick marks in the trace's unit: 1, 2 or 5 times a power of ten, about eight of them.
std::vector<double> ticks(const time_axis& a);

// Where the tick at v (in the trace's unit) is drawn.
double tick_x(const time_axis& a, double v);

}  // namespace tessera::pictures::detail
