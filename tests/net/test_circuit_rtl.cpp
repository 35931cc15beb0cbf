// The circuit engine against the RTL cube's cycles: tb_cube's scenarios derived by hand
// (contention, Bokhari91 §2.3's eight paths) and random traffic run on the engine and on
// the testbench's independent reference model (tb/reference/cube_reference.hpp), which
// must agree on every message's t0, S and E.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "circuit_test_util.hpp"
#include "reference/cube_reference.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/replay.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

namespace net = tessera::net;
using net::cycle_t;
using namespace circuit_test;

namespace {

// The messages of tb_cube's contention scenario (tb/cube/tb_cube.cpp), in its order:
// A = 0->7 and B = 1->11 at 0; W = 1->7 alone at t1, the cycle after A's tail; then
// 1->7 and 2->7 at t2, the cycle after W's tail, and 3->7 at t2 + tau.
struct tb_contention {
  std::vector<net::timed_xfer> msgs;
  cycle_t t1{0};
  cycle_t t2{0};
};

tb_contention tb_cube_contention(cycle_t xi, cycle_t tau, cycle_t k) {
  tb_contention c;
  c.msgs.push_back(msg(1, 0, 7, k));
  c.msgs.push_back(msg(2, 1, 11, k));
  c.t1 = xi + 4 * tau + 2 * k + 2 + 1;
  c.msgs.push_back(msg(3, 1, 7, k, c.t1));
  c.t2 = c.t1 + xi + 2 * tau + 2 + k - 1 + 1;
  c.msgs.push_back(msg(4, 1, 7, k, c.t2));
  c.msgs.push_back(msg(5, 2, 7, k, c.t2));
  c.msgs.push_back(msg(6, 3, 7, k, c.t2 + tau));
  return c;
}

// The last three of tb_cube_contention all ask for link 3->7 in R = t2 + xi + tau and
// are served in `order` (sources). Node 3 is at hop position p of each path (1 for
// sources 1 and 2, 0 for 3) and the path has p + 1 hops. The j-th served is granted
// the link at G_j (G_1 = R), reaches 7 at S_j = G_j + tau, whose ejection port is free
// (the previous circuit left it at S_{j-1} + k + p_{j-1} + 1 = G_j + 1), delivers at
// E_j = S_j + p + 1 + k - 1, and the link frees at G_{j+1} = S_j + k + p.
std::map<std::uint32_t, msg_times> three_into_7(cycle_t xi, cycle_t tau, cycle_t k, cycle_t t2,
                                                const std::vector<std::uint32_t>& order) {
  std::map<std::uint32_t, msg_times> out;
  cycle_t g = t2 + xi + tau;
  for (const std::uint32_t src : order) {
    const cycle_t p = src == 3 ? 0 : 1;
    const cycle_t s = g + tau;
    out[src] = msg_times{src == 3 ? t2 + tau : t2, s, s + p + 1 + k - 1};
    g = s + k + p;
  }
  return out;
}

void check_tb_contention(net::circuit_arbitration arb, cycle_t xi, cycle_t tau, cycle_t k,
                         const std::vector<std::uint32_t>& order) {
  net::circuit_params p = params(xi, tau);
  p.arbitration = arb;
  net::circuit_engine e{cube(7), p};
  const tb_contention c = tb_cube_contention(xi, tau, k);
  const auto r = run(e, c.msgs);
  // A and B as in "a link frees as the tail crosses its node".
  const cycle_t s_b = xi + 2 * tau;
  const cycle_t s_a = s_b + k + 2 * tau;
  CHECK(r[1].s == s_b);
  CHECK(r[1].e == s_b + 2 + k - 1);
  CHECK(r[0].s == s_a);
  CHECK(r[0].e == s_a + 3 + k - 1);
  CHECK(c.t1 == r[0].e + 1);
  // W alone: two hops.
  CHECK(r[2].t0 == c.t1);
  CHECK(r[2].s == c.t1 + xi + 2 * tau);
  CHECK(r[2].e == c.t1 + boppana(xi, tau, 2, k));
  CHECK(c.t2 == r[2].e + 1);
  const auto want = three_into_7(xi, tau, k, c.t2, order);
  for (std::size_t i = 3; i < 6; ++i) {
    const msg_times& w = want.at(c.msgs[i].x.src);
    INFO("message " << c.msgs[i].x.src << "->7");
    CHECK(r[i].t0 == w.t0);
    CHECK(r[i].s == w.s);
    CHECK(r[i].e == w.e);
  }
}

}  // namespace

