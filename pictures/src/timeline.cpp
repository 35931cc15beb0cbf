#include "tessera/pictures/timeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "message_arrows.hpp"
#include "tessera/pictures/svg.hpp"
#include "timeline_plan.hpp"
#include "trace_parts.hpp"

namespace tessera::pictures {
namespace {

using namespace detail;

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
      : w_{os, numbers::trimmed2}, d_{d}, f_{f}, p_{make_plan(d, f)}, a_{p_.axis} {
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
    w_.close("svg").raw("\n");
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
      if ((!kept(f_, src) && !kept(f_, dst)) || !overlaps(f_, t.start, t.end)) continue;
      if (row_of(src) == no_row || row_of(dst) == no_row) {
        ++off_rows_;
        continue;
      }
      (t.header.kind == msg_kind::data ? data : control).push_back(&t);
    }
    data.insert(data.end(), control.begin(), control.end());
    arrows_ = plan_arrows(data, p_.row_of, static_cast<std::uint32_t>(p_.tiles.size()),
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
      out.push_back("Intervals narrower than " + significant(min_px_, 3) +
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
    w_.root(w_.num(page_width), w_.num(height))
        .attr("font-family", "sans-serif")
        .attr("data-unit", a_.micros() ? "us" : "cycle")
        .attr("data-us-per-cycle", exact(d_.us_per_cycle))
        .attr("data-from-cycle", a_.from)
        .attr("data-to-cycle", a_.to)
        .attr("data-x0", plot_x)
        .attr("data-plot-width", plot_width)
        .attr("data-px-per-cycle", exact(a_.k))
        .attr("data-op-spans", d_.spans_recorded ? "true" : "false")
        .open()
        .raw("\n");
    w_.title((d_.title.empty() ? std::string("run") : d_.title) + ": timeline").raw("\n");
    // Merged bars: hatched, over the colour of what most of their time was.
    w_.tag("defs").open();
    auto hatch = [this](const std::string& id, const char* fill) {
      w_.tag("pattern")
          .attr("id", "merged-" + id)
          .attr("width", 4)
          .attr("height", 4)
          .attr("patternUnits", "userSpaceOnUse")
          .attr("patternTransform", "rotate(45)")
          .open();
      w_.tag("rect").attr("width", 4).attr("height", 4).attr("fill", fill).leaf();
      w_.tag("line")
          .attr("x1", 0)
          .attr("y1", 0)
          .attr("x2", 0)
          .attr("y2", 4)
          .attr("stroke", "#ffffff")
          .attr("stroke-width", "1.6")
          .attr("stroke-opacity", "0.7")
          .leaf();
      w_.close("pattern");
    };
    for (const look_style& l : looks)
      hatch(l.name, l.fill);
    hatch("step", step_fills[0]);
    hatch("link", link_fill);
    for (const auto& [id, col] :
         {std::pair{"arrow-data", data_stroke}, std::pair{"arrow-control", control_stroke}}) {
      w_.tag("marker")
          .attr("id", id)
          .attr("viewBox", "0 0 6 6")
          .attr("refX", 6)
          .attr("refY", 3)
          .attr("markerWidth", 5)
          .attr("markerHeight", 5)
          .attr("markerUnits", "userSpaceOnUse")
          .attr("orient", "auto")
          .open();
      w_.tag("path").attr("d", "M0,0 L6,3 L0,6 z").attr("fill", col).leaf().close("marker");
    }
    w_.close("defs").raw("\n");
    w_.background("#ffffff").raw("\n");
    w_.tag("text").attr("x", margin).attr("y", 22).attr("font-size", 15).open();
    w_.text(d_.title.empty() ? "timeline" : d_.title).close("text").raw("\n");
    w_.tag("text").attr("x", margin).attr("y", 40).attr("font-size", 12).attr("fill", "#444444");
    w_.open().text(subtitle()).close("text").raw("\n");

    w_.tag("g").attr("class", "legend").attr("font-size", 11).open();
    for (const legend_key& k : keys_) {
      auto key = [&](double y, double h, const std::string& fill) -> svg_writer& {
        return w_.tag("rect")
            .attr("class", "key")
            .attr("x", k.x)
            .attr("y", y)
            .attr("width", 20)
            .attr("height", h)
            .attr("fill", fill);
      };
      switch (k.shows) {
        case legend_key::swatch::op:
          key(k.y, 10, looks[k.look].fill).leaf();
          break;
        case legend_key::swatch::wait:
          key(k.y, 10, looks[0].fill).leaf();
          key(k.y + 2.5, 5, wait_fill).attr("fill-opacity", wait_opacity).leaf();
          break;
        case legend_key::swatch::data:
        case legend_key::swatch::control: {
          const bool data = k.shows == legend_key::swatch::data;
          w_.tag("line")
              .attr("x1", k.x)
              .attr("y1", k.y + 5)
              .attr("x2", k.x + 20)
              .attr("y2", k.y + 5)
              .attr("stroke", data ? data_stroke : control_stroke)
              .attr("stroke-width", "1.2")
              .attr("marker-end", data ? "url(#arrow-data)" : "url(#arrow-control)")
              .leaf();
          break;
        }
        case legend_key::swatch::merged:
          key(k.y, 10, "url(#merged-exchange)").leaf();
          break;
      }
      w_.tag("text").attr("x", k.x + 26).attr("y", k.y + 9).open().text(k.label).close("text");
    }
    w_.close("g").raw("\n");
    for (std::size_t i = 0; i < notes_.size(); ++i) {
      w_.tag("text")
          .attr("class", "note")
          .attr("x", margin)
          .attr("y", notes_top_ + 11 + 15 * static_cast<double>(i))
          .attr("font-size", 11)
          .attr("fill", "#9c3d00")
          .open()
          .text(notes_[i])
          .close("text")
          .raw("\n");
    }
  }

  // Rows: a light band behind every other one, the row's name left of the plot.
  void write_rows() {
    w_.tag("g").attr("class", "rows").attr("font-size", 11).open();
    auto row = [this](double top, std::size_t i, const std::string& name) {
      if (i % 2 == 0) {
        w_.tag("rect")
            .attr("class", "band")
            .attr("x", plot_x)
            .attr("y", top)
            .attr("width", plot_width)
            .attr("height", row_height)
            .attr("fill", "#f3f3f3")
            .leaf();
      }
      w_.tag("text")
          .attr("class", "row-name")
          .attr("x", plot_x - 6)
          .attr("y", top + row_height - 4)
          .attr("text-anchor", "end")
          .attr("data-mid", top + row_height / 2)
          .open()
          .text(name)
          .close("text")
          .raw("\n");
    };
    for (std::size_t i = 0; i < p_.tiles.size(); ++i)
      row(tiles_top_ + row_height * static_cast<double>(i), i,
          "tile " + std::to_string(p_.tiles[i].tile));
    for (std::size_t i = 0; i < step_rows_; ++i)
      row(steps_top_ + row_height * static_cast<double>(i), i,
          i == 0 ? "steps" : "steps (" + std::to_string(i + 1) + ")");
    if (!p_.links.empty()) {
      w_.tag("text").attr("x", margin).attr("y", links_top_ - 6).attr("font-weight", "bold");
      w_.open().text("links held").close("text").raw("\n");
    }
    for (std::size_t i = 0; i < p_.links.size(); ++i)
      row(links_top_ + row_height * static_cast<double>(i), i, p_.links[i].name);
    w_.close("g").raw("\n");
  }

  // The axis above the rows and again below them, with a grid line at every tick.
  void write_axis() {
    w_.tag("g").attr("class", "axis").attr("font-size", 11).attr("fill", "#333333").open();
    auto line = [this](double x1, double y1, double x2, double y2) -> svg_writer& {
      return w_.tag("line").attr("x1", x1).attr("y1", y1).attr("x2", x2).attr("y2", y2);
    };
    for (const double v : ticks(a_)) {
      const double x = tick_x(a_, v);
      const std::string label = significant(v, 10);
      w_.tag("line").attr("class", "grid").attr("x1", x).attr("y1", axis_y_).attr("x2", x);
      w_.attr("y2", rows_bottom_).attr("stroke", "#dddddd").leaf();
      line(x, axis_y_ - 5, x, axis_y_).attr("stroke", "#555555").leaf();
      w_.tag("text").attr("class", "tick").attr("x", x).attr("y", axis_y_ - 8);
      w_.attr("text-anchor", "middle").open().text(label).close("text");
      w_.tag("text").attr("x", x).attr("y", rows_bottom_ + 14).attr("text-anchor", "middle");
      w_.open().text(label).close("text").raw("\n");
    }
    for (const double y : {axis_y_, rows_bottom_})
      line(plot_x, y, plot_x + plot_width, y).attr("stroke", "#555555").leaf();
    const std::string title = std::string("time (") + (a_.micros() ? "µs" : "cycles") + ")";
    w_.tag("text").attr("class", "axis-title").attr("x", margin).attr("y", axis_y_ - 8);
    w_.open().text(title).close("text");
    w_.tag("text")
        .attr("x", plot_x + plot_width / 2)
        .attr("y", rows_bottom_ + 30)
        .attr("text-anchor", "middle")
        .open()
        .text(title)
        .close("text")
        .close("g")
        .raw("\n");
  }

  // A rectangle over cycles [a, b) in the row whose top is y, its own attributes written
  // by `extra`, its times and its tooltip.
  template <typename Extra>
  void bar(const std::string& cls, std::uint64_t a, std::uint64_t b, double y, double h,
           const std::string& fill, Extra&& extra, const std::string& title) {
    const double xa = a_.x(a);
    w_.tag("rect")
        .attr("class", cls)
        .attr("x", xa)
        .attr("y", y)
        .attr("width", a_.x(b) - xa)
        .attr("height", h)
        .attr("fill", fill);
    extra();
    times(a, b);
    w_.open().title(title).close("rect").raw("\n");
  }

  // The times of a rectangle or line, for a reader of the file.
  void times(std::uint64_t a, std::uint64_t b) {
    w_.attr("data-start", exact(a_.unit(a))).attr("data-end", exact(a_.unit(b)));
  }

  // A bar of `count` narrow intervals merged, hatched over the colour `fill` names.
  void merged(double top, std::uint64_t from, std::uint64_t to, std::size_t count, const char* what,
              const std::string& fill, const std::string& detail) {
    bar(
        "merged", from, to, top + bar_top, bar_height, "url(#merged-" + fill + ")",
        [&] { w_.attr("data-what", what).attr("data-count", count); },
        std::to_string(count) + " " + what + " merged, each narrower than " +
            significant(min_px_, 3) + " px" + detail + "\n" + a_.interval(from, to));
  }

  // Op spans coloured by kind, their waits as darker bands inside them.
  void write_spans() {
    w_.tag("g").attr("class", "spans").open().raw("\n");
    for (std::size_t i = 0; i < p_.tiles.size(); ++i) {
      const tile_row& r = p_.tiles[i];
      const double top = tiles_top_ + row_height * static_cast<double>(i);
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
            bar(
                std::string("op ") + l.name, s.start, s.end, top + bar_top, bar_height, l.fill,
                [&] {
                  w_.attr("data-tile", r.tile).attr("stroke", "#ffffff");
                  w_.attr("stroke-width", "0.5");
                },
                span_name(s).first + "\n" + where(s) + "\n" + a_.interval(s.start, s.end));
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
        bar(
            "wait", s->start, s->end, top + bar_top + wait_inset, bar_height - 2 * wait_inset,
            wait_fill, [&] { w_.attr("data-tile", r.tile).attr("fill-opacity", wait_opacity); },
            span_name(*s).first + "\n" + where(*s) + "\n" + a_.interval(s->start, s->end));
        ++n_.spans;
      }
    }
    w_.close("g").raw("\n");
  }

