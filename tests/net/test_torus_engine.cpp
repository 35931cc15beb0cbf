// Store-and-forward torus with parallel monodirectional ports against Bermond, Michallon
// and Trystram, "Broadcasting in wraparound meshes with parallel monodirectional links"
// (Bermond92 §1-2): a hop costs beta + tau L for a packet of L bytes,
// all four ports of a tile work at once, and a message cut into q packets over h hops
// takes (h + q - 1)(beta + tau L/q). The engine follows the RTL torus's rules
// (docs/rtl.md, docs/tlm.md): B buffers per input in two dateline classes, credits, a
// network interface that writes one packet a cycle, oldest first per input and
// round-robin between inputs at each output. Where a rule changes a time the test
// derives it from the rule.
#include <catch2/catch.hpp>

#include <map>
#include <tuple>

#include "tessera/common/errors.hpp"
#include "tessera/net/replay.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

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

net::torus_params params(cycle_t beta, cycle_t tau, std::uint64_t packet_bytes = 0,
                         std::uint32_t buffers = net::rtl_torus_buffers) {
  net::torus_params p;
  p.beta = beta;
  p.tau = tau;
  p.packet_bytes = packet_bytes;
  p.buffers = buffers;
  return p;
}

}  // namespace

TEST_CASE("torus: one packet over h hops takes h (beta + tau L)", "[torus]") {
  const tessera::fabric f = fab("torus:8x8");
  for (const std::uint32_t buffers : {0U, 2U, 4U}) {
    for (const cycle_t beta : {cycle_t{0}, cycle_t{100}, cycle_t{6280}}) {
      for (const cycle_t tau : {cycle_t{1}, cycle_t{22}}) {
        for (const std::uint64_t len : {std::uint64_t{1}, std::uint64_t{256}}) {
          for (std::uint32_t dst = 1; dst < f.tiles(); dst += 5) {
            net::torus_engine e{f, params(beta, tau, 0, buffers)};
            const auto r = net::replay(e, {msg(1, 0, dst, len, 3)});
            const cycle_t h = tessera::distance(f, tessera::tile_id{0}, tessera::tile_id{dst});
            INFO("buffers " << buffers << " dst " << dst << " h " << h);
            CHECK(r[0].delivered - 3 == h * (beta + tau * len));
          }
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
  const cycle_t P = beta + tau * len;
  std::vector<net::timed_xfer> msgs;
  std::uint64_t id = 1;
  for (const std::uint32_t n : {10U, 8U, 13U, 5U}) {
    msgs.push_back(msg(id++, 9, n, len));
    msgs.push_back(msg(id++, n, 9, len));
  }
  // Bermond's ideal node (buffers 0): every posted packet is in the node at once, and
  // the eight hops all start at 0.
  net::torus_engine ideal{f, params(beta, tau, 0, 0)};
  for (const auto& x : net::replay(ideal, msgs))
    CHECK(x.delivered == P);
  // The RTL's node: tile 9's interface writes one packet a cycle, so its k-th message
  // (posting order) is written at cycle k and leaves at once on its own free port:
  // delivered at k + P. The neighbours each write theirs at 0: delivered at P. The four
  // outward hops overlap (P > 3): all four ports run at once.
  net::torus_engine e{f, params(beta, tau)};
  const auto r = net::replay(e, msgs);
  for (std::size_t i = 0; i < r.size(); ++i) {
    INFO("message " << i + 1);
    CHECK(r[i].delivered == (i % 2 == 0 ? i / 2 + P : P));
  }
}

TEST_CASE("torus: one output port sends its queue one packet at a time", "[torus]") {
  // Two messages from tile 0 east (to 1 and to 2) share port 0->1: the second waits
  // for the first, then takes two hops. (It is written at cycle 1, one packet a cycle,
  // and waits for the port until 40 either way.)
  const tessera::fabric f = fab("torus:4x4");
  for (const std::uint32_t buffers : {0U, 4U}) {
    net::torus_engine e{f, params(10, 1, 0, buffers)};
    const auto r = net::replay(e, {msg(1, 0, 1, 30), msg(2, 0, 2, 30)});
    CHECK(r[0].delivered == 40);
    CHECK(r[1].delivered == 40 + 2 * 40);
    CHECK(e.contention().blocked == 1);
  }
}

TEST_CASE("torus: q packets pipeline over h hops in (h + q - 1)(beta + tau L/q)", "[torus]") {
  // With buffers, two class-0 buffers per input are enough for the pipeline: packet j
  // leaves a node in the cycle packet j + 1 arrives there and frees its buffer when
  // its hop ends, the cycle packet j + 2 needs it; the interface writes packet j at
  // cycle j <= j P; the destination ejects a packet in L + 1 <= P cycles.
  const tessera::fabric f = fab("torus:16x16");
  const cycle_t beta = 628;
  const cycle_t tau = 22;
  for (const std::uint32_t buffers : {0U, 4U}) {
    for (const std::uint64_t q :
         {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{5}, std::uint64_t{16}}) {
      const std::uint64_t len = 80 * q;
      for (const std::uint32_t dst : {1U, 17U, 136U}) {
        net::torus_engine e{f, params(beta, tau, len / q, buffers)};
        const auto r = net::replay(e, {msg(1, 0, dst, len)});
        const cycle_t h = tessera::distance(f, tessera::tile_id{0}, tessera::tile_id{dst});
        INFO("buffers " << buffers << " q " << q << " h " << h);
        CHECK(r[0].delivered == (h + q - 1) * (beta + tau * (len / q)));
        CHECK(e.credit_stalls() == 0);
      }
    }
  }
}

TEST_CASE("torus: one buffer per class halves the pipeline", "[torus]") {
  // ring:8, one message of q = 2 packets 0 -> 2 (P = 5 + 10 = 15, L + 1 = 11 <= P),
  // buffers 2: one buffer of each class per input, and the route never wraps (class 0).
  // Packet 0 leaves at 0, is complete at 1 at P and goes on at once (2's buffer is
  // free): complete at 2 at 2P. Packet 1, written at 1, needs 1's only class-0 buffer,
  // which packet 0 holds until its hop 1 -> 2 ends at 2P: it leaves 0 at 2P, is complete
  // at 1 at 3P and finds 2's buffer free (packet 0 ejected by 2P + L + 1): delivered at
  // 4P. With two class-0 buffers the packets pipeline: (h + q - 1) P = 3P.
  const tessera::fabric f = fab("ring:8");
  const cycle_t P = 15;
  net::torus_engine one{f, params(5, 1, 10, 2)};
  CHECK(net::replay(one, {msg(1, 0, 2, 20)})[0].delivered == 4 * P);
  CHECK(one.credit_stalls() > 0);
  net::torus_engine two{f, params(5, 1, 10, 4)};
  CHECK(net::replay(two, {msg(1, 0, 2, 20)})[0].delivered == 3 * P);
}

TEST_CASE("torus: a wrapped packet takes the other dateline class and goes first", "[torus]") {
  // ring:8 (P = 15, L + 1 <= P), buffers 2. A = 0 -> 2 in two packets, B = 7 -> 2 in
  // one, both posted at 0. B wraps at tile 0 (it enters column 0 from column 7), so it
  // is class 1 at tiles 0, 1 and 2; A never wraps: class 0.
  //  0: A0 leaves 0 -> 1 (1's class-0 buffer now taken); B leaves 7 -> 0.
  //  P: A0 goes 1 -> 2. At tile 0, output +1 is free: A1 (local input, written at 1)
  //     has no class-0 credit (A0 holds 1's buffer until 2P); B (input -1) needs class
  //     1 and has it. Round-robin from input 0 after the local input served A0: B wins
  //     either way. B leaves 0 -> 1 at P.
  // 2P: A0 delivered. A0's buffer at 1 frees; A1 leaves 0 -> 1; B goes 1 -> 2 (2's
  //     class-1 buffer is free).
  // 3P: B delivered (three hops, as alone). A1 goes 1 -> 2 (A0 ejected by 2P + 11).
  // 4P: A1 delivered: A is delivered at 4P, P later than alone. The old rule (one FIFO
  //     per output in arrival order) sent A1 first: A at 3P, B at 4P.
  const tessera::fabric f = fab("ring:8");
  const cycle_t P = 15;
  for (const std::uint32_t buffers : {2U, 4U}) {
    net::torus_engine e{f, params(5, 1, 10, buffers)};
    const auto r = net::replay(e, {msg(1, 0, 2, 20), msg(2, 7, 2, 10)});
    INFO("buffers " << buffers);
    CHECK(r[0].delivered == 4 * P);
    CHECK(r[1].delivered == 3 * P);
  }
}

TEST_CASE("torus: an output round-robins between its inputs", "[torus]") {
  // 4x4, tile C = 5 and its neighbours E = 6, W = 4, N = 1, S = 9; P = 20 + 2 * 10 = 40.
  // All four send one packet to S at 0. C's own is written at 0 and is the only one at
  // C's south output: it leaves at 0 (the pointer starts at input 0, so inputs 1..4 are
  // tried first), delivered at P. E's, W's and N's are complete in C's inputs E, W and N
  // at P, when the output frees; the pointer at input 4 (local), the next are inputs
  // 0, 1, 3: E's leaves at P, W's at 2P, N's at 3P, delivered at 2P, 3P, 4P. (The old
  // order by arrival direction, ties E, W, S, N, gave W's (travelling east) first.)
  // Round 2 at cycle 1000: the same four again; the pointer is now at input 3 (N), so
  // the inputs go 4, 0, 1, 3: the same order.
  const tessera::fabric f = fab("torus:4x4");
  const cycle_t P = 40;
  for (const std::uint32_t buffers : {0U, 4U}) {
    net::torus_engine e{f, params(20, 2, 0, buffers)};
    std::vector<net::timed_xfer> msgs;
    for (const cycle_t t : {cycle_t{0}, cycle_t{1000}}) {
      const std::uint64_t id = msgs.size();
      msgs.push_back(msg(id + 1, 5, 9, 10, t));
      msgs.push_back(msg(id + 2, 6, 9, 10, t));
      msgs.push_back(msg(id + 3, 4, 9, 10, t));
      msgs.push_back(msg(id + 4, 1, 9, 10, t));
    }
    const auto r = net::replay(e, msgs);
    for (std::size_t round = 0; round < 2; ++round) {
      const cycle_t t = round * 1000;
      INFO("buffers " << buffers << " round " << round);
      CHECK(r[4 * round + 0].delivered - t == P);
      CHECK(r[4 * round + 1].delivered - t == 2 * P);
      CHECK(r[4 * round + 2].delivered - t == 3 * P);
      CHECK(r[4 * round + 3].delivered - t == 4 * P);
    }
  }
}

TEST_CASE("torus: a message to its own tile is delivered when written", "[torus]") {
  // No hop: complete in the local input in the cycle the interface writes it; the
  // interface writes one packet a cycle (the second message at 6).
  net::torus_engine e{fab("torus:4x4"), params(20, 2)};
  const auto r = net::replay(e, {msg(1, 3, 3, 10, 5), msg(2, 3, 3, 10, 5)});
  CHECK(r[0].delivered == 5);
  CHECK(r[1].delivered == 6);
  CHECK(e.idle());
}

TEST_CASE("torus: multicast follows the tree tables", "[torus]") {
  // 4x4, tree 1: tile 0 sends east and south; 1 delivers and sends east; 2 and 4
  // deliver. Two packets of 10 bytes (P = 30): packet j is complete at depth k at
  // (k + j) P; the message is delivered when every tile has its last packet: (2 + 1) P.
  const tessera::fabric f = fab("torus:4x4");
  const std::uint32_t here = 1U << 4;
  for (const std::uint32_t buffers : {0U, 4U}) {
    net::torus_engine e{f, params(10, 2, 10, buffers)};
    e.set_trees({{1, 0, 0b0101}, {1, 1, here | 0b0001}, {1, 2, here}, {1, 4, here}});
    std::map<std::pair<std::uint32_t, std::uint64_t>, cycle_t> got;
    e.set_arrival_hook([&](const net::torus_arrival& a) { got[{a.tile, a.packet}] = a.at; });
    net::timed_xfer x = msg(7, 0, 0, 20);
    x.x.tree = 1;
    const auto r = net::replay(e, {x});
    INFO("buffers " << buffers);
    CHECK(r[0].delivered == 3 * 30);
    CHECK(got.size() == 6);
    CHECK(got[{1, 0}] == 30);
    CHECK(got[{4, 0}] == 30);
    CHECK(got[{2, 0}] == 60);
    CHECK(got[{1, 1}] == 60);
    CHECK(got[{4, 1}] == 60);
    CHECK(got[{2, 1}] == 90);
    CHECK(e.idle());
  }
}

TEST_CASE("torus: tree tables that are not forests are refused", "[torus]") {
  net::torus_engine e{fab("torus:4x4"), params(10, 2)};
  CHECK_THROWS_WITH(e.set_trees({{0, 0, 1}}), Catch::Contains("tree 0 is unicast"));
  // 0 -> 1 -> 0: a cycle (and each reached once).
  CHECK_THROWS_WITH(e.set_trees({{1, 0, 0b0001}, {1, 1, 0b0010}}), Catch::Contains("cycle"));
  // 0 -> 1 and 2 -> 1: tile 1 reached twice.
  CHECK_THROWS_WITH(e.set_trees({{1, 0, 0b0001}, {1, 2, 0b0010}}), Catch::Contains("twice"));
  net::torus_engine m{fab("mesh:3x3"), params(10, 2)};
  CHECK_THROWS_WITH(m.set_trees({{1, 0, 0b0010}}), Catch::Contains("no link on port 1"));
}

TEST_CASE("torus: a ring and a mesh use the same port model", "[torus]") {
  net::torus_engine ring{fab("ring:8"), params(5, 1)};
  const auto r = net::replay(ring, {msg(1, 0, 4, 10), msg(2, 0, 5, 10)});
  CHECK(r[0].delivered == 4 * 15);  // the positive way on a tie
  // 0 -> 7 -> 6 -> 5 on the minus port, in parallel; the interface writes it at cycle 1
  // (one packet a cycle, after 0 -> 4), so it is delivered at 1 + 3 * 15.
  CHECK(r[1].delivered == 1 + 3 * 15);
  net::torus_engine mesh{fab("mesh:3x3"), params(5, 1)};
  CHECK(net::replay(mesh, {msg(1, 0, 8, 10)})[0].delivered == 4 * 15);
}

TEST_CASE("torus: bad parameters and fabrics are refused", "[torus]") {
  CHECK_THROWS_WITH(net::torus_engine(fab("torus:4x4"), params(cycle_t{1} << 41, 1)),
                    Catch::Contains("beta 2199023255552"));
  CHECK_THROWS_AS(net::torus_engine(fab("hypercube:3"), net::torus_params{}), tessera::input_error);
  CHECK_THROWS_WITH(net::torus_engine(fab("torus:4x4"), params(10, 1, 0, 1)),
                    "torus: buffers 1 is out of range 2..65536 (0: unlimited)");
  CHECK_THROWS_WITH(net::torus_engine(fab("torus:4x4"), params(10, 1, 0, 65537)),
                    Catch::Contains("buffers 65537 is out of range"));
  CHECK_NOTHROW(net::torus_engine(fab("torus:4x4"), params(10, 1, 0, 2)));
  CHECK(net::torus_params{}.buffers == 4);  // the Verilated tori's Buffers
}

TEST_CASE("torus: forwarding entries override dimension order", "[torus]") {
  // ring:8, 0 -> 1 forced the long way round on the -1 port: 0, 7, 6, ..., 1 is 7
  // hops of beta + tau L each.
  const tessera::fabric f = fab("ring:8");
  std::vector<net::forwarding_entry> detour;
  for (const std::uint32_t t : {0U, 7U, 6U, 5U, 4U, 3U, 2U})
    detour.push_back({t, 1, 1});
  net::torus_engine e{f, params(5, 1)};
  e.set_forwarding(detour);
  const auto r = net::replay(e, {msg(1, 0, 1, 10), msg(2, 0, 2, 10, 1000)});
  CHECK(r[0].delivered == 7 * 15);
  CHECK(r[1].delivered - 1000 == 2 * 15);  // other destinations keep dimension order
  // A table towards one root on a torus: every tile of row 0 sends west, column 0
  // north; tile 5 (row 1, col 1) -> 0 then goes W to 4 and N to 0 (XY would do the
  // same), while tile 6 is sent N first: 6 -> 2 -> 1 -> 0.
  net::torus_engine t{fab("torus:4x4"), params(5, 1)};
  t.set_forwarding({{6, 0, 3}, {2, 0, 1}, {1, 0, 1}});
  const auto q = net::replay(t, {msg(1, 6, 0, 10)});
  CHECK(q[0].delivered == 3 * 15);
  bool used_north = false;
  for (const auto& l : t.links())
    used_north = used_north || (l.from == 6 && l.to == 2);
  CHECK(used_north);
}

TEST_CASE("torus: forwarding that loops or uses a missing link is refused", "[torus]") {
  net::torus_engine e{fab("ring:8"), params(5, 1)};
  // 3 -> 4 and 4 -> 3 for destination 6: a walk from 3 or 4 never arrives.
  CHECK_THROWS_WITH(e.set_forwarding({{3, 6, 0}, {4, 6, 1}}),
                    Catch::Contains("forwarding to tile 6 loops"));
  net::torus_engine m{fab("mesh:3x3"), params(5, 1)};
  CHECK_THROWS_WITH(m.set_forwarding({{0, 8, 1}}), Catch::Contains("has no link on that port"));
  // A refused table leaves the engine as it was: dimension order still works.
  CHECK(net::replay(e, {msg(1, 3, 6, 10)})[0].delivered == 3 * 15);
}
