// Routing on every fabric, checked against the papers' worked examples and against
// reference walks written here from the routing definitions.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

using namespace tessera;

namespace {

// The tiles a route visits, source first.
std::vector<std::uint32_t> visits(const fabric& f, std::uint32_t s, std::uint32_t d) {
  std::vector<std::uint32_t> out{s};
  for_each_hop(f, tile_id{s}, tile_id{d}, [&](link_id l) {
    const auto e = endpoints(f, l);
    REQUIRE(e.from.value() == out.back());  // links chain head to tail
    out.push_back(e.to.value());
  });
  return out;
}

bool uses_link(const fabric& f, std::uint32_t s, std::uint32_t d, std::uint32_t a,
               std::uint32_t b) {
  const auto v = visits(f, s, d);
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    if (v[i] == a && v[i + 1] == b) return true;
  }
  return false;
}

}  // namespace

static_assert(distance(fabric::hypercube(3), tile_id{0}, tile_id{7}) == 3);
static_assert(distance(fabric::mesh(16, 32), tile_id{0}, tile_id{511}) == 15 + 31);

TEST_CASE("e-cube routes of Bokhari Fig. 1 (Bokhari91 §2)", "[routing]") {
  const auto h = fabric::hypercube(5);
  CHECK(visits(h, 0, 31) == std::vector<std::uint32_t>{0, 1, 3, 7, 15, 31});
  CHECK(visits(h, 2, 23) == std::vector<std::uint32_t>{2, 3, 7, 23});
  CHECK(visits(h, 14, 11) == std::vector<std::uint32_t>{14, 15, 11});
  // "The paths 0->31 and 2->23 share the edge 3-7"
  CHECK(uses_link(h, 0, 31, 3, 7));
  CHECK(uses_link(h, 2, 23, 3, 7));
}

TEST_CASE("Bokhari's eight paths all cross edge 7->15 of a 7-cube (§2.3)", "[routing]") {
  const auto h = fabric::hypercube(7);
  const std::vector<std::vector<std::uint32_t>> paper = {{0, 1, 3, 7, 15, 31, 63, 127},
                                                         {1, 3, 7, 15, 31, 63},
                                                         {3, 7, 15, 31},
                                                         {7, 15},
                                                         {5, 7, 15, 79},
                                                         {6, 7, 15, 47},
                                                         {2, 3, 7, 15, 31, 95},
                                                         {4, 5, 7, 15, 47, 111}};
  for (const auto& path : paper) {
    CHECK(visits(h, path.front(), path.back()) == path);
    CHECK(uses_link(h, path.front(), path.back(), 7, 15));
  }
}

TEST_CASE("e-cube example of Boppana90 §3.1", "[routing]") {
  // "the path set up between processors 3 and 12 in Q4 goes through 2, 0 and 4"
  CHECK(visits(fabric::hypercube(4), 3, 12) == std::vector<std::uint32_t>{3, 2, 0, 4, 12});
}

TEST_CASE("mesh XY routes: along the row first, then the column", "[routing]") {
  const auto f = fabric::mesh(4, 5);
  for (std::uint32_t s = 0; s < f.tiles(); ++s) {
    for (std::uint32_t d = 0; d < f.tiles(); ++d) {
      // Reference walk on (row, col) coordinates.
      std::vector<std::uint32_t> ref{s};
      int r = static_cast<int>(s / 5);
      int c = static_cast<int>(s % 5);
      const int dr = static_cast<int>(d / 5);
      const int dc = static_cast<int>(d % 5);
      while (c != dc) {
        c += dc > c ? 1 : -1;
        ref.push_back(static_cast<std::uint32_t>(r * 5 + c));
      }
      while (r != dr) {
        r += dr > r ? 1 : -1;
        ref.push_back(static_cast<std::uint32_t>(r * 5 + c));
      }
      REQUIRE(visits(f, s, d) == ref);
      REQUIRE(distance(f, tile_id{s}, tile_id{d}) <= max_hops(f));
    }
  }
}

TEST_CASE("torus routes go the shorter way, positive on a tie", "[routing]") {
  const auto f = fabric::torus(4, 6);
  // Row 0: column 0 -> 3 is 3 hops either way: tie, so east.
  CHECK(visits(f, 0, 3) == std::vector<std::uint32_t>{0, 1, 2, 3});
  // Column 0 -> 4 is shorter west (2 hops through the wrap link).
  CHECK(visits(f, 0, 4) == std::vector<std::uint32_t>{0, 5, 4});
  // Row 0 -> row 2 (4 rows): tie, so south; then row 0 -> row 3: north through the wrap.
  CHECK(visits(f, 0, 12) == std::vector<std::uint32_t>{0, 6, 12});
  CHECK(visits(f, 0, 18) == std::vector<std::uint32_t>{0, 18});
  for (std::uint32_t s = 0; s < f.tiles(); ++s) {
    for (std::uint32_t d = 0; d < f.tiles(); ++d) {
      const int dr = std::abs(static_cast<int>(s / 6) - static_cast<int>(d / 6));
      const int dc = std::abs(static_cast<int>(s % 6) - static_cast<int>(d % 6));
      const auto expect = static_cast<std::uint32_t>(std::min(dr, 4 - dr) + std::min(dc, 6 - dc));
      REQUIRE(distance(f, tile_id{s}, tile_id{d}) == expect);
      REQUIRE(expect <= max_hops(f));
    }
  }
}

TEST_CASE("ring routes go the shorter way, positive on a tie", "[routing]") {
  const auto f = fabric::ring(8);
  CHECK(visits(f, 0, 4) == std::vector<std::uint32_t>{0, 1, 2, 3, 4});
  CHECK(visits(f, 0, 5) == std::vector<std::uint32_t>{0, 7, 6, 5});
  CHECK(visits(f, 6, 1) == std::vector<std::uint32_t>{6, 7, 0, 1});
  const auto two = fabric::ring(2);
  CHECK(visits(two, 1, 0) == std::vector<std::uint32_t>{1, 0});
}

TEST_CASE("hypercube routes have Hamming-distance length", "[routing]") {
  const auto f = fabric::hypercube(6);
  for (std::uint32_t s = 0; s < 64; ++s) {
    for (std::uint32_t d = 0; d < 64; ++d) {
      REQUIRE(distance(f, tile_id{s}, tile_id{d}) ==
              static_cast<std::uint32_t>(__builtin_popcount(s ^ d)));
    }
  }
}