  void write_steps() {
    w_.tag("g").attr("class", "steps").attr("font-size", 10).open().raw("\n");
    for (std::size_t i = 0; i < p_.step_lanes.size(); ++i) {
      const double top = steps_top_ + row_height * static_cast<double>(i);
      const auto& lane = p_.step_lanes[i];
      lay_out(
          lane, a_, min_px_,
          [&](const harness::step_timing& s) {
            bar(
                "step", s.start, s.end, top + bar_top, bar_height, step_fills[s.step % 2],
                [&] { w_.attr("data-step", s.step); },
                "step " + std::to_string(s.step) + ": " +
                    plural(s.messages, "message", "messages") + ", " +
                    plural(s.bytes, "byte", "bytes") + "\n" + a_.interval(s.start, s.end));
            const std::string label = std::to_string(s.step);
            if (a_.x(s.end) - a_.x(s.start) > 6.5 * static_cast<double>(label.size()) + 4) {
              w_.tag("text")
                  .attr("x", (a_.x(s.start) + a_.x(s.end)) / 2)
                  .attr("y", top + row_height - 4.5)
                  .attr("text-anchor", "middle")
                  .attr("pointer-events", "none")
                  .open()
                  .text(label)
                  .close("text")
                  .raw("\n");
            }
            ++n_.steps;
          },
          [&](std::size_t first, std::size_t count, std::uint64_t end) {
            merged(top, lane[first]->start, end, count, "steps", "step", "");
          });
    }
    w_.close("g").raw("\n");
  }

