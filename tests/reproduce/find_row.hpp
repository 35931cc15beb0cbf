// A paper report's row by its `what` (and its `source`, where two sections name rows
// alike), for the reproduce tests; nullptr when there is none.
#pragma once

#include <string>

#include "tessera/reproduce/report.hpp"

namespace tessera::test {

inline const reproduce::row* find_row(const reproduce::paper_report& r, const std::string& what) {
  for (const reproduce::row& x : r.rows)
    if (x.what == what) return &x;
  return nullptr;
}

inline const reproduce::row* find_row(const reproduce::paper_report& r, const std::string& source,
                                      const std::string& what) {
  for (const reproduce::row& x : r.rows)
    if (x.source == source && x.what == what) return &x;
  return nullptr;
}

}  // namespace tessera::test
