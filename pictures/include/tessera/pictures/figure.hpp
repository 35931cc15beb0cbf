// A line and point plot as a standalone SVG document: titled axes with their units,
// linear or log10 scales, published values as marks and simulated ones as lines, a
// legend. The reproduction figures (tessera reproduce --plots, the HTML report) and the
// sweep's load-latency plot are figures. Small on purpose: line and point plots only.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tessera::pictures {

// One curve or set of points of a figure; `paper` tells the published values from the
// simulated ones (drawn as marks and as lines, respectively).
struct series {
  std::string name;
  bool paper{false};
  std::vector<std::pair<double, double>> points;
  // Series of one group share a colour (the paper's values and the simulated ones of one
  // case); empty: a colour of its own.
  std::string group;
};

struct figure {
  std::string id;  // a file name stem: "grama-bcast"
  std::string title;
  std::string source;  // "Figure 2", "slide 21"
  std::string x_label;
  std::string y_label;
  bool log_x{false};
  bool log_y{false};
  std::vector<series> curves{};
};

// The SVG text of f (UTF-8, no external references). A series with no points is left
// out; on a log axis, points at or below 0 are left out (there is no place for them).
std::string to_svg(const figure& f);

}  // namespace tessera::pictures