TEST_CASE("circuit: three headers for one link, lowest id (rtl.tb_cube.contention.lowest-id)",
          "[circuit]") {
  // xi 5, tau 3, k 16: served 1, 2, 3.
  check_tb_contention(net::circuit_arbitration::lowest_id, 5, 3, 16, {1, 2, 3});
  // The figures docs/rtl.md gives for the RTL.
  net::circuit_params p = params(5, 3);
  net::circuit_engine e{cube(7), p};
  const auto r = run(e, tb_cube_contention(5, 3, 16).msgs);
  CHECK(r[1].e == 28);
  CHECK(r[0].e == 51);
  CHECK(r[3].e == 109);
  CHECK(r[4].e == 129);
  CHECK(r[5].e == 148);
}

TEST_CASE("circuit: three headers for one link, round robin (rtl.tb_cube.contention.round-robin)",
          "[circuit]") {
  // xi 2, tau 1, k 4. Link 3->7 was granted to A (source 0), then to W (source 1):
  // its pointer is 2, so the three are served 2, 3, 1.
  check_tb_contention(net::circuit_arbitration::round_robin, 2, 1, 4, {2, 3, 1});
  net::circuit_params p = params(2, 1);
  p.arbitration = net::circuit_arbitration::round_robin;
  net::circuit_engine e{cube(7), p};
  const auto r = run(e, tb_cube_contention(2, 1, 4).msgs);
  CHECK(r[1].e == 9);
  CHECK(r[0].e == 16);
  CHECK(r[4].e == 36);  // 2->7
  CHECK(r[5].e == 41);  // 3->7
  CHECK(r[3].e == 47);  // 1->7
}

namespace {

// Runs msgs on the engine and on the testbench's reference model of the RTL cube
// (tb/reference/cube_reference.hpp) with the same parameters, and requires the same t0, S
// and E for every message, and the same number of grants after a wait. Returns that
// number.
std::uint64_t against_reference(const std::vector<net::timed_xfer>& msgs, cycle_t xi, cycle_t tau,
                                net::circuit_arbitration arb, bool presetup = false) {
  namespace tb = tessera::tb;
  constexpr unsigned dims = 7;
  tb::cube_reference ref(dims, xi, tau,
                         arb == net::circuit_arbitration::lowest_id ? tb::ref_arb::lowest_id
                                                                    : tb::ref_arb::round_robin,
                         0, presetup);
  std::vector<tb::ref_message> in;
  for (const auto& m : msgs)
    in.push_back({m.x.src, m.x.dst, static_cast<unsigned>(m.x.bytes), m.at, {}, {}});
  const auto want = ref.run(in, 10'000'000);
  REQUIRE(want.size() == msgs.size());

  net::circuit_params p = params(xi, tau);
  p.arbitration = arb;
  p.presetup = presetup;
  net::circuit_engine e{cube(dims), p};
  const auto got = run(e, msgs);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    const bool same =
        got[i].t0 == want[i].posted && got[i].s == want[i].setup && got[i].e == want[i].tail;
    if (same) continue;
    if (++differ > 5) continue;  // the first few are enough to read
    INFO("message " << i << ": " << msgs[i].x.src << "->" << msgs[i].x.dst << " k "
                    << msgs[i].x.bytes << " posted " << msgs[i].at << ": engine t0 " << got[i].t0
                    << " S " << got[i].s << " E " << got[i].e << ", reference t0 " << want[i].posted
                    << " S " << want[i].setup << " E " << want[i].tail);
    CHECK(same);
  }
  CHECK(differ == 0);
  CHECK(e.contention().blocked == ref.blocked());
  return ref.blocked();
}

// tb_cube's random scenario: random pairs (a tile's own included), k in 1..kmax, posted
// over `count` cycles, each tile's messages in time order.
std::vector<net::timed_xfer> random_messages(std::uint64_t seed, unsigned count, cycle_t kmax) {
  std::mt19937_64 rng(seed);
  std::vector<std::tuple<cycle_t, std::uint32_t, std::uint32_t, cycle_t>> draw;
  for (unsigned n = 0; n < count; ++n) {
    const auto src = static_cast<std::uint32_t>(rng() % 128);
    const auto dst = static_cast<std::uint32_t>(rng() % 128);
    const cycle_t k = 1 + rng() % kmax;
    const cycle_t at = rng() % count;
    draw.emplace_back(at, src, dst, k);
  }
  std::stable_sort(draw.begin(), draw.end());
  std::vector<net::timed_xfer> out;
  for (const auto& [at, src, dst, k] : draw)
    out.push_back(msg(out.size() + 1, src, dst, k, at));
  return out;
}

}  // namespace

