#include "tessera/pictures/figure.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <string_view>
#include <vector>

#include "tessera/pictures/svg.hpp"

namespace tessera::pictures {
namespace {

constexpr double width = 860;
constexpr double height = 480;
constexpr double left = 86;
constexpr double right = 330;  // the legend's column
constexpr double top = 48;
constexpr double bottom = 64;

// The legend: its column starts here and ends legend_margin before the page's edge;
// names wrap to it, and the page grows downwards when the entries need it.
constexpr double legend_x = width - right + 14;
constexpr double legend_text_x = legend_x + 26;
constexpr double legend_margin = 8;
constexpr double legend_font = 11;
constexpr double legend_line = 13;  // a name's lines
constexpr double legend_gap = 5;    // between entries

// Colours told apart in print and by the colour-blind (Okabe-Ito).
constexpr std::array<const char*, 8> palette{"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                             "#E69F00", "#56B4E9", "#000000", "#F0E442"};

// A tick label: short, no trailing zeros.
std::string tick_text(double v) {
  return significant(v, v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-3) ? 3 : 6);
}

// How wide a text is drawn at font size `size`, from DejaVu Sans's advance widths (in
// ems) by kind of character, rounded up: no font metrics are at hand when the SVG is
// written, so the estimate errs wide and a name never runs past where it is measured
// to end.
double text_width(std::string_view text, double size) {
  double ems = 0;
  for (const char c : text) {
    if (std::string_view{" ,.:;'|!()[]/-ijlftrI"}.find(c) != std::string_view::npos) {
      ems += 0.42;
    } else if (std::string_view{"mwMW%@"}.find(c) != std::string_view::npos) {
      ems += 1.0;
    } else if (c >= 'A' && c <= 'Z') {
      ems += 0.78;
    } else {
      ems += 0.66;  // digits, the other lower case letters, other signs
    }
  }
  return ems * size;
}

// A legend name in lines no wider than `room`: broken after spaces, and inside a word
// only where one word alone is wider. Concatenated, the lines are the name.
std::vector<std::string> wrap_name(const std::string& name, double room) {
  std::vector<std::string> lines{""};
  std::size_t at = 0;
  while (at < name.size()) {
    const std::size_t space = name.find(' ', at);
    const std::size_t end = space == std::string::npos ? name.size() : space + 1;
    std::string word = name.substr(at, end - at);
    at = end;
    if (!lines.back().empty() && text_width(lines.back() + word, legend_font) > room)
      lines.emplace_back();
    // A word wider than a line on its own: as much of it as fits, line by line.
    while (text_width(lines.back() + word, legend_font) > room) {
      std::size_t n = 0;
      while (n + 1 < word.size() &&
             text_width(lines.back() + word.substr(0, n + 1), legend_font) <= room)
        ++n;
      n = std::max<std::size_t>(n, 1);
      lines.back() += word.substr(0, n);
      word.erase(0, n);
      lines.emplace_back();
    }
    lines.back() += word;
  }
  return lines;
}

struct axis {
  bool log{false};
  double lo{0};
  double hi{1};
  double pixel_lo{0};
  double pixel_hi{1};

