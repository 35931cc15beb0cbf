// The papers' reports as one self-contained HTML page (`tessera reproduce ... --html`):
// a summary, then per paper its figures inline (SVG) and its rows by source, failed rows
// marked. No script, no external reference: it opens from a file in any browser.
#pragma once

#include <string>
#include <vector>

#include "tessera/reproduce/report.hpp"

namespace tessera::reproduce {

std::string to_html(const std::vector<paper_report>& reports);

}  // namespace tessera::reproduce