  void write_links() {
    w_.tag("g").attr("class", "links").open().raw("\n");
    for (std::size_t i = 0; i < p_.links.size(); ++i) {
      const double top = links_top_ + row_height * static_cast<double>(i);
      const link_row& r = p_.links[i];
      lay_out(
          r.held, a_, min_px_,
          [&](const net::link_busy& b) {
            bar(
                "link", b.start, b.end, top + bar_top, bar_height, link_fill,
                [&] { w_.attr("data-link", r.name); },
                std::to_string(b.src) + "->" + std::to_string(b.dst) + " on " + r.name + "\n" +
                    a_.interval(b.start, b.end));
            ++n_.link_spans;
          },
          [&](std::size_t first, std::size_t count, std::uint64_t end) {
            merged(top, r.held[first]->start, end, count, "link intervals", "link", "");
          });
    }
    w_.close("g").raw("\n");
  }

  // Messages last, over the bars: sender's row at its start, receiver's row at its end;
  // an aggregate from its senders' block at the first start to its receivers' block at
  // the last delivery.
  void write_messages() {
    w_.tag("g").attr("class", "messages").attr("fill", "none").open().raw("\n");
    for (const message_arrow& m : arrows_.arrows) {
      if (arrows_.aggregated) {
        write_aggregate(m);
      } else {
        write_message(*m.messages.front(), m.data);
      }
      n_.messages += m.messages.size();
      ++n_.arrows;
    }
    w_.close("g").raw("\n");
  }

