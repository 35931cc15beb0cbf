#include "tessera/pictures/timeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "message_arrows.hpp"
#include "tessera/common/input.hpp"
#include "trace_parts.hpp"

namespace tessera::pictures {
namespace {

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

// The op kinds' colours: Tableau 10, a categorical palette whose colours stay apart.
enum class look : std::uint8_t { exchange, sendrecv, send, recv, idle, sync, compute, drain };
struct look_style {
  const char* name;  // the rectangle's second class
  const char* fill;
  const char* legend;
};
constexpr std::array<look_style, 8> looks{{{"exchange", "#4e79a7", "exchange"},
                                           {"sendrecv", "#76b7b2", "sendrecv"},
                                           {"send", "#59a14f", "send"},
                                           {"recv", "#edc948", "recv"},
                                           {"idle", "#bab0ac", "idle"},
                                           {"sync", "#b07aa1", "barrier, pair_sync, prologue"},
                                           {"compute", "#f28e2b", "shuffle, combine"},
                                           {"drain", "#9c755f", "drain"}}};
constexpr const char* wait_fill = "#1a1a1a";  // at wait_opacity over its op: a darker band
constexpr const char* wait_opacity = "0.45";
constexpr const char* data_stroke = "#222222";
constexpr const char* control_stroke = "#9a9a9a";
constexpr const char* link_fill = "#8c8cc8";
constexpr std::array<const char*, 2> step_fills{"#9ecae1", "#6baed6"};  // odd, even steps

look look_of(const harness::op_span& s) {
  using what = harness::op_span::what;
  if (s.is == what::prologue) return look::sync;
  if (s.is == what::drain) return look::drain;
  switch (s.kind) {
    case op_kind::exchange:
      return look::exchange;
    case op_kind::sendrecv:
      return look::sendrecv;
    case op_kind::send:
      return look::send;
    case op_kind::recv:
      return look::recv;
    case op_kind::idle:
      return look::idle;
    case op_kind::barrier:
    case op_kind::pair_sync:
      return look::sync;
    case op_kind::shuffle:
    case op_kind::combine:
      return look::compute;
  }
  return look::idle;
}

std::string formatted(const char* format, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Pixels, to a hundredth (the files stay small; a reader finds each time to 0.01 px).
std::string px(double v) {
  std::string s = formatted("%.2f", v);
  while (s.back() == '0')
    s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// Times in data attributes, exact enough to compare with the JSON trace's.
std::string exact(double v) {
  return formatted("%.12g", v);
}

std::string brief(double v) {
  return formatted("%.6g", v);
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
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
  // The times of a rectangle or line, for a reader of the file.
  [[nodiscard]] std::string data_times(std::uint64_t a, std::uint64_t b) const {
    return " data-start=\"" + exact(unit(a)) + "\" data-end=\"" + exact(unit(b)) + "\"";
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

plan make_plan(const trace_data& d, const trace_filter& f) {
  plan p;
  // The window: to the filter's end, else to the run's end (or the last thing drawn,
  // for a run that stopped early).
  p.axis.from = f.from;
  std::uint64_t end = d.cycles;
  if (f.to == trace_filter{}.to) {
    for (const harness::op_span& s : d.spans)
      end = std::max(end, s.end);
    for (const harness::transfer_record& t : d.transfers)
      end = std::max(end, t.end);
    for (const harness::step_timing& s : d.steps)
      end = std::max(end, s.end);
    for (const net::link_busy& b : d.links)
      end = std::max<std::uint64_t>(end, b.end);
  } else {
    end = f.to;
  }
  p.axis.to = std::max(end, f.from + 1);
  p.axis.us_per_cycle = d.us_per_cycle;
  p.axis.k = plot_width / static_cast<double>(p.axis.to - p.axis.from);

  p.row_of.assign(d.f.tiles(), no_row);
  for (std::uint32_t t = 0; t < d.f.tiles(); ++t) {
    if (!detail::kept(f, t)) continue;
    ++p.tiles_kept;
    if (p.tiles.size() == timeline_max_tile_rows) continue;
    p.row_of[t] = static_cast<std::uint32_t>(p.tiles.size());
    p.tiles.push_back({t, {}, {}});
  }
  for (const harness::op_span* s : detail::kept_spans(d, f)) {
    const std::uint32_t row = s->tile < p.row_of.size() ? p.row_of[s->tile] : no_row;
    if (row == no_row) {
      ++p.spans_without_row;
      continue;
    }
    (s->is == harness::op_span::what::wait ? p.tiles[row].waits : p.tiles[row].ops).push_back(s);
  }

  // Steps overlap (some tiles start a step while others finish the last): lanes.
  std::vector<const harness::step_timing*> steps;
  for (const harness::step_timing& s : d.steps)
    if (detail::overlaps(f, s.start, s.end)) steps.push_back(&s);
  std::sort(steps.begin(), steps.end(),
            [](const harness::step_timing* a, const harness::step_timing* b) {
              return std::tie(a->start, a->step) < std::tie(b->start, b->step);
            });
  std::vector<std::uint64_t> lane_end;
  for (const harness::step_timing* s : steps) {
    const std::size_t lane = detail::take_lane(lane_end, s->start, s->end);
    if (lane >= timeline_max_step_lanes) {
      ++p.steps_left_out;
      continue;
    }
    if (lane == p.step_lanes.size()) p.step_lanes.emplace_back();
    p.step_lanes[lane].push_back(s);
  }

  for (const detail::link_track& track : detail::link_tracks(d, f)) {
    if (p.links.size() + track.lanes > timeline_max_link_rows) {
      p.link_rows_left_out += track.lanes;
      p.link_spans_left_out += track.held.size();
      continue;
    }
    const std::size_t base = p.links.size();
    for (std::size_t lane = 0; lane < track.lanes; ++lane)
      p.links.push_back({detail::lane_name(track, lane), {}});
    for (const auto& [b, lane] : track.held)
      p.links[base + lane].held.push_back(b);
  }
  return p;
}

// How many rectangles the plan takes when intervals narrower than min_px are merged.
struct bar_tally {
  std::uint64_t bars{0};
  std::uint64_t merged{0};         // merged bars
  std::uint64_t merged_in{0};      // intervals in them
  std::uint64_t waits_dropped{0};  // narrower than min_px: not drawn
};

bar_tally tally_bars(const plan& p, double min_px) {
  bar_tally t;
  auto one = [&](const auto&) { ++t.bars; };
  auto many = [&](std::size_t, std::size_t n, std::uint64_t) {
    ++t.bars;
    ++t.merged;
    t.merged_in += n;
  };
  for (const tile_row& r : p.tiles) {
    lay_out(r.ops, p.axis, min_px, one, many);
    for (const harness::op_span* w : r.waits) {
      if (p.axis.x(w->end) - p.axis.x(w->start) >= min_px) {
        ++t.bars;
      } else {
        ++t.waits_dropped;
      }
    }
  }
  for (const auto& lane : p.step_lanes)
    lay_out(lane, p.axis, min_px, one, many);
  for (const link_row& r : p.links)
    lay_out(r.held, p.axis, min_px, one, many);
  return t;
}

// The smallest width below which intervals are merged that keeps the picture within
// timeline_max_bars: 0 (none merged) for all but the largest runs. Past the plot's
// width every lane is at most one bar, so the search ends.
double merge_width(const plan& p) {
  double min_px = 0;
  while (tally_bars(p, min_px).bars > timeline_max_bars)
    min_px = min_px == 0 ? 0.5 : min_px * std::numbers::sqrt2;
  return min_px;
}

// Tick marks in the trace's unit: 1, 2 or 5 times a power of ten, about eight of them.
std::vector<double> ticks(const time_axis& a) {
  const double lo = a.unit(a.from);
  const double hi = a.unit(a.to);
  const double raw = (hi - lo) / 8;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * mag;
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  std::vector<double> out;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step; k += 1)
    out.push_back(k == 0 ? 0.0 : k * step);  // never "-0"
  return out;
}

double tick_x(const time_axis& a, double v) {
  return plot_x + (v - a.unit(a.from)) * (plot_width / (a.unit(a.to) - a.unit(a.from)));
}

class svg_writer {
 public:
  svg_writer(std::ostream& os, const time_axis& a) : os_{os}, a_{a} {}

  void text(double x, double y, const std::string& s, const char* extra = "") {
    os_ << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\"" << extra << ">" << escape_markup(s)
        << "</text>\n";
  }

  // A rectangle over cycles [a, b) in the row whose top is y.
  void bar(const std::string& cls, std::uint64_t a, std::uint64_t b, double y, double h,
           const char* fill, const std::string& attrs, const std::string& title) {
    const double xa = a_.x(a);
    os_ << "<rect class=\"" << cls << "\" x=\"" << px(xa) << "\" y=\"" << px(y) << "\" width=\""
        << px(a_.x(b) - xa) << "\" height=\"" << px(h) << "\" fill=\"" << fill << "\"" << attrs
        << a_.data_times(a, b) << "><title>" << escape_markup(title) << "</title></rect>\n";
  }

 private:
  std::ostream& os_;
  const time_axis& a_;
};

// A line from (xa, ya) to (xb, yb), cut to the plot's x range [lo, hi].
struct segment {
  double xa, ya, xb, yb;
};
segment clipped(segment s, double lo, double hi) {
  auto at = [&](double x) {
    return s.xb == s.xa ? s.ya : s.ya + (s.yb - s.ya) * (x - s.xa) / (s.xb - s.xa);
  };
  if (s.xa < lo) {
    s.ya = at(lo);
    s.xa = lo;
  }
  if (s.xb > hi) {
    s.yb = at(hi);
    s.xb = hi;
  }
  return s;
}

// An entry of the legend: what its swatch shows, and where it sits.
struct legend_key {
  enum class swatch : std::uint8_t { op, wait, data, control, merged };
  std::string label;
  swatch shows{swatch::op};
  std::size_t look{0};  // swatch::op: its index in looks
  double x{0};
  double y{0};
};

// One picture being written: the plan, the messages chosen, the page's layout.
class picture {
 public:
  picture(std::ostream& os, const trace_data& d, const trace_filter& f)
      : os_{os}, d_{d}, f_{f}, p_{make_plan(d, f)}, a_{p_.axis}, w_{os, p_.axis} {
    min_px_ = merge_width(p_);
    bars_ = tally_bars(p_, min_px_);
    choose_messages();
    notes_ = notes();
    lay_out_page();
  }

  timeline_counts write() {
    write_head();
    write_rows();
    write_axis();
    write_spans();
    write_steps();
    write_links();
    write_messages();
    os_ << "</svg>\n";
    return n_;
  }

 private:
  [[nodiscard]] std::uint32_t row_of(std::uint32_t t) const {
    return t < p_.row_of.size() ? p_.row_of[t] : no_row;
  }

  // Messages with both ends on a row, data before control: an arrow each, or past
  // timeline_max_arrows, aggregate arrows (message_arrows.hpp).
  void choose_messages() {
    std::vector<const harness::transfer_record*> data;
    std::vector<const harness::transfer_record*> control;
    for (const harness::transfer_record& t : d_.transfers) {
      const std::uint32_t src = t.header.src;
      const std::uint32_t dst = t.header.dst;
      if ((!detail::kept(f_, src) && !detail::kept(f_, dst)) ||
          !detail::overlaps(f_, t.start, t.end))
        continue;
      if (row_of(src) == no_row || row_of(dst) == no_row) {
        ++off_rows_;
        continue;
      }
      (t.header.kind == msg_kind::data ? data : control).push_back(&t);
    }
    data.insert(data.end(), control.begin(), control.end());
    arrows_ = detail::plan_arrows(data, p_.row_of, static_cast<std::uint32_t>(p_.tiles.size()),
                                  timeline_max_arrows);
    messages_ = data.size();
  }

  [[nodiscard]] std::string subtitle() const {
    std::string s = "model " + (d_.model.empty() ? std::string("?") : d_.model) + ", " +
                    plural(d_.f.tiles(), "tile", "tiles") + ", " +
                    plural(d_.cycles, "cycle", "cycles");
    if (a_.micros()) {
      s += " = " + brief(a_.unit(d_.cycles)) + " µs (" + brief(d_.us_per_cycle) + " µs a cycle)";
    }
    if (f_.from > 0 || f_.to != trace_filter{}.to) {
      s += "; window cycles " + std::to_string(a_.from) + " to " + std::to_string(a_.to);
    }
    if (!f_.tiles.empty()) {
      s += "; " + std::to_string(p_.tiles_kept) + " of " + std::to_string(d_.f.tiles()) +
           " tiles kept";
    }
    return s;
  }

  // What the picture leaves out or could not show, one line each.
  [[nodiscard]] std::vector<std::string> notes() const {
    std::vector<std::string> out;
    if (!d_.available)
      out.push_back("This run kept no timeline (only collectives and schedules do).");
    if (d_.available && !d_.spans_recorded) {
      out.push_back(
          "Op spans were not recorded for this run (its tiles run their ops inside an "
          "instruction set simulator): the tile rows show its messages only.");
    }
    if (p_.tiles_kept > p_.tiles.size()) {
      out.push_back("Tile rows: the first " + std::to_string(p_.tiles.size()) + " of " +
                    std::to_string(p_.tiles_kept) + " tiles; " +
                    std::to_string(p_.tiles_kept - p_.tiles.size()) + " tiles left out, with " +
                    plural(p_.spans_without_row, "span", "spans") + ".");
    }
    if (arrows_.aggregated) {
      const std::uint64_t g = arrows_.step_group;
      out.push_back("Messages: " + std::to_string(messages_) + " in " +
                    plural(arrows_.arrows.size(), "arrow", "arrows") + " (past " +
                    std::to_string(timeline_max_arrows) + " arrows are not readable): one per " +
                    (g == 1 ? std::string("step") : "run of " + std::to_string(g) + " steps") +
                    " (control messages: per 1/64 of the run" +
                    (g == 1 ? "" : " times " + std::to_string(g)) + ") from a block of " +
                    plural(arrows_.block_rows, "tile row", "tile rows") + " to a block,");
      out.push_back(
          "thicker for more messages, their count in the tooltip; a window or fewer tiles "
          "draws each message.");
    }
    if (off_rows_ > 0) {
      out.push_back(plural(off_rows_, "message", "messages") +
                    " to or from tiles without a row left out.");
    }
    if (bars_.merged > 0 || bars_.waits_dropped > 0) {
      out.push_back("Intervals narrower than " + formatted("%.3g", min_px_) +
                    " px: " + std::to_string(bars_.merged_in) + " merged into " +
                    plural(bars_.merged, "hatched bar", "hatched bars") +
                    " (each in the colour of most of its time), " +
                    plural(bars_.waits_dropped, "wait", "waits") +
                    " not drawn (a window draws them).");
    }
    if (p_.steps_left_out > 0) {
      out.push_back(plural(p_.steps_left_out, "step", "steps") + " past " +
                    std::to_string(timeline_max_step_lanes) + " overlapping lanes left out.");
    }
    if (p_.link_rows_left_out > 0) {
      out.push_back("Link rows: " + std::to_string(p_.links.size()) + " drawn; " +
                    std::to_string(p_.link_rows_left_out) + " left out, with " +
                    plural(p_.link_spans_left_out, "interval", "intervals") + ".");
    }
    return out;
  }

  // From the top: title, subtitle, legend (wrapped to the page, text at about 5.8 px a
  // character), notes, the axis, then the tiles', steps' and links' rows.
  void lay_out_page() {
    using swatch = legend_key::swatch;
    if (d_.spans_recorded) {
      for (std::size_t i = 0; i < looks.size(); ++i)
        keys_.push_back({looks[i].legend, swatch::op, i});
      keys_.push_back({"wait (inside its op)", swatch::wait});
    }
    keys_.push_back(
        {arrows_.aggregated ? "data messages (aggregated)" : "data message", swatch::data});
    keys_.push_back({arrows_.aggregated ? "control messages (aggregated)" : "control message",
                     swatch::control});
    if (bars_.merged > 0) keys_.push_back({"narrow spans merged", swatch::merged});
    double x = margin;
    double y = 52;
    for (legend_key& k : keys_) {
      const double w = 26 + 5.8 * static_cast<double>(k.label.size()) + 14;
      if (x + w > page_width - margin && x > margin) {
        x = margin;
        y += 16;
      }
      k.x = x;
      k.y = y;
      x += w;
    }
    notes_top_ = y + 18;
    axis_y_ = notes_top_ + 15 * static_cast<double>(notes_.size()) + 24;
    tiles_top_ = axis_y_ + 4;
    steps_top_ = tiles_top_ + row_height * static_cast<double>(p_.tiles.size()) + 8;
    step_rows_ = std::max<std::size_t>(p_.step_lanes.size(), 1);
    links_top_ = steps_top_ + row_height * static_cast<double>(step_rows_) + section_gap;
    rows_bottom_ = p_.links.empty()
                       ? steps_top_ + row_height * static_cast<double>(step_rows_)
                       : links_top_ + row_height * static_cast<double>(p_.links.size());
  }

  void write_head() {
    const double height = rows_bottom_ + 40;
    os_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(page_width) << "\" height=\""
        << px(height) << "\" viewBox=\"0 0 " << px(page_width) << ' ' << px(height)
        << "\" font-family=\"sans-serif\" data-unit=\"" << (a_.micros() ? "us" : "cycle")
        << "\" data-us-per-cycle=\"" << exact(d_.us_per_cycle) << "\" data-from-cycle=\"" << a_.from
        << "\" data-to-cycle=\"" << a_.to << "\" data-x0=\"" << px(plot_x)
        << "\" data-plot-width=\"" << px(plot_width) << "\" data-px-per-cycle=\"" << exact(a_.k)
        << "\" data-op-spans=\"" << (d_.spans_recorded ? "true" : "false") << "\">\n";
    os_ << "<title>"
        << escape_markup((d_.title.empty() ? std::string("run") : d_.title) + ": timeline")
        << "</title>\n";
    // Merged bars: hatched, over the colour of what most of their time was.
    os_ << "<defs>";
    auto hatch = [this](const std::string& id, const char* fill) {
      os_ << "<pattern id=\"merged-" << id << "\" width=\"4\" height=\"4\" "
          << "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"4\" "
          << "height=\"4\" fill=\"" << fill << "\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" "
          << "stroke=\"#ffffff\" stroke-width=\"1.6\" stroke-opacity=\"0.7\"/></pattern>";
    };
    for (const look_style& l : looks)
      hatch(l.name, l.fill);
    hatch("step", step_fills[0]);
    hatch("link", link_fill);
    for (const auto& [id, col] :
         {std::pair{"arrow-data", data_stroke}, std::pair{"arrow-control", control_stroke}}) {
      os_ << "<marker id=\"" << id << "\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" "
          << "markerWidth=\"5\" markerHeight=\"5\" markerUnits=\"userSpaceOnUse\" orient=\"auto\">"
          << "<path d=\"M0,0 L6,3 L0,6 z\" fill=\"" << col << "\"/></marker>";
    }
    os_ << "</defs>\n";
    os_ << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    w_.text(margin, 22, d_.title.empty() ? "timeline" : d_.title, " font-size=\"15\"");
    w_.text(margin, 40, subtitle(), " font-size=\"12\" fill=\"#444444\"");

    os_ << "<g class=\"legend\" font-size=\"11\">";
    for (const legend_key& k : keys_) {
      const std::string at = "x=\"" + px(k.x) + "\" y=\"" + px(k.y) + "\" width=\"20\" ";
      switch (k.shows) {
        case legend_key::swatch::op:
          os_ << "<rect class=\"key\" " << at << "height=\"10\" fill=\"" << looks[k.look].fill
              << "\"/>";
          break;
        case legend_key::swatch::wait:
          os_ << "<rect class=\"key\" " << at << "height=\"10\" fill=\"" << looks[0].fill
              << "\"/><rect class=\"key\" x=\"" << px(k.x) << "\" y=\"" << px(k.y + 2.5)
              << "\" width=\"20\" height=\"5\" fill=\"" << wait_fill << "\" fill-opacity=\""
              << wait_opacity << "\"/>";
          break;
        case legend_key::swatch::data:
        case legend_key::swatch::control: {
          const bool data = k.shows == legend_key::swatch::data;
          os_ << "<line x1=\"" << px(k.x) << "\" y1=\"" << px(k.y + 5) << "\" x2=\"" << px(k.x + 20)
              << "\" y2=\"" << px(k.y + 5) << "\" stroke=\""
              << (data ? data_stroke : control_stroke)
              << "\" stroke-width=\"1.2\" marker-end=\"url(#"
              << (data ? "arrow-data" : "arrow-control") << ")\"/>";
          break;
        }
        case legend_key::swatch::merged:
          os_ << "<rect class=\"key\" " << at << "height=\"10\" fill=\"url(#merged-exchange)\"/>";
          break;
      }
      os_ << "<text x=\"" << px(k.x + 26) << "\" y=\"" << px(k.y + 9) << "\">"
          << escape_markup(k.label) << "</text>";
    }
    os_ << "</g>\n";
    for (std::size_t i = 0; i < notes_.size(); ++i) {
      os_ << "<text class=\"note\" x=\"" << px(margin) << "\" y=\""
          << px(notes_top_ + 11 + 15 * static_cast<double>(i)) << "\" font-size=\"11\" "
          << "fill=\"#9c3d00\">" << escape_markup(notes_[i]) << "</text>\n";
    }
  }

  // Rows: a light band behind every other one, the row's name left of the plot.
  void write_rows() {
    os_ << "<g class=\"rows\" font-size=\"11\">";
    auto row = [this](double top, std::size_t i, const std::string& name) {
      if (i % 2 == 0) {
        os_ << "<rect class=\"band\" x=\"" << px(plot_x) << "\" y=\"" << px(top) << "\" width=\""
            << px(plot_width) << "\" height=\"" << px(row_height) << "\" fill=\"#f3f3f3\"/>";
      }
      os_ << "<text class=\"row-name\" x=\"" << px(plot_x - 6) << "\" y=\""
          << px(top + row_height - 4) << "\" text-anchor=\"end\" data-mid=\""
          << px(top + row_height / 2) << "\">" << escape_markup(name) << "</text>\n";
    };
    for (std::size_t i = 0; i < p_.tiles.size(); ++i)
      row(tiles_top_ + row_height * static_cast<double>(i), i,
          "tile " + std::to_string(p_.tiles[i].tile));
    for (std::size_t i = 0; i < step_rows_; ++i)
      row(steps_top_ + row_height * static_cast<double>(i), i,
          i == 0 ? "steps" : "steps (" + std::to_string(i + 1) + ")");
    if (!p_.links.empty()) {
      os_ << "<text x=\"" << px(margin) << "\" y=\"" << px(links_top_ - 6)
          << "\" font-weight=\"bold\">links held</text>\n";
    }
    for (std::size_t i = 0; i < p_.links.size(); ++i)
      row(links_top_ + row_height * static_cast<double>(i), i, p_.links[i].name);
    os_ << "</g>\n";
  }

  // The axis above the rows and again below them, with a grid line at every tick.
  void write_axis() {
    os_ << "<g class=\"axis\" font-size=\"11\" fill=\"#333333\">";
    for (const double v : ticks(a_)) {
      const double x = tick_x(a_, v);
      const std::string label = formatted("%.10g", v);
      os_ << "<line class=\"grid\" x1=\"" << px(x) << "\" y1=\"" << px(axis_y_) << "\" x2=\""
          << px(x) << "\" y2=\"" << px(rows_bottom_) << "\" stroke=\"#dddddd\"/>";
      os_ << "<line x1=\"" << px(x) << "\" y1=\"" << px(axis_y_ - 5) << "\" x2=\"" << px(x)
          << "\" y2=\"" << px(axis_y_) << "\" stroke=\"#555555\"/>";
      os_ << "<text class=\"tick\" x=\"" << px(x) << "\" y=\"" << px(axis_y_ - 8)
          << "\" text-anchor=\"middle\">" << label << "</text>";
      os_ << "<text x=\"" << px(x) << "\" y=\"" << px(rows_bottom_ + 14)
          << "\" text-anchor=\"middle\">" << label << "</text>\n";
    }
    for (const double y : {axis_y_, rows_bottom_}) {
      os_ << "<line x1=\"" << px(plot_x) << "\" y1=\"" << px(y) << "\" x2=\""
          << px(plot_x + plot_width) << "\" y2=\"" << px(y) << "\" stroke=\"#555555\"/>";
    }
    const std::string title = std::string("time (") + (a_.micros() ? "µs" : "cycles") + ")";
    os_ << "<text class=\"axis-title\" x=\"" << px(margin) << "\" y=\"" << px(axis_y_ - 8) << "\">"
        << escape_markup(title) << "</text>";
    os_ << "<text x=\"" << px(plot_x + plot_width / 2) << "\" y=\"" << px(rows_bottom_ + 30)
        << "\" text-anchor=\"middle\">" << escape_markup(title) << "</text></g>\n";
  }

  // A bar of `count` narrow intervals merged, hatched over the colour `fill` names.
  void merged(double top, std::uint64_t from, std::uint64_t to, std::size_t count, const char* what,
              const std::string& fill, const std::string& detail) {
    w_.bar("merged", from, to, top + bar_top, bar_height, ("url(#merged-" + fill + ")").c_str(),
           std::string(" data-what=\"") + what + "\" data-count=\"" + std::to_string(count) + "\"",
           std::to_string(count) + " " + what + " merged, each narrower than " +
               formatted("%.3g", min_px_) + " px" + detail + "\n" + a_.interval(from, to));
  }

  // Op spans coloured by kind, their waits as darker bands inside them.
  void write_spans() {
    os_ << "<g class=\"spans\">\n";
    for (std::size_t i = 0; i < p_.tiles.size(); ++i) {
      const tile_row& r = p_.tiles[i];
      const double top = tiles_top_ + row_height * static_cast<double>(i);
      const std::string tile_attr = " data-tile=\"" + std::to_string(r.tile) + "\"";
      auto where = [](const harness::op_span& s) {
        std::string t = "tile " + std::to_string(s.tile);
        if (s.index > 0) t += ", op " + std::to_string(s.index - 1);
        if (s.step > 0) t += ", step " + std::to_string(s.step);
        return t;
      };
      lay_out(
          r.ops, a_, min_px_,
          [&](const harness::op_span& s) {
            const look_style& l = looks[static_cast<std::size_t>(look_of(s))];
            // A thin white edge sets apart ops of one kind that follow one another.
            w_.bar(
                std::string("op ") + l.name, s.start, s.end, top + bar_top, bar_height, l.fill,
                tile_attr + " stroke=\"#ffffff\" stroke-width=\"0.5\"",
                detail::span_name(s).first + "\n" + where(s) + "\n" + a_.interval(s.start, s.end));
            ++n_.spans;
          },
          [&](std::size_t first, std::size_t count, std::uint64_t end) {
            // Coloured as the kind that took most of the time; the tooltip counts all.
            std::array<std::uint64_t, looks.size()> time{};
            std::array<std::uint64_t, looks.size()> spans{};
            for (std::size_t k = first; k < first + count; ++k) {
              const auto l = static_cast<std::size_t>(look_of(*r.ops[k]));
              time[l] += r.ops[k]->end - r.ops[k]->start;
              ++spans[l];
            }
            const auto main =
                static_cast<std::size_t>(std::max_element(time.begin(), time.end()) - time.begin());
            std::string detail = ":";
            for (std::size_t l = 0; l < looks.size(); ++l)
              if (spans[l] > 0) detail += " " + std::to_string(spans[l]) + " " + looks[l].name;
            merged(top, r.ops[first]->start, end, count, "spans", looks[main].name, detail);
          });
      for (const harness::op_span* s : r.waits) {
        if (a_.x(s->end) - a_.x(s->start) < min_px_) continue;
        w_.bar(
            "wait", s->start, s->end, top + bar_top + wait_inset, bar_height - 2 * wait_inset,
            wait_fill, tile_attr + " fill-opacity=\"" + wait_opacity + "\"",
            detail::span_name(*s).first + "\n" + where(*s) + "\n" + a_.interval(s->start, s->end));
        ++n_.spans;
      }
    }
    os_ << "</g>\n";
  }

  void write_steps() {
    os_ << "<g class=\"steps\" font-size=\"10\">\n";
    for (std::size_t i = 0; i < p_.step_lanes.size(); ++i) {
      const double top = steps_top_ + row_height * static_cast<double>(i);
      const auto& lane = p_.step_lanes[i];
      lay_out(
          lane, a_, min_px_,
          [&](const harness::step_timing& s) {
            w_.bar("step", s.start, s.end, top + bar_top, bar_height, step_fills[s.step % 2],
                   " data-step=\"" + std::to_string(s.step) + "\"",
                   "step " + std::to_string(s.step) + ": " +
                       plural(s.messages, "message", "messages") + ", " +
                       plural(s.bytes, "byte", "bytes") + "\n" + a_.interval(s.start, s.end));
            const std::string label = std::to_string(s.step);
            if (a_.x(s.end) - a_.x(s.start) > 6.5 * static_cast<double>(label.size()) + 4) {
              os_ << "<text x=\"" << px((a_.x(s.start) + a_.x(s.end)) / 2) << "\" y=\""
                  << px(top + row_height - 4.5) << "\" text-anchor=\"middle\" "
                  << "pointer-events=\"none\">" << label << "</text>\n";
            }
            ++n_.steps;
          },
          [&](std::size_t first, std::size_t count, std::uint64_t end) {
            merged(top, lane[first]->start, end, count, "steps", "step", "");
          });
    }
    os_ << "</g>\n";
  }

  void write_links() {
    os_ << "<g class=\"links\">\n";
    for (std::size_t i = 0; i < p_.links.size(); ++i) {
      const double top = links_top_ + row_height * static_cast<double>(i);
      const link_row& r = p_.links[i];
      lay_out(
          r.held, a_, min_px_,
          [&](const net::link_busy& b) {
            w_.bar("link", b.start, b.end, top + bar_top, bar_height, link_fill,
                   " data-link=\"" + escape_markup(r.name) + "\"",
                   std::to_string(b.src) + "->" + std::to_string(b.dst) + " on " + r.name + "\n" +
                       a_.interval(b.start, b.end));
            ++n_.link_spans;
          },
          [&](std::size_t first, std::size_t count, std::uint64_t end) {
            merged(top, r.held[first]->start, end, count, "link intervals", "link", "");
          });
    }
    os_ << "</g>\n";
  }

  // Messages last, over the bars: sender's row at its start, receiver's row at its end;
  // an aggregate from its senders' block at the first start to its receivers' block at
  // the last delivery.
  void write_messages() {
    os_ << "<g class=\"messages\" fill=\"none\">\n";
    for (const detail::message_arrow& m : arrows_.arrows) {
      if (arrows_.aggregated) {
        write_aggregate(m);
      } else {
        write_message(*m.messages.front(), m.data);
      }
      n_.messages += m.messages.size();
      ++n_.arrows;
    }
    os_ << "</g>\n";
  }

  // The JSON trace's flow id: 1-based, in record order.
  [[nodiscard]] std::uint64_t flow_id(const harness::transfer_record& t) const {
    return static_cast<std::uint64_t>(&t - d_.transfers.data()) + 1;
  }

  void write_message(const harness::transfer_record& t, bool data) {
    auto mid = [this](std::uint32_t tile) {
      return tiles_top_ + row_height * static_cast<double>(row_of(tile)) + row_height / 2;
    };
    const segment s = clipped({a_.x(t.start), mid(t.header.src), a_.x(t.end), mid(t.header.dst)},
                              plot_x, plot_x + plot_width);
    os_ << "<line class=\"msg " << (data ? "data" : "control") << "\" x1=\"" << px(s.xa)
        << "\" y1=\"" << px(s.ya) << "\" x2=\"" << px(s.xb) << "\" y2=\"" << px(s.yb)
        << "\" stroke=\"" << (data ? data_stroke : control_stroke) << "\" stroke-width=\""
        << (data ? "0.9" : "0.7") << "\" stroke-opacity=\"0.75\" marker-end=\"url(#"
        << (data ? "arrow-data" : "arrow-control") << ")\" data-id=\"" << flow_id(t)
        << "\" data-src=\"" << t.header.src << "\" data-dst=\"" << t.header.dst << "\""
        << a_.data_times(t.start, t.end) << "><title>"
        << escape_markup(detail::message_name(t) + ": " + plural(t.header.bytes, "byte", "bytes") +
                         ", step " + std::to_string(t.header.tag) + "\nsent " + a_.when(t.start) +
                         ", delivered " + a_.when(t.end))
        << "</title></line>\n";
  }

  // A block's rows: [first, last] of the rows shown.
  [[nodiscard]] std::pair<std::size_t, std::size_t> block_rows(std::uint32_t block) const {
    const std::size_t first = std::size_t{block} * arrows_.block_rows;
    return {first, std::min(first + arrows_.block_rows, p_.tiles.size()) - 1};
  }

  [[nodiscard]] std::string block_tiles(std::uint32_t block) const {
    const auto [first, last] = block_rows(block);
    std::vector<std::uint32_t> tiles;
    for (std::size_t r = first; r <= last; ++r)
      tiles.push_back(p_.tiles[r].tile);
    return detail::tile_ranges(tiles);
  }

  void write_aggregate(const detail::message_arrow& m) {
    auto mid = [this](std::uint32_t block) {
      const auto [first, last] = block_rows(block);
      return tiles_top_ + row_height * static_cast<double>(first + last + 1) / 2;
    };
    const segment s = clipped({a_.x(m.start), mid(m.src_block), a_.x(m.end), mid(m.dst_block)},
                              plot_x, plot_x + plot_width);
    const std::size_t n = m.messages.size();
    // Thicker for more messages: a line's width grows with the log of its count.
    const double width = (m.data ? 0.9 : 0.7) + 0.6 * std::log2(static_cast<double>(n));
    std::string ids;
    for (const harness::transfer_record* t : m.messages)
      ids += (ids.empty() ? "" : " ") + std::to_string(flow_id(*t));
    const std::string src = block_tiles(m.src_block);
    const std::string dst = block_tiles(m.dst_block);
    os_ << "<line class=\"msg " << (m.data ? "data" : "control") << " aggregate\" x1=\"" << px(s.xa)
        << "\" y1=\"" << px(s.ya) << "\" x2=\"" << px(s.xb) << "\" y2=\"" << px(s.yb)
        << "\" stroke=\"" << (m.data ? data_stroke : control_stroke) << "\" stroke-width=\""
        << px(width) << "\" stroke-opacity=\"0.6\" marker-end=\"url(#"
        << (m.data ? "arrow-data" : "arrow-control") << ")\" data-count=\"" << n
        << "\" data-src-tiles=\"" << src << "\" data-dst-tiles=\"" << dst << "\" data-ids=\"" << ids
        << "\"" << a_.data_times(m.start, m.end) << "><title>"
        << escape_markup(detail::aggregate_name(m, src, dst) + "\nfirst sent " + a_.when(m.start) +
                         ", last delivered " + a_.when(m.end))
        << "</title></line>\n";
  }

  std::ostream& os_;
  const trace_data& d_;
  const trace_filter& f_;
  const plan p_;
  const time_axis& a_;
  svg_writer w_;
  timeline_counts n_;
  double min_px_{0};
  bar_tally bars_;
  detail::arrow_plan arrows_;
  std::uint64_t messages_{0};  // with both ends on a row
  std::uint64_t off_rows_{0};  // messages to or from a tile without a row
  std::vector<std::string> notes_;
  std::vector<legend_key> keys_;
  double notes_top_{0};
  double axis_y_{0};
  double tiles_top_{0};
  double steps_top_{0};
  std::size_t step_rows_{1};
  double links_top_{0};
  double rows_bottom_{0};
};

}  // namespace

timeline_counts write_timeline_svg(std::ostream& os, const trace_data& d, const trace_filter& f) {
  return picture{os, d, f}.write();
}

}  // namespace tessera::pictures
