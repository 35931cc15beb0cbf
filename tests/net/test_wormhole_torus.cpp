// The wormhole torus (torus:RxC, docs/wormhole.md "The wormhole torus"): the mesh router
// with wraparound links, dimension order the shorter way round each ring, dateline VC
// classes. The paths are derived here from that definition, zero-load times from the
// formula, and the flit engine equals the flit reference (which keeps a head's dateline
// state as a bit it carries, not as the engine's formula) on random traffic.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/net/flit_engine.hpp"
#include "wormhole_test_util.hpp"

using namespace tessera;
using namespace tessera::net;
using namespace wormhole_test;

namespace {

// The links of the route a -> b on a rows x cols torus, derived from the definition: per
// dimension (columns first under xy), count the hops both ways round the ring and step the
// shorter way, east or south when they are as many.
std::map<std::string, std::uint64_t> torus_path(std::uint32_t rows, std::uint32_t cols,
                                                std::uint32_t a, std::uint32_t b, bool yx) {
  std::map<std::string, std::uint64_t> out;
  std::uint32_t r = a / cols;
  std::uint32_t c = a % cols;
  const std::uint32_t br = b / cols;
  const std::uint32_t bc = b % cols;
  auto step_cols = [&] {
    const std::uint32_t east = (bc + cols - c) % cols;
    const std::uint32_t west = (c + cols - bc) % cols;
    const bool go_east = east <= west;
    for (std::uint32_t k = 0; k < (go_east ? east : west); ++k) {
      const std::uint32_t n = go_east ? (c + 1) % cols : (c + cols - 1) % cols;
      out[std::to_string(r * cols + c) + "->" + std::to_string(r * cols + n) +
          (go_east ? " E" : " W")] = 1;
      c = n;
    }
  };
  auto step_rows = [&] {
    const std::uint32_t south = (br + rows - r) % rows;
    const std::uint32_t north = (r + rows - br) % rows;
    const bool go_south = south <= north;
    for (std::uint32_t k = 0; k < (go_south ? south : north); ++k) {
      const std::uint32_t n = go_south ? (r + 1) % rows : (r + rows - 1) % rows;
      out[std::to_string(r * cols + c) + "->" + std::to_string(n * cols + c) +
          (go_south ? " S" : " N")] = 1;
      r = n;
    }
  };
  if (yx) {
    step_rows();
    step_cols();
  } else {
    step_cols();
    step_rows();
  }
  return out;
}

}  // namespace

TEST_CASE("wormhole torus: every route is dimension order the shorter way, east or south on a tie",
          "[wormhole]") {
  // Odd and even rings (ties on the even ones) and two-wide rings, whose two links join
  // the same tiles.
  for (const auto& [rows, cols] : {std::pair{4U, 5U}, std::pair{6U, 6U}, std::pair{2U, 3U}}) {
    const fabric f = fabric::torus(rows, cols);
    for (const mesh_routing r : {mesh_routing::xy, mesh_routing::yx}) {
      wormhole_params p{.vcs = 2};
      p.routing = r;
      for (std::uint32_t a = 0; a < f.tiles(); ++a) {
        for (std::uint32_t b = 0; b < f.tiles(); ++b) {
          if (a == b) continue;
          INFO(rows << "x" << cols << " " << a << "->" << b << " yx " << (r == mesh_routing::yx));
          const auto path = torus_path(rows, cols, a, b, r == mesh_routing::yx);
          CHECK(link_packets(f, p, {{xfer{1, a, b, 24, false, 0}, 0}}) == path);
          CHECK(path.size() == hops(f, a, b));
        }
      }
    }
  }
}

