// A figure of a reproduction drawn as a standalone SVG document: titled axes with their
// units, linear or log10 scales, the paper's values as marks and the simulated ones as
// lines, a legend. Small on purpose: the figures are line and point plots only.
#pragma once

#include <string>

#include "tessera/reproduce/report.hpp"

namespace tessera::reproduce {

// The SVG text of f (UTF-8, no external references). A series with no points is left
// out; on a log axis, points at or below 0 are left out (there is no place for them).
std::string to_svg(const figure& f);

}  // namespace tessera::reproduce
