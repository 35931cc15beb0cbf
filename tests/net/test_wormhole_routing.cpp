// The wormhole routers' routing function (routing=xy|yx, docs/wormhole.md "Routing"):
// each engine takes the paths of its dimension order, derived here from the definition,
// and equals the flit reference routing the same way on random traffic.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "wormhole_test_util.hpp"

using namespace tessera;
using namespace tessera::net;
using namespace wormhole_test;

namespace {

// Packets that crossed each link "from->to NAME", as the engine reports them.
std::map<std::string, std::uint64_t> link_packets(const fabric& f, const wormhole_params& p,
                                                  const std::vector<timed_xfer>& msgs) {
  const auto e = make_wormhole_engine(f, p);
  replay(*e, msgs);
  std::map<std::string, std::uint64_t> out;
  for (const link_stat& s : e->links()) {
    if (s.name == "inject" || s.name == "eject") continue;
    out[std::to_string(s.from) + "->" + std::to_string(s.to) + " " + s.name] = s.messages;
  }
  return out;
}

}  // namespace

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
