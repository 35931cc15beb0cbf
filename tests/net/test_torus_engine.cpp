// Store-and-forward torus with parallel monodirectional ports against
// 002_99346807104d0b95.txt (Bermond-Michallon-Trystram §1-2): a hop costs
// beta + tau L for a packet of L bytes, all four ports of a tile work at once, and a
// message cut into q packets over h hops takes (h + q - 1)(beta + tau L/q).
#include <catch2/catch.hpp>

#include "tessera/net/replay.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"
#include "tessera/schedule/errors.hpp"

namespace net = tessera::net;
using net::cycle_t;

namespace {

tessera::fabric fab(const std::string& spec) {
  return tessera::parse_fabric(spec).value;
}

net::timed_xfer msg(std::uint64_t id, std::uint32_t src, std::uint32_t dst, std::uint64_t bytes,
                    cycle_t at = 0) {
  net::timed_xfer t;
  t.x = net::xfer{id, src, dst, bytes, false, 0};
  t.at = at;
  return t;
}

}  // namespace

TEST_CASE("torus: one packet over h hops takes h (beta + tau L)", "[torus]") {
  const tessera::fabric f = fab("torus:8x8");
  for (const cycle_t beta : {cycle_t{0}, cycle_t{100}, cycle_t{6280}}) {
    for (const cycle_t tau : {cycle_t{1}, cycle_t{22}}) {
      for (const std::uint64_t len : {std::uint64_t{1}, std::uint64_t{256}}) {
        for (std::uint32_t dst = 1; dst < f.tiles(); dst += 5) {
          net::torus_engine e{f, net::torus_params{beta, tau, 0}};
          const auto r = net::replay(e, {msg(1, 0, dst, len, 3)});
          const cycle_t h = tessera::distance(f, tessera::tile_id{0}, tessera::tile_id{dst});
          INFO("dst " << dst << " h " << h);
          CHECK(r[0].delivered - 3 == h * (beta + tau * len));
        }
      }
    }
  }
}

TEST_CASE("torus: a tile sends on all four ports and receives on all four at once", "[torus]") {
  // Tile 9 of a 4x4 torus (row 2, col 1) and its neighbours 10 (E), 8 (W), 13 (S),
  // 5 (N). Four messages out and four in, all posted at 0: each takes one hop's time.
  const tessera::fabric f = fab("torus:4x4");
  const cycle_t beta = 50;
  const cycle_t tau = 2;
  const std::uint64_t len = 100;
  std::vector<net::timed_xfer> msgs;
  std::uint64_t id = 1;
  for (const std::uint32_t n : {10U, 8U, 13U, 5U}) {
    msgs.push_back(msg(id++, 9, n, len));
    msgs.push_back(msg(id++, n, 9, len));
  }
  net::torus_engine e{f, net::torus_params{beta, tau, 0}};
  const auto r = net::replay(e, msgs);
  for (const auto& x : r)
    CHECK(x.delivered == beta + tau * len);
}

TEST_CASE("torus: one output port sends its queue one packet at a time", "[torus]") {
  // Two messages from tile 0 east (to 1 and to 2) share port 0->1: the second waits
  // for the first, then takes two hops.
  const tessera::fabric f = fab("torus:4x4");
  net::torus_engine e{f, net::torus_params{10, 1, 0}};
  const auto r = net::replay(e, {msg(1, 0, 1, 30), msg(2, 0, 2, 30)});
  CHECK(r[0].delivered == 40);
  CHECK(r[1].delivered == 40 + 2 * 40);
  CHECK(e.contention().blocked == 1);
}

TEST_CASE("torus: q packets pipeline over h hops in (h + q - 1)(beta + tau L/q)", "[torus]") {
  const tessera::fabric f = fab("torus:16x16");
  const cycle_t beta = 628;
  const cycle_t tau = 22;
  for (const std::uint64_t q :
       {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{5}, std::uint64_t{16}}) {
    const std::uint64_t len = 80 * q;
    for (const std::uint32_t dst : {1U, 17U, 136U}) {
      net::torus_engine e{f, net::torus_params{beta, tau, len / q}};
      const auto r = net::replay(e, {msg(1, 0, dst, len)});
      const cycle_t h = tessera::distance(f, tessera::tile_id{0}, tessera::tile_id{dst});
      INFO("q " << q << " h " << h);
      CHECK(r[0].delivered == (h + q - 1) * (beta + tau * (len / q)));
    }
  }
}

