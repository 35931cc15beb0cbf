// The wormhole routers' routing function (routing=xy|yx, docs/wormhole.md "Routing"):
// each engine takes the paths of its dimension order, derived here from the definition,
// and equals the flit reference routing the same way on random traffic.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "wormhole_test_util.hpp"

using namespace tessera;
using namespace tessera::net;
using namespace wormhole_test;

TEST_CASE("routing: xy goes along the row first, yx along the column first", "[wormhole]") {
  // mesh:4x4, tiles row-major. 0 -> 5 is one column east and one row south; 4 -> 6 two
  // columns east in row 1. XY: 0 -> 1 E, 1 -> 5 S; 4 -> 5 E, 5 -> 6 E (disjoint). YX:
  // 0 -> 4 S, 4 -> 5 E; 4 -> 5 E, 5 -> 6 E: link 4 -> 5 carries both.
  const fabric f = fabric::mesh(4, 4);
  const std::vector<timed_xfer> msgs{{xfer{1, 0, 5, 64, false, 0}, 0},
                                     {xfer{2, 4, 6, 64, false, 0}, 0}};
  for (const std::uint32_t vcs : {1U, 2U}) {  // the closed form and the flit engine
    INFO("vcs " << vcs);
    wormhole_params p{.vcs = vcs};
    const std::map<std::string, std::uint64_t> xy{
        {"0->1 E", 1}, {"1->5 S", 1}, {"4->5 E", 1}, {"5->6 E", 1}};
    CHECK(link_packets(f, p, msgs) == xy);
    p.routing = mesh_routing::yx;
    const std::map<std::string, std::uint64_t> yx{{"0->4 S", 1}, {"4->5 E", 2}, {"5->6 E", 1}};
    CHECK(link_packets(f, p, msgs) == yx);
  }
}

TEST_CASE("routing: a lone message takes the same time either way (minimal paths)", "[wormhole]") {
  const fabric f = fabric::mesh(4, 5);
  for (const std::uint32_t vcs : {1U, 3U}) {
    for (const std::uint32_t dst : {1U, 6U, 19U, 15U}) {
      wormhole_params p{.router_delay = 2, .buffer = 3, .vcs = vcs};
      const auto a = run_engine(f, p, {{0, dst, 100, 0}});
      p.routing = mesh_routing::yx;
      const auto b = require_agreement(f, p, {{0, dst, 100, 0}});
      INFO("vcs " << vcs << " dst " << dst);
      CHECK(a[0].delivered == b[0].delivered);
      CHECK(b[0].delivered == paced_zero_load(hops(f, 0, dst), p, packet_flits(100, 4), 1));
    }
  }
}

TEST_CASE("routing yx: each engine equals the reference on random traffic", "[wormhole]") {
  const fabric f = fabric::mesh(4, 4);
  for (const std::uint32_t d : {0U, 1U}) {
    for (const std::uint32_t vcs : {1U, 2U, 4U}) {
      for (const std::uint32_t gap : {1U, 3U}) {
        for (std::uint32_t seed = 1; seed <= 10; ++seed) {
          random_case c = random_traffic(seed, gap, vcs, d);
          c.p.routing = mesh_routing::yx;
          INFO("seed " << seed);
          require_agreement(f, c.p, c.jobs);
        }
      }
    }
  }
}

// ---- O1TURN and the turn-model adaptive routings ----------------------------------------

namespace {

// The turns each routing forbids, from its definition (ports by direction of travel:
// 0 E, 1 W, 2 S with the row growing, 3 N): Glass and Ni's turn model for west-first
// (no turn into W), north-last (no turn out of N) and negative-first (no turn from E or
// S into W or N); Chiu's odd-even (no E->N or E->S in an even column, no N->W or S->W in
// an odd one); XY (no turn from a row into a column direction) and YX (the reverse).
bool forbidden(mesh_routing r, std::uint32_t from, std::uint32_t to, std::uint32_t col,
               bool yx_class) {
  const bool from_row = from >= 2;
  const bool to_row = to >= 2;
  switch (r) {
    case mesh_routing::xy:
      return from_row && !to_row;
    case mesh_routing::yx:
      return !from_row && to_row;
    case mesh_routing::o1turn:
      return yx_class ? (!from_row && to_row) : (from_row && !to_row);
    case mesh_routing::west_first:
      return to == 1 && from != 1;
    case mesh_routing::north_last:
      return from == 3 && to != 3;
    case mesh_routing::negative_first:
      return (from == 0 || from == 2) && (to == 1 || to == 3);
    case mesh_routing::odd_even:
      return col % 2 == 0 ? (from == 0 && to_row) : (from_row && to == 1);
  }
  return true;
}

std::uint64_t binomial(std::uint32_t n, std::uint32_t k) {
  std::uint64_t b = 1;
  for (std::uint32_t i = 1; i <= k; ++i)
    b = b * (n - k + i) / i;
  return b;
}

// Every path from src to dst that following allowed() can take, counted; fails the test
// on a step that is not minimal or a turn the routing forbids. `from` is the direction the
// packet arrived in, 5 at its source.
std::uint64_t paths(mesh_routing r, std::uint32_t cols, std::uint32_t at, std::uint32_t dst,
                    std::uint32_t src, std::uint32_t from, bool yx_class) {
  if (at == dst) return 1;
  const mesh_place here{at % cols, at / cols};
  const mesh_choice c =
      allowed(r, here, {dst % cols, dst / cols}, {src % cols, src / cols}, yx_class);
  std::uint64_t n = 0;
  for (const std::uint32_t o : {c.col_port, c.row_port}) {
    if (o == mesh_port::local) continue;
    const std::uint32_t next = o == 0 ? at + 1 : o == 1 ? at - 1 : o == 2 ? at + cols : at - cols;
    const auto dist = [&](std::uint32_t a) {
      const auto d = [](std::uint32_t x, std::uint32_t y) { return x > y ? x - y : y - x; };
      return d(a % cols, dst % cols) + d(a / cols, dst / cols);
    };
    REQUIRE(dist(next) + 1 == dist(at));
    if (from != 5) REQUIRE_FALSE(forbidden(r, from, o, here.col, yx_class));
    n += paths(r, cols, next, dst, src, o, yx_class);
  }
  REQUIRE(n > 0);  // never stuck short of the destination
  return n;
}

}  // namespace

