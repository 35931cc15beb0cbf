// Routing on the tile: every route is a chain of existing links from source to
// destination whose length is the fabric's closed-form distance (e-cube: Hamming
// distance; XY: Manhattan distance; rings and tori: the shorter way round per dimension).
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "selftest.hpp"
#include "selftest_tests.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::selftest {
namespace {

constexpr std::uint32_t abs_diff(std::uint32_t a, std::uint32_t b) {
  return a > b ? a - b : b - a;
}

constexpr std::uint32_t ring_distance(std::uint32_t a, std::uint32_t b, std::uint32_t n) {
  const std::uint32_t d = abs_diff(a, b);
  return d < n - d ? d : n - d;
}

constexpr std::uint32_t closed_form(const fabric& f, std::uint32_t a, std::uint32_t b) {
  switch (f.kind) {
    case fabric_kind::hypercube:
      return static_cast<std::uint32_t>(std::popcount(a ^ b));
    case fabric_kind::ring:
      return ring_distance(a, b, f.cols);
    case fabric_kind::mesh:
      return abs_diff(a / f.cols, b / f.cols) + abs_diff(a % f.cols, b % f.cols);
    case fabric_kind::torus:
      return ring_distance(a / f.cols, b / f.cols, f.rows) +
             ring_distance(a % f.cols, b % f.cols, f.cols);
  }
  return 0;
}

// Largest route checked: max_hops of the fabrics below is at most 4.
constexpr std::uint32_t max_route = 8;

bool routes_ok(std::string_view spec) {
  const auto parsed = parse_fabric(spec);
  if (!parsed.ok()) {
    check(false) << spec << ": " << describe(parsed.error);
    return false;
  }
  const fabric& f = parsed.value;
  if (max_hops(f) > max_route) {
    check(false) << spec << ": routes longer than the test's buffer";
    return false;
  }
  std::array<link_id, max_route> links{};
  std::uint32_t routes = 0;
  for (std::uint32_t a = 0; a < f.tiles(); ++a) {
    for (std::uint32_t b = 0; b < f.tiles(); ++b) {
      const std::uint32_t hops = route(f, tile_id{a}, tile_id{b}, links);
      const std::uint32_t want = closed_form(f, a, b);
      bool ok = hops == want && hops == distance(f, tile_id{a}, tile_id{b});
      std::uint32_t at = a;
      for (std::uint32_t h = 0; ok && h < hops; ++h) {
        const link_ends ends = endpoints(f, links[h]);
        ok = link_exists(f, links[h]) && ends.from.value() == at;
        at = ends.to.value();
      }
      ok = ok && at == b;
      if (!ok) {
        check(false) << spec << ": route " << a << " -> " << b << " has " << hops
                     << " hops, closed form " << want;
        return false;
      }
      ++routes;
    }
  }
  check(true) << spec << ": " << routes
              << " routes chain source to destination at the closed-form length";
  return true;
}

}  // namespace

bool routes_match_closed_forms() {
  bool all = true;
  for (std::string_view spec : {"hypercube:3", "mesh:2x4", "torus:2x4", "ring:8"})
    all = routes_ok(spec) && all;
  return all;
}

}  // namespace tessera::selftest
