// Known deviations: the rows that miss their tolerance for a reason analysed in
// docs/reproduction.md, each held at the value it was analysed at. The table
// (known_deviations(), src/known.cpp) is the one place they are listed; judge() gives
// every row of a report its verdict against it (docs/reproduction.md, "Known
// deviations").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/reproduce/report.hpp"

namespace tessera::reproduce {

struct known_deviation {
  std::string_view paper;  // "thakur"
  std::string_view model;  // the report's model_name it applies to: "tlm", "analytic"
  std::string_view id;     // the row's id
  // The simulated value it was analysed at. A deterministic row must keep it exactly
  // (lo == hi). A seeded row (its value a statistic of jittered runs) must stay within
  // [lo, hi], the envelope the analysis recorded, and the entry holds only at the run
  // count it was analysed at (seed_option's value in the report's seeds).
  double lo{0};
  double hi{0};
  std::string_view seed_option;  // "" (deterministic), "seeds" or "envelope-seeds"
  std::uint32_t seed_count{0};
  std::string reason;    // one sentence
  std::string_view doc;  // "docs/reproduction.md#anchor": the analysis
};

// The committed table.
const std::vector<known_deviation>& known_deviations();

// Gives r's rows their verdicts against `table` (the entries of r.paper and
// r.model_name): a row within its tolerance passes; a row that misses it is a known
// deviation when an entry names it and its value is still the analysed one, and fails
// otherwise. Records in r.problems, one line each naming the row id: a failing row with
// no entry, an entry whose row's value moved, an entry whose row now passes, and (for a
// complete report) an entry naming no row of it. The last two are stale entries.
void judge(paper_report& r, const std::vector<known_deviation>& table);

}  // namespace tessera::reproduce