TEST_CASE("circuit: random traffic takes the RTL's cycles (tb_cube's reference model)",
          "[circuit]") {
  // rtl.tb_cube.random and rtl.tb_cube.random.round-robin: 1,000 messages, k 1..32,
  // xi 5, tau 3, both arbitrations; and 400 messages, k 1..8, xi 0 (the header leaves
  // in the cycle its message is taken), tau 1, round robin.
  for (const auto arb :
       {net::circuit_arbitration::lowest_id, net::circuit_arbitration::round_robin}) {
    const auto msgs = random_messages(1, 1000, 32);
    const std::uint64_t blocked = against_reference(msgs, 5, 3, arb);
    INFO("grants after a wait " << blocked);
    CHECK(blocked > 100);  // the traffic does contend
  }
  const auto msgs = random_messages(2, 400, 8);
  CHECK(against_reference(msgs, 0, 1, net::circuit_arbitration::round_robin) > 0);
}

TEST_CASE("circuit: random traffic under pre-setup takes the RTL's cycles (tb_cube's reference)",
          "[circuit]") {
  // rtl.tb_cube.random.presetup and rtl.tb_cube.random.presetup.round-robin: the same
  // traffic with the interfaces setting up a tile's next message while one streams. The
  // traffic must use it. A message over i hops hands over its last element at
  // S' + k - 1 = E - i, so a tile's next message taken before E - i + 1 was taken by
  // pre-setup: some are with it, none without.
  auto ahead = [](const std::vector<net::timed_xfer>& msgs, const std::vector<msg_times>& r) {
    std::map<std::uint32_t, std::size_t> last;  // per tile, its latest message so far
    unsigned n = 0;
    for (std::size_t i = 0; i < msgs.size(); ++i) {
      const auto it = last.find(msgs[i].x.src);
      if (it != last.end()) {
        const net::xfer& x = msgs[it->second].x;
        const auto hops = static_cast<cycle_t>(std::popcount(x.src ^ x.dst));
        if (r[i].t0 < r[it->second].e - hops + 1) ++n;
      }
      last[msgs[i].x.src] = i;
    }
    return n;
  };
  for (const auto arb :
       {net::circuit_arbitration::lowest_id, net::circuit_arbitration::round_robin}) {
    const auto msgs = random_messages(1, 1000, 32);
    CHECK(against_reference(msgs, 5, 3, arb, true) > 100);
    for (const bool pre : {false, true}) {
      net::circuit_params p = params(5, 3);
      p.arbitration = arb;
      p.presetup = pre;
      net::circuit_engine e{cube(7), p};
      const unsigned n = ahead(msgs, run(e, msgs));
      INFO("presetup " << pre << ": " << n << " messages taken ahead");
      CHECK((pre ? n > 20 : n == 0));
    }
  }
  const auto msgs = random_messages(2, 400, 8);
  CHECK(against_reference(msgs, 0, 1, net::circuit_arbitration::round_robin, true) > 0);
}

TEST_CASE("circuit: Bokhari's eight paths take the RTL's cycles (rtl.tb_cube.bokhari)",
          "[circuit]") {
  // Bokhari91 §2.3, iPSC-860 preset (xi 242, tau 25, k = 1000). By
  // hand, as tb_cube derives them: (4) 7->15 takes the edge at xi, S = xi + tau,
  // E = S + k; the edge is its hop position 0 and frees at S + k, where (3) 3->31 wins
  // it under both arbitrations (lowest source; round robin from pointer 8, where 3
  // comes before 5 and 6) and reaches 31 two hops later: S = xi + 3 tau + k,
  // E = S + 3 + k - 1. All eight against the reference model.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs{
      {0, 127}, {1, 63}, {3, 31}, {7, 15}, {5, 79}, {6, 47}, {2, 95}, {4, 111}};
  const cycle_t xi = 242;
  const cycle_t tau = 25;
  const cycle_t k = 1000;
  std::vector<net::timed_xfer> msgs;
  for (std::size_t i = 0; i < pairs.size(); ++i)
    msgs.push_back(msg(i + 1, pairs[i].first, pairs[i].second, k));
  for (const auto arb :
       {net::circuit_arbitration::lowest_id, net::circuit_arbitration::round_robin}) {
    against_reference(msgs, xi, tau, arb);
    net::circuit_params p = params(xi, tau);
    p.arbitration = arb;
    net::circuit_engine e{cube(7), p};
    const auto r = run(e, msgs);
    CHECK(r[3].s == xi + tau);
    CHECK(r[3].e == xi + tau + k);
    CHECK(r[2].s == xi + 3 * tau + k);
    CHECK(r[2].e == xi + 3 * tau + 2 * k + 2);
    // The last tail, as docs/rtl.md reports it for the Verilated cube.
    cycle_t last = 0;
    for (const auto& t : r)
      last = std::max(last, t.e);
    CHECK(last == (arb == net::circuit_arbitration::lowest_id ? 8757U : 8781U));
  }
}
