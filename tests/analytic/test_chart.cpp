// The Bokhari-style link-usage chart as text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <vector>

#include "tessera/analytic/analysis.hpp"
#include "tessera/analytic/chart.hpp"
#include "tessera/schedule/build.hpp"

using namespace tessera;

namespace {
std::vector<std::vector<std::string>> cells(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> row;
    std::string w;
    while (ls >> w)
      row.push_back(w);
    out.push_back(row);
  }
  return out;
}
}  // namespace

TEST_CASE("pairwise chart on 8 tiles: rows, columns and Fig. 8 entries", "[chart][bokhari]") {
  const auto f = fabric::hypercube(3);
  const auto a = analytic::analyze(build_alltoall(fw::a2a_algorithm::pairwise, f, 8), f,
                                   analytic::switching::circuit, {});
  const auto t = cells(analytic::link_chart(f, a.list, a.slots->slot_of));
  // Header: 8 nodes x 3 directed links; then one row per ordered pair.
  REQUIRE(t.size() == 1 + 56);
  REQUIRE(t[0].size() == 24);
  const auto& header = t[0];
  auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  // Fig. 8: the exchange 000 -- 101 in step 5 holds 000->001 and 001->101.
  for (const auto& row : t) {
    if (row.empty() || row[0] != "000->101") continue;
    CHECK(row[1 + column("000>001")] == "5");
    CHECK(row[1 + column("001>101")] == "5");
    std::size_t used = 0;
    for (std::size_t k = 1; k < row.size(); ++k)
      used += row[k] != "." ? 1U : 0U;
    CHECK(used == 2);
  }
}