TEST_CASE("wormhole torus: a lone message takes the zero-load time of its hops", "[wormhole]") {
  // The wraparound link is one more hop: tile 0 to tile 7 of an 8x8 torus is one hop west
  // (seven on the mesh), 0 -> 36 four and four (a tie both ways: east and south).
  const fabric f = fabric::torus(8, 8);
  wormhole_params p{.width = 4, .router_delay = 2, .buffer = 3, .alpha = 5, .vcs = 2};
  for (const std::uint32_t pipe : {1U, 3U}) {
    p.pipeline = pipe;
    for (const auto& [dst, h] : {std::pair{7U, 1U}, std::pair{36U, 8U}, std::pair{63U, 2U},
                                 std::pair{57U, 2U}, std::pair{27U, 6U}}) {
      INFO("0 -> " << dst << " pipeline " << pipe);
      REQUIRE(hops(f, 0, dst) == h);
      const std::uint64_t bytes = 4 * 20;  // 20 flits
      const auto t = require_agreement(f, p, {{0, dst, bytes, 0, false}});
      const std::uint64_t flits = 20;
      // docs/wormhole.md "Zero load" with g = s = 1 and the pipeline's p cycles a hop:
      // alpha + 1 + (F - 1) + (h + 1)(r + p), the buffers of 3 never stalling (p + d <= B
      // for p = 1; for p = 3 a slot's round trip 4 exceeds B = 3 and every further B flits
      // wait one cycle).
      const std::uint64_t turn = pipe + p.credit_delay;
      const std::uint64_t loop = turn > p.buffer ? turn - p.buffer : 0;
      CHECK(t[0].delivered == p.alpha + 1 + (flits - 1) + (h + 1) * (p.router_delay + pipe) +
                                  (flits - 1) / p.buffer * loop);
    }
  }
}

TEST_CASE("wormhole torus: a head takes a VC of its dateline class", "[wormhole]") {
  // A 1x6 ring, 2 VCs: class 0 is VC 0, class 1 VC 1. A long worm A (0 -> 2, paced at a
  // flit every 2 cycles, so a link it holds has a free cycle in two for another header)
  // holds VC 0 of link 1->2. C (1 -> 3) is class 0 there too, so it waits for A's tail
  // although VC 1 is free; on the 1x6 mesh it takes VC 1 at once. D (5 -> 2, three hops
  // either way, so east over the wraparound link 5->0) is class 1 from its first hop and
  // shares the links with A at once.
  const fabric ring = fabric::torus(1, 6);
  const fabric line = fabric::mesh(1, 6);
  const wormhole_params p{.width = 4, .router_delay = 1, .buffer = 4, .inject_gap = 2, .vcs = 2};
  const std::vector<job> c_jobs{{0, 2, 4 * 200, 0, false}, {1, 3, 4 * 4, 20, false}};
  const auto torus_c = require_agreement(ring, p, c_jobs);
  const auto mesh_c = require_agreement(line, p, c_jobs);
  // The lone C: 4 flits paced at 2 over 2 hops, docs/wormhole.md "Zero load".
  const cycle_t lone = 20 + paced_zero_load(2, p, 4, 1);
  CHECK(mesh_c[1].delivered <= lone + 4);  // on the mesh, at most a few cycles' wait
  // On the torus C's head goes once A's tail has crossed 1->2: A's 200 flits leave its
  // NIC one every 2 cycles.
  CHECK(torus_c[1].delivered > 2 * 200);
  const std::vector<job> d_jobs{{0, 2, 4 * 200, 0, false}, {5, 2, 4 * 4, 20, false}};
  const auto torus_d = require_agreement(ring, p, d_jobs);
  // D shares three channels with A (0->1, 1->2 and the ejection at 2), where each of its
  // 4 flits may lose a cycle to one of A's: far from A's 400 cycles.
  CHECK(torus_d[1].delivered <= 20 + paced_zero_load(3, p, 4, 1) + 3 * 4);
  CHECK(link_packets(ring, p, {{xfer{1, 5, 2, 16, false, 0}, 0}}) == torus_path(1, 6, 5, 2, false));
}