TEST_CASE("routing functions: minimal, within their turn rules, as adaptive as defined",
          "[wormhole]") {
  // On a 7x7 mesh, every source and destination: following the allowed outputs always
  // reaches the destination by minimal steps and forbidden turns never occur. The number
  // of paths is the definition's: XY, YX and O1TURN one; west-first every minimal path
  // unless the destination lies west (then one); north-last every one unless it lies
  // north; negative-first every one when both offsets have the same sign; odd-even at
  // least one and at most all.
  constexpr std::uint32_t n = 7;
  for (std::uint8_t ri = 0; ri < mesh_routing_names.size(); ++ri) {
    const auto r = static_cast<mesh_routing>(ri);
    for (std::uint32_t s = 0; s < n * n; ++s) {
      for (std::uint32_t d = 0; d < n * n; ++d) {
        for (const bool yx_class : {false, true}) {
          INFO(mesh_routing_names[ri] << " " << s << "->" << d << " class " << yx_class);
          const std::uint64_t got = paths(r, n, s, d, s, 5, yx_class);
          const std::int64_t dc = static_cast<std::int64_t>(d % n) - (s % n);
          const std::int64_t dr = static_cast<std::int64_t>(d / n) - (s / n);
          const auto adc = static_cast<std::uint32_t>(dc < 0 ? -dc : dc);
          const auto adr = static_cast<std::uint32_t>(dr < 0 ? -dr : dr);
          const std::uint64_t all = binomial(adc + adr, adc);
          switch (r) {
            case mesh_routing::xy:
            case mesh_routing::yx:
            case mesh_routing::o1turn:
              CHECK(got == 1);
              break;
            case mesh_routing::west_first:
              CHECK(got == (dc < 0 ? 1 : all));
              break;
            case mesh_routing::north_last:
              CHECK(got == (dr < 0 ? 1 : all));
              break;
            case mesh_routing::negative_first:
              CHECK(got == ((dc <= 0 && dr <= 0) || (dc >= 0 && dr >= 0) ? all : 1));
              break;
            case mesh_routing::odd_even:
              CHECK(got >= 1);
              CHECK(got <= all);
              break;
          }
        }
      }
    }
  }
}

TEST_CASE("routing o1turn: a tile's packets alternate between XY and YX", "[wormhole]") {
  // Two messages 0 -> 5 on mesh:4x4, one after the other: the first goes XY (0->1 E,
  // 1->5 S), the second YX (0->4 S, 4->5 E). With packet_bytes 32, one 64-byte message
  // is two packets and takes both paths.
  const fabric f = fabric::mesh(4, 4);
  wormhole_params p{.vcs = 2};
  p.routing = mesh_routing::o1turn;
  const std::map<std::string, std::uint64_t> both{
      {"0->1 E", 1}, {"1->5 S", 1}, {"0->4 S", 1}, {"4->5 E", 1}};
  CHECK(link_packets(f, p, {{xfer{1, 0, 5, 64, false, 0}, 0}, {xfer{2, 0, 5, 64, false, 0}, 0}}) ==
        both);
  p.packet_bytes = 32;
  CHECK(link_packets(f, p, {{xfer{1, 0, 5, 64, false, 0}, 0}}) == both);
}