TEST_CASE("torus: a ring and a mesh use the same port model", "[torus]") {
  net::torus_engine ring{fab("ring:8"), net::torus_params{5, 1, 0}};
  const auto r = net::replay(ring, {msg(1, 0, 4, 10), msg(2, 0, 5, 10)});
  CHECK(r[0].delivered == 4 * 15);  // the positive way on a tie
  CHECK(r[1].delivered == 3 * 15);  // 0 -> 7 -> 6 -> 5 on the minus port, in parallel
  net::torus_engine mesh{fab("mesh:3x3"), net::torus_params{5, 1, 0}};
  CHECK(net::replay(mesh, {msg(1, 0, 8, 10)})[0].delivered == 4 * 15);
}

TEST_CASE("torus: bad parameters and fabrics are refused", "[torus]") {
  CHECK_THROWS_WITH(net::torus_engine(fab("torus:4x4"), net::torus_params{cycle_t{1} << 41, 1, 0}),
                    Catch::Contains("beta 2199023255552"));
  CHECK_THROWS_AS(net::torus_engine(fab("hypercube:3"), net::torus_params{}), tessera::input_error);
}

TEST_CASE("torus: forwarding entries override dimension order", "[torus]") {
  // ring:8, 0 -> 1 forced the long way round on the -1 port: 0, 7, 6, ..., 1 is 7
  // hops of beta + tau L each.
  const tessera::fabric f = fab("ring:8");
  std::vector<net::forwarding_entry> detour;
  for (const std::uint32_t t : {0U, 7U, 6U, 5U, 4U, 3U, 2U})
    detour.push_back({t, 1, 1});
  net::torus_engine e{f, net::torus_params{5, 1, 0}};
  e.set_forwarding(detour);
  const auto r = net::replay(e, {msg(1, 0, 1, 10), msg(2, 0, 2, 10, 1000)});
  CHECK(r[0].delivered == 7 * 15);
  CHECK(r[1].delivered - 1000 == 2 * 15);  // other destinations keep dimension order
  // A table towards one root on a torus: every tile of row 0 sends west, column 0
  // north; tile 5 (row 1, col 1) -> 0 then goes W to 4 and N to 0 (XY would do the
  // same), while tile 6 is sent N first: 6 -> 2 -> 1 -> 0.
  net::torus_engine t{fab("torus:4x4"), net::torus_params{5, 1, 0}};
  t.set_forwarding({{6, 0, 3}, {2, 0, 1}, {1, 0, 1}});
  const auto q = net::replay(t, {msg(1, 6, 0, 10)});
  CHECK(q[0].delivered == 3 * 15);
  bool used_north = false;
  for (const auto& l : t.links())
    used_north = used_north || (l.from == 6 && l.to == 2);
  CHECK(used_north);
}

TEST_CASE("torus: forwarding that loops or uses a missing link is refused", "[torus]") {
  net::torus_engine e{fab("ring:8"), net::torus_params{5, 1, 0}};
  // 3 -> 4 and 4 -> 3 for destination 6: a walk from 3 or 4 never arrives.
  CHECK_THROWS_WITH(e.set_forwarding({{3, 6, 0}, {4, 6, 1}}),
                    Catch::Contains("forwarding to tile 6 loops"));
  net::torus_engine m{fab("mesh:3x3"), net::torus_params{5, 1, 0}};
  CHECK_THROWS_WITH(m.set_forwarding({{0, 8, 1}}), Catch::Contains("has no link on that port"));
  // A refused table leaves the engine as it was: dimension order still works.
  CHECK(net::replay(e, {msg(1, 3, 6, 10)})[0].delivered == 3 * 15);
}