TEST_CASE("wormhole torus: rings full of worms in one direction do not deadlock", "[wormhole]") {
  // Every tile of each ring sends long worms half way round, east (a tie), all at once:
  // with one VC class they would close the ring into a cycle of waits; the dateline class
  // of the wraparound link breaks it. Two-flit buffers, so the worms stretch over many
  // routers.
  for (const auto& [rows, cols] : {std::pair{1U, 4U}, std::pair{4U, 4U}, std::pair{2U, 6U}}) {
    const fabric f = fabric::torus(rows, cols);
    for (const std::uint32_t vcs : {2U, 3U}) {
      const wormhole_params p{.width = 4, .router_delay = 1, .buffer = 2, .vcs = vcs};
      std::vector<job> jobs;
      for (std::uint32_t t = 0; t < f.tiles(); ++t) {
        const std::uint32_t r = t / cols;
        const std::uint32_t c = t % cols;
        jobs.push_back({t, r * cols + (c + cols / 2) % cols, 4 * 40, 0, false});
        jobs.push_back({t, ((r + rows / 2) % rows) * cols + c, 4 * 40, 0, false});
      }
      INFO(rows << "x" << cols << " vcs " << vcs);
      const auto t = require_agreement(f, p, jobs);
      for (const timing& x : t)
        CHECK(x.delivered > 0);
    }
  }
}

TEST_CASE("wormhole torus: the flit engine equals the reference on random traffic", "[wormhole]") {
  // 4x4, 3x5 and 2x4 tori (two-wide rings), xy and yx, 2-4 VCs (3: classes of one and
  // two VCs), paced injection, credit delays 0-2, and a deeper pipeline.
  for (const auto& [rows, cols] : {std::pair{4U, 4U}, std::pair{3U, 5U}, std::pair{2U, 4U}}) {
    const fabric f = fabric::torus(rows, cols);
    for (const mesh_routing r : {mesh_routing::xy, mesh_routing::yx}) {
      for (const std::uint32_t vcs : {2U, 3U, 4U}) {
        for (std::uint32_t seed = 1; seed <= 4; ++seed) {
          random_case c = random_traffic(300 + seed, 1 + seed % 2, vcs, seed % 3,
                                         vc_share::round_robin, rows * cols);
          c.p.routing = r;
          c.p.pipeline = seed == 4 ? 3 : 1;
          INFO(rows << "x" << cols << " " << describe(c.p) << " seed " << seed);
          require_agreement(f, c.p, c.jobs);
        }
      }
    }
  }
}

TEST_CASE("wormhole torus: what it does not model is refused", "[wormhole]") {
  const fabric f = fabric::torus(4, 4);
  wormhole_params p{.vcs = 1};
  CHECK_THROWS_WITH(make_wormhole_engine(f, p),
                    "wormhole: torus:4x4 needs vcs >= 2 (a dateline VC class before each "
                    "ring's wraparound link and one after), got vcs 1");
  p.vcs = 2;
  p.routing = mesh_routing::west_first;
  CHECK_THROWS_WITH(make_wormhole_engine(f, p),
                    "wormhole: param routing west-first on torus:4x4 is not modelled (the "
                    "wormhole torus routes in dimension order: xy or yx)");
  p.routing = mesh_routing::yx;
  p.share = vc_share::fixed;
  CHECK_THROWS_WITH(make_wormhole_engine(f, p),
                    "wormhole: vc_share=fixed on torus:4x4 is not modelled (the fixed share "
                    "is the closed form's, which models meshes only)");
  p.share = vc_share::round_robin;
  CHECK_THROWS_AS(std::make_unique<wormhole_engine>(f, p), tessera::input_error);
  CHECK(dynamic_cast<flit_engine*>(make_wormhole_engine(f, p).get()) != nullptr);
  CHECK_THROWS_WITH(make_wormhole_engine(fabric::hypercube(3), p),
                    "wormhole: fabric hypercube:3 is not a mesh or a torus (wormhole "
                    "switching models mesh:RxC and torus:RxC)");
}