TEST_CASE("routing adaptive: a head takes the output with more credits", "[wormhole]") {
  // mesh:4x4, one VC. Message A, 0 -> 3, streams 400 flits east along row 0 from cycle 0.
  // Message B, 1 -> 6 (one column east, one row south), is posted at cycle 50, when A's
  // worm holds link 1->2 and uses credits behind it. Under XY, B must cross 1->2 and
  // waits for A's tail; under west-first, north-last, negative-first and odd-even (tile
  // 1 is in an odd column) B may go south first, where every credit is free, and
  // arrives at its zero-load time.
  const fabric f = fabric::mesh(4, 4);
  wormhole_params p{.width = 1, .router_delay = 1, .buffer = 4};
  const std::vector<job> jobs{{0, 3, 400, 0}, {1, 6, 20, 50}};
  const cycle_t lone = 50 + paced_zero_load(hops(f, 1, 6), p, 20, 1);
  const auto xy = run_engine(f, p, jobs);
  CHECK(xy[1].delivered > lone + 300);  // behind A's 400-flit tail
  for (const mesh_routing r : {mesh_routing::west_first, mesh_routing::north_last,
                               mesh_routing::negative_first, mesh_routing::odd_even}) {
    p.routing = r;
    INFO(mesh_routing_names[static_cast<std::size_t>(r)]);
    const auto t = require_agreement(f, p, jobs);
    CHECK(t[1].delivered == lone);
    CHECK(t[0].delivered == xy[0].delivered);  // A never noticed B
    CHECK(link_packets(f, p, {{xfer{1, 0, 3, 400, false, 0}, 0}, {xfer{2, 1, 6, 20, false, 0}, 50}})
              .count("1->5 S") == 1);
  }
}

TEST_CASE("routing o1turn and adaptive: each engine equals the reference on random traffic",
          "[wormhole]") {
  const fabric f = fabric::mesh(4, 4);
  for (std::uint8_t ri = 2; ri < mesh_routing_names.size(); ++ri) {
    const auto r = static_cast<mesh_routing>(ri);
    for (const std::uint32_t vcs : {1U, 2U, 3U}) {
      const std::uint32_t v = r == mesh_routing::o1turn ? vcs + 1 : vcs;
      for (const std::uint32_t gap : {1U, 2U}) {
        for (std::uint32_t seed = 1; seed <= 6; ++seed) {
          // Credits back at once (d = 0, the flit engine and the reference only) for some
          // seeds: a route weighs the credits as they stood at the cycle's start.
          random_case c = random_traffic(100 + seed, gap, v, seed % 3 == 0 ? 0 : 1);
          c.p.routing = r;
          INFO(mesh_routing_names[ri] << " vcs " << v << " gap " << gap << " seed " << seed);
          require_agreement(f, c.p, c.jobs);
        }
      }
    }
  }
}

TEST_CASE("routing: configurations beyond the models are refused", "[wormhole]") {
  const fabric f = fabric::mesh(4, 4);
  wormhole_params p{.vcs = 1};
  p.routing = mesh_routing::o1turn;
  CHECK_THROWS_WITH(make_wormhole_engine(f, p),
                    "wormhole: param routing o1turn needs vcs >= 2 (a VC class for XY packets "
                    "and one for YX), got vcs 1");
  p.vcs = 2;
  p.share = vc_share::fixed;
  p.routing = mesh_routing::odd_even;
  CHECK_THROWS_WITH(make_wormhole_engine(f, p),
                    "wormhole: param routing odd-even with vc_share=fixed is not modelled (the "
                    "fixed share is the closed form's, which routes in dimension order: xy or "
                    "yx)");
  p.share = vc_share::round_robin;
  p.vcs = 1;
  p.routing = mesh_routing::west_first;
  CHECK_THROWS_AS(std::make_unique<wormhole_engine>(f, p),
                  tessera::input_error);      // the closed form: dimension order
  CHECK_NOTHROW(make_wormhole_engine(f, p));  // the flit engine takes it
}

TEST_CASE("pipeline and credit delay: the flit engine equals the reference", "[wormhole]") {
  // Deeper router pipelines with several credit delays, under XY and an adaptive routing
  // (whose selection reads the credits the deeper loop holds back).
  const fabric f = fabric::mesh(4, 4);
  for (const std::uint32_t pipe : {2U, 3U}) {
    for (const std::uint32_t d : {1U, 3U}) {
      for (const mesh_routing r : {mesh_routing::xy, mesh_routing::odd_even}) {
        for (const std::uint32_t vcs : {1U, 2U}) {
          for (std::uint32_t seed = 1; seed <= 4; ++seed) {
            random_case c = random_traffic(200 + seed, 1, vcs, d);
            c.p.pipeline = pipe;
            c.p.routing = r;
            INFO("pipeline " << pipe << " d " << d << " "
                             << mesh_routing_names[static_cast<std::size_t>(r)] << " vcs " << vcs
                             << " seed " << seed);
            require_agreement(f, c.p, c.jobs);
          }
        }
      }
    }
  }
}