  // The JSON trace's flow id: 1-based, in record order.
  [[nodiscard]] std::uint64_t flow_id(const harness::transfer_record& t) const {
    return static_cast<std::uint64_t>(&t - d_.transfers.data()) + 1;
  }

  // A message's line from s's start to its end, in the style of its kind.
  void message_line(const char* cls, const segment& s, bool data) {
    w_.tag("line")
        .attr("class", cls)
        .attr("x1", s.xa)
        .attr("y1", s.ya)
        .attr("x2", s.xb)
        .attr("y2", s.yb)
        .attr("stroke", data ? data_stroke : control_stroke);
  }

  void write_message(const harness::transfer_record& t, bool data) {
    auto mid = [this](std::uint32_t tile) {
      return tiles_top_ + row_height * static_cast<double>(row_of(tile)) + row_height / 2;
    };
    const segment s = clipped({a_.x(t.start), mid(t.header.src), a_.x(t.end), mid(t.header.dst)},
                              plot_x, plot_x + plot_width);
    message_line(data ? "msg data" : "msg control", s, data);
    w_.attr("stroke-width", data ? "0.9" : "0.7")
        .attr("stroke-opacity", "0.75")
        .attr("marker-end", data ? "url(#arrow-data)" : "url(#arrow-control)")
        .attr("data-id", flow_id(t))
        .attr("data-src", t.header.src)
        .attr("data-dst", t.header.dst);
    times(t.start, t.end);
    w_.open()
        .title(message_name(t) + ": " + plural(t.header.bytes, "byte", "bytes") + ", step " +
               std::to_string(t.header.tag) + "\nsent " + a_.when(t.start) + ", delivered " +
               a_.when(t.end))
        .close("line")
        .raw("\n");
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
    return tile_ranges(tiles);
  }

  void write_aggregate(const message_arrow& m) {
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
    message_line(m.data ? "msg data aggregate" : "msg control aggregate", s, m.data);
    w_.attr("stroke-width", width)
        .attr("stroke-opacity", "0.6")
        .attr("marker-end", m.data ? "url(#arrow-data)" : "url(#arrow-control)")
        .attr("data-count", n)
        .attr("data-src-tiles", src)
        .attr("data-dst-tiles", dst)
        .attr("data-ids", ids);
    times(m.start, m.end);
    w_.open()
        .title(aggregate_name(m, src, dst) + "\nfirst sent " + a_.when(m.start) +
               ", last delivered " + a_.when(m.end))
        .close("line")
        .raw("\n");
  }

  svg_writer w_;
  const trace_data& d_;
  const trace_filter& f_;
  const plan p_;
  const time_axis& a_;
  timeline_counts n_;
  double min_px_{0};
  bar_tally bars_;
  arrow_plan arrows_;
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
