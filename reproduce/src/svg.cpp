#include "tessera/reproduce/svg.hpp"
#include "tessera/common/input.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string_view>
#include <vector>

namespace tessera::reproduce {
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

std::string num(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << v;
  return os.str();
}

// A tick label: short, no trailing zeros.
std::string tick_text(double v) {
  std::ostringstream os;
  if (v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-3)) {
    os << std::setprecision(3) << v;
  } else {
    os << std::setprecision(6) << v;
  }
  return os.str();
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

  // The page is written after the figure, whose legend may make it taller.
  std::ostringstream os;
  os << R"(<text x=")" << num((left + width - right) / 2) << R"(" y="22" text-anchor="middle" )"
     << R"(font-size="15" font-weight="bold">)" << escape_markup(f.title) << "</text>\n";
  if (!f.source.empty()) {
    os << R"(<text x=")" << num((left + width - right) / 2)
       << R"(" y="38" text-anchor="middle" fill="#555">)" << escape_markup(f.source) << "</text>\n";
  }
  // Frame, grid and ticks.
  os << R"(<g class="axes" stroke="#222" fill="none">)" << '\n';
  os << R"(<rect x=")" << num(left) << R"(" y=")" << num(top) << R"(" width=")"
     << num(width - right - left) << R"(" height=")" << num(height - bottom - top) << R"("/>)"
     << '\n';
  os << "</g>\n";
  os << R"(<g class="ticks" font-size="11">)" << '\n';
  for (const double t : ax.ticks()) {
    const double px = ax.pixel(t);
    os << R"(<line x1=")" << num(px) << R"(" y1=")" << num(top) << R"(" x2=")" << num(px)
       << R"(" y2=")" << num(height - bottom) << R"(" stroke="#ddd"/>)";
    os << R"(<text x=")" << num(px) << R"(" y=")" << num(height - bottom + 16)
       << R"(" text-anchor="middle">)" << tick_text(t) << "</text>\n";
  }
  for (const double t : ay.ticks()) {
    const double py = ay.pixel(t);
    os << R"(<line x1=")" << num(left) << R"(" y1=")" << num(py) << R"(" x2=")"
       << num(width - right) << R"(" y2=")" << num(py) << R"(" stroke="#ddd"/>)";
    os << R"(<text x=")" << num(left - 6) << R"(" y=")" << num(py + 4) << R"(" text-anchor="end">)"
       << tick_text(t) << "</text>\n";
  }
  os << "</g>\n";
  os << R"(<text class="x-label" x=")" << num((left + width - right) / 2) << R"(" y=")"
     << num(height - 18) << R"(" text-anchor="middle">)" << escape_markup(f.x_label)
     << (f.log_x ? " (log scale)" : "") << "</text>\n";
  os << R"(<text class="y-label" transform="translate(20 )" << num((top + height - bottom) / 2)
     << ") rotate(-90)\" text-anchor=\"middle\">" << escape_markup(f.y_label)
     << (f.log_y ? " (log scale)" : "") << "</text>\n";

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
    const char* dash = "";
    if (!s.group.empty() && !s.paper) {
      const std::size_t g = static_cast<std::size_t>(
          std::find(groups.begin(), groups.end(), s.group) - groups.begin());
      const std::size_t k = lines[g]++;
      dash = k == 0 ? "" : k == 1 ? R"( stroke-dasharray="7 4")" : R"( stroke-dasharray="2 3")";
    }
    const char* colour = palette[index % palette.size()];
    os << R"(<g class="series" data-name=")" << escape_markup(s.name) << R"(" data-kind=")"
       << (s.paper ? "paper" : "simulated") << R"(" data-points=")" << pts.size() << R"(">)"
       << '\n';
    if (s.paper) {
      for (const auto& [px, py] : pts) {
        os << R"(<circle cx=")" << num(px) << R"(" cy=")" << num(py) << R"(" r="4" fill="none" )"
           << R"(stroke=")" << colour << R"(" stroke-width="1.5"/>)" << '\n';
      }
    } else {
      os << R"(<polyline fill="none" stroke=")" << colour << R"(" stroke-width="2")" << dash
         << R"( points=")";
      for (const auto& [px, py] : pts)
        os << num(px) << ',' << num(py) << ' ';
      os << R"("/>)" << '\n';
    }
    os << "</g>\n";
    // Its legend entry: the swatch beside the name's first line, the name whole, wrapped
    // to the legend's column.
    const double lx = legend_x;
    os << R"(<g class="legend-entry">)";
    if (s.paper) {
      os << R"(<circle cx=")" << num(lx + 10) << R"(" cy=")" << num(legend_y) << R"(" r="4" )"
         << R"(fill="none" stroke=")" << colour << R"(" stroke-width="1.5"/>)";
    } else {
      os << R"(<line x1=")" << num(lx) << R"(" y1=")" << num(legend_y) << R"(" x2=")"
         << num(lx + 20) << R"(" y2=")" << num(legend_y) << R"(" stroke=")" << colour
         << R"(" stroke-width="2")" << dash << "/>";
    }
    const std::vector<std::string> name_lines =
        wrap_name(s.name, width - legend_margin - legend_text_x);
    os << R"(<text x=")" << num(legend_text_x) << R"(" y=")" << num(legend_y + 4)
       << R"(" font-size=")" << legend_font << R"(">)";
    for (std::size_t i = 0; i < name_lines.size(); ++i) {
      os << R"(<tspan x=")" << num(legend_text_x) << R"(" y=")"
         << num(legend_y + 4 + legend_line * static_cast<double>(i)) << R"(">)"
         << escape_markup(name_lines[i]) << "</tspan>";
    }
    os << "</text></g>\n";
    legend_y += legend_line * static_cast<double>(name_lines.size()) + legend_gap;
  }
  // The page: as tall as the plot, or as its legend where that is longer.
  const double page_height = std::max(height, legend_y + legend_margin);
  std::ostringstream page;
  page << R"(<?xml version="1.0" encoding="UTF-8"?>)" << '\n'
       << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << width << R"(" height=")"
       << num(page_height) << R"(" viewBox="0 0 )" << width << ' ' << num(page_height)
       << R"(" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">)" << '\n';
  page << "<title>" << escape_markup(f.title) << "</title>\n";
  page << R"(<rect width="100%" height="100%" fill="white"/>)" << '\n';
  page << os.str() << "</svg>\n";
  return page.str();
}

}  // namespace tessera::reproduce