  [[nodiscard]] double value(double v) const { return log ? std::log10(v) : v; }
  [[nodiscard]] double pixel(double v) const {
    const double t = (value(v) - lo) / (hi - lo);
    return pixel_lo + t * (pixel_hi - pixel_lo);
  }
  // Ticks: decades on a log axis, 1-2-5 steps on a linear one.
  [[nodiscard]] std::vector<double> ticks() const {
    std::vector<double> out;
    if (log) {
      for (double e = std::ceil(lo - 1e-9); e <= hi + 1e-9; e += 1)
        out.push_back(std::pow(10.0, e));
      return out;
    }
    const double span = hi - lo;
    const double raw = span / 6;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (const double f : {1.0, 2.0, 5.0, 10.0}) {
      step = f * mag;
      if (span / step <= 7) break;
    }
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
      out.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
    return out;
  }
};

// The axis over the values (log: the positive ones), padded a little; a single value
// gets a span around it.
axis make_axis(std::vector<double> values, bool log, double p0, double p1) {
  axis a;
  a.log = log;
  a.pixel_lo = p0;
  a.pixel_hi = p1;
  if (log) std::erase_if(values, [](double v) { return !(v > 0); });
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  if (values.empty()) values = {log ? 1.0 : 0.0, log ? 10.0 : 1.0};
  double lo = a.value(*std::min_element(values.begin(), values.end()));
  double hi = a.value(*std::max_element(values.begin(), values.end()));
  if (log) {
    lo = std::floor(lo);
    hi = std::ceil(hi);
    if (hi <= lo) hi = lo + 1;
  } else {
    if (lo > 0 && lo < hi * 0.5) lo = 0;  // start at 0 when the data nearly does
    if (hi <= lo) {
      hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
    } else {
      const double pad = (hi - lo) * 0.05;
      hi += pad;
      if (lo != 0) lo -= pad;
    }
  }
  a.lo = lo;
  a.hi = hi;
  return a;
}

}  // namespace

std::string to_svg(const figure& f) {
  std::vector<double> xs;
  std::vector<double> ys;
  for (const series& s : f.curves) {
    for (const auto& [x, y] : s.points) {
      xs.push_back(x);
      ys.push_back(y);
    }
  }
  const axis ax = make_axis(xs, f.log_x, left, width - right);
  const axis ay = make_axis(ys, f.log_y, height - bottom, top);
  auto shown = [&](double x, double y) {
    return std::isfinite(x) && std::isfinite(y) && (!f.log_x || x > 0) && (!f.log_y || y > 0);
  };
  const double mid_x = (left + width - right) / 2;

  // The page is written after the figure, whose legend may make it taller.
  std::ostringstream os;
  svg_writer w{os, numbers::fixed2};
  w.tag("text").attr("x", mid_x).attr("y", 22).attr("text-anchor", "middle");
  w.attr("font-size", 15).attr("font-weight", "bold").open().text(f.title).close("text").raw("\n");
  if (!f.source.empty()) {
    w.tag("text").attr("x", mid_x).attr("y", 38).attr("text-anchor", "middle").attr("fill", "#555");
    w.open().text(f.source).close("text").raw("\n");
  }
  // Frame, grid and ticks.
  w.tag("g").attr("class", "axes").attr("stroke", "#222").attr("fill", "none").open().raw("\n");
  w.tag("rect").attr("x", left).attr("y", top).attr("width", width - right - left);
  w.attr("height", height - bottom - top).leaf().raw("\n");
  w.close("g").raw("\n");
  w.tag("g").attr("class", "ticks").attr("font-size", 11).open().raw("\n");
  auto grid = [&w](double x1, double y1, double x2, double y2) {
    w.tag("line").attr("x1", x1).attr("y1", y1).attr("x2", x2).attr("y2", y2);
    w.attr("stroke", "#ddd").leaf();
  };
  for (const double t : ax.ticks()) {
    const double px = ax.pixel(t);
    grid(px, top, px, height - bottom);
    w.tag("text").attr("x", px).attr("y", height - bottom + 16).attr("text-anchor", "middle");
    w.open().text(tick_text(t)).close("text").raw("\n");
  }
  for (const double t : ay.ticks()) {
    const double py = ay.pixel(t);
    grid(left, py, width - right, py);
    w.tag("text").attr("x", left - 6).attr("y", py + 4).attr("text-anchor", "end");
    w.open().text(tick_text(t)).close("text").raw("\n");
  }
  w.close("g").raw("\n");
  w.tag("text").attr("class", "x-label").attr("x", mid_x).attr("y", height - 18);
  w.attr("text-anchor", "middle").open().text(f.x_label + (f.log_x ? " (log scale)" : ""));
  w.close("text").raw("\n");
  w.tag("text")
      .attr("class", "y-label")
      .attr("transform", "translate(20 " + w.num((top + height - bottom) / 2) + ") rotate(-90)")
      .attr("text-anchor", "middle")
      .open()
      .text(f.y_label + (f.log_y ? " (log scale)" : ""))
      .close("text")
      .raw("\n");

  // The series: simulated as lines, the paper's as open marks.
  std::vector<std::string> groups;  // the colour of a group is its index here
  std::vector<std::size_t> lines;   // per group: simulated series drawn so far
  std::size_t ungrouped = 0;
  double legend_y = top + 8;
  for (const series& s : f.curves) {
    std::vector<std::pair<double, double>> pts;
    for (const auto& [x, y] : s.points)
      if (shown(x, y)) pts.emplace_back(ax.pixel(x), ay.pixel(y));
    if (pts.empty()) continue;
    std::size_t index = 0;
    if (s.group.empty()) {
      index = groups.size() + ungrouped++;
    } else {
      const auto it = std::find(groups.begin(), groups.end(), s.group);
      index = static_cast<std::size_t>(it - groups.begin()) + ungrouped;
      if (it == groups.end()) {
        groups.push_back(s.group);
        lines.push_back(0);
      }
    }
    // The second and third line of a group (an envelope's average and minimum) are
    // dashed and dotted, so one colour still tells its lines apart.
    const char* dash = nullptr;
    if (!s.group.empty() && !s.paper) {
      const std::size_t g = static_cast<std::size_t>(
          std::find(groups.begin(), groups.end(), s.group) - groups.begin());
      const std::size_t k = lines[g]++;
      dash = k == 0 ? nullptr : k == 1 ? "7 4" : "2 3";
    }
    const char* colour = palette[index % palette.size()];
    auto mark = [&](double cx, double cy) {
      w.tag("circle").attr("cx", cx).attr("cy", cy).attr("r", 4).attr("fill", "none");
      w.attr("stroke", colour).attr("stroke-width", "1.5").leaf();
    };
    w.tag("g")
        .attr("class", "series")
        .attr("data-name", s.name)
        .attr("data-kind", s.paper ? "paper" : "simulated")
        .attr("data-points", pts.size())
        .open()
        .raw("\n");
    if (s.paper) {
      for (const auto& [px, py] : pts) {
        mark(px, py);
        w.raw("\n");
      }
    } else {
      w.tag("polyline").attr("fill", "none").attr("stroke", colour).attr("stroke-width", 2);
      if (dash != nullptr) w.attr("stroke-dasharray", dash);
      std::string points;
      for (const auto& [px, py] : pts)
        points += w.num(px) + ',' + w.num(py) + ' ';
      w.attr("points", points).leaf().raw("\n");
    }
    w.close("g").raw("\n");
    // Its legend entry: the swatch beside the name's first line, the name whole, wrapped
    // to the legend's column.
    const double lx = legend_x;
    w.tag("g").attr("class", "legend-entry").open();
    if (s.paper) {
      mark(lx + 10, legend_y);
    } else {
      w.tag("line").attr("x1", lx).attr("y1", legend_y).attr("x2", lx + 20).attr("y2", legend_y);
      w.attr("stroke", colour).attr("stroke-width", 2);
      if (dash != nullptr) w.attr("stroke-dasharray", dash);
      w.leaf();
    }
    const std::vector<std::string> name_lines =
        wrap_name(s.name, width - legend_margin - legend_text_x);
    w.tag("text").attr("x", legend_text_x).attr("y", legend_y + 4);
    w.attr("font-size", significant(legend_font, 6)).open();
    for (std::size_t i = 0; i < name_lines.size(); ++i) {
      w.tag("tspan")
          .attr("x", legend_text_x)
          .attr("y", legend_y + 4 + legend_line * static_cast<double>(i))
          .open()
          .text(name_lines[i])
          .close("tspan");
    }
    w.close("text").close("g").raw("\n");
    legend_y += legend_line * static_cast<double>(name_lines.size()) + legend_gap;
  }
  // The page: as tall as the plot, or as its legend where that is longer.
  const double page_height = std::max(height, legend_y + legend_margin);
  std::ostringstream page;
  svg_writer p{page, numbers::fixed2};
  p.raw(R"(<?xml version="1.0" encoding="UTF-8"?>)").raw("\n");
  p.root(significant(width, 6), p.num(page_height))
      .attr("font-family", "DejaVu Sans, Arial, sans-serif")
      .attr("font-size", 12)
      .open()
      .raw("\n");
  p.title(f.title).raw("\n");
  p.background("white").raw("\n");
  p.raw(os.str()).close("svg").raw("\n");
  return page.str();
}

}  // namespace tessera::pictures
