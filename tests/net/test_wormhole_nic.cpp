// The wormhole engine's network interface: the half-duplex NIC (Bokhari91 §5, Thakur93 §2;
// docs/delta.md, the rule in net/duplex.hpp), with and without duplex_hold, and the eager
// protocol (eager_bytes, alpha_eager, eager_copy). Expected times are derived from the
// zero-load rule (h+1)(r+1) + F and the rule's decisions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "wormhole_test_util.hpp"

using namespace tessera;
using namespace tessera::net;
using namespace wormhole_test;

// One byte per flit, r = 1, B = 4 >= r + 1 + d: lone worms run at zero load. Half duplex
// with a window of 10 cycles.
namespace {
wormhole_params half_duplex_line() {
  return {.width = 1,
          .router_delay = 1,
          .buffer = 4,
          .credit_delay = 1,
          .duplex = {.half_duplex = true, .duplex_window = 10}};
}

// The skewed all-to-all of the deadlock cases on a 4x4 mesh paced at 2 with two VCs in
// fixed shares, half duplex with a window of 5 cycles, duplex_hold as asked.
wormhole_params skewed_mesh_params(bool hold) {
  return {.width = 1,
          .router_delay = 1,
          .buffer = 4,
          .inject_gap = 2,
          .vcs = 2,
          .share = vc_share::fixed,  // the half-duplex NIC is the closed form's (as on delta)
          .credit_delay = 1,
          .duplex = {.half_duplex = true, .duplex_window = 5, .duplex_hold = hold}};
}

// Every tile of a 4x4 mesh sends to tile + i for every i (GEN's pattern, Thakur93 §3.4):
// round i posted from 50 i on with a skew below `skew`, each message 64 bytes plus below
// `spread`.
std::vector<job> skewed_rounds(std::uint32_t seed, std::uint32_t spread, std::uint32_t skew) {
  std::vector<job> jobs;
  std::mt19937 rng(seed);
  for (std::uint32_t i = 1; i < 16; ++i)
    for (std::uint32_t s = 0; s < 16; ++s)
      jobs.push_back({s, (s + i) % 16, 64 + rng() % spread, i * 50 + rng() % skew});
  return jobs;
}

// Every message of jobs is delivered after it was posted.
void require_delivered(const wormhole_params& p, const std::vector<job>& jobs) {
  const auto t = run_engine(fabric::mesh(4, 4), p, jobs);
  REQUIRE(t.size() == jobs.size());
  for (std::size_t k = 0; k < t.size(); ++k)
    CHECK(t[k].delivered > jobs[k].at);
}
}  // namespace

TEST_CASE("half duplex: a receive that starts late at a transmitting tile completes after it",
          "[wormhole]") {
  // Bokhari, "Complete Exchange on the iPSC-860" §5: a receive and a transmit at one node
  // overlap only when they start nearly together. With B = 4 >= r + 1 + d a lone worm
  // is at zero load: its header crosses channel k at t + k(r + 1), its tail leaves the
  // NIC at t + F - 1 and crosses the ejection at t + (h + 1)(r + 1) + F - 1.
  const fabric f = fabric::mesh(1, 3);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p{.width = 1, .router_delay = 1, .buffer = 4, .credit_delay = 1};
  // Tile 1 transmits 100 flits to tile 2 from 0: its transmit lasts 0..99.
  // Tile 0 sends 20 flits to tile 1 at 50: the receive starts at 50 + 2(r + 1) = 54.
  const std::vector<job> jobs{{1, 2, 100, 0}, {0, 1, 20, 50}};
  const auto full = run_engine(f, p, jobs);
  CHECK(full[0].delivered == 2 * r1 + 100);
  CHECK(full[1].delivered == 50 + 2 * r1 + 20);
  p.duplex.half_duplex = true;
  p.duplex.duplex_window = 10;
  const auto half = run_engine(f, p, jobs);
  // 54 > 0 + 10 and the transmit still runs: the receive (54..73, 20 cycles) is carried
  // out after the transmit's last flit at 99: it completes at 99 + 19 = 118.
  CHECK(half[0].delivered == 2 * r1 + 100);
  CHECK(half[1].delivered == 99 + (20 - 1) + 1);
  // Within the window the two overlap: tile 0 sends at 6, the receive starts at 10.
  const auto near = run_engine(f, p, {{1, 2, 100, 0}, {0, 1, 20, 6}});
  CHECK(near[1].delivered == 6 + 2 * r1 + 20);
}

TEST_CASE("half duplex: a transmit that starts late at a receiving tile waits for the receive",
          "[wormhole]") {
  const fabric f = fabric::mesh(1, 3);
  const cycle_t r1 = 2;  // r + 1
  const wormhole_params p = half_duplex_line();
  // Tile 0 sends 100 flits to tile 1 at 0: the receive lasts 4..103, delivered at 104.
  // Tile 1 posts 20 flits to tile 2 at 50 > 4 + 10: its header waits until the receive
  // is delivered (104), then goes at zero load: 104 + 2(r + 1) + 20.
  const auto t = run_engine(f, p, {{0, 1, 100, 0}, {1, 2, 20, 50}});
  CHECK(t[0].delivered == 2 * r1 + 100);
  CHECK(t[1].started == 50);
  CHECK(t[1].delivered == 2 * r1 + 100 + 2 * r1 + 20);
  // Posted at 12 (the receive started at 4, 12 <= 14), it overlaps the receive.
  const auto near = run_engine(f, p, {{0, 1, 100, 0}, {1, 2, 20, 12}});
  CHECK(near[1].delivered == 12 + 2 * r1 + 20);
}

TEST_CASE("half duplex: an exchange's transmit and receive always overlap (Thakur's beta_ex)",
          "[wormhole]") {
  // Thakur, Choudhary, Fox §2: beta_ex for an exchange, beta_sr to send to one tile and
  // receive from another. Tiles 0 and 1 exchange 100 flits, tile 1 starting 50 later:
  // far outside the window, yet the transfers are with one peer, so neither waits.
  const fabric f = fabric::mesh(1, 3);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p = half_duplex_line();
  p.duplex.duplex_exchange = true;
  const auto t = run_engine(f, p, {{0, 1, 100, 0}, {1, 0, 100, 50}});
  CHECK(t[0].delivered == 2 * r1 + 100);
  CHECK(t[1].delivered == 50 + 2 * r1 + 100);
  // Without duplex_exchange (Bokhari's iPSC, no pairwise synchronization) the exchange
  // is serialized like any other pair: tile 1's transmit waits for its receive (4..103,
  // delivered at 104), then takes 2(r + 1) + 100.
  p.duplex.duplex_exchange = false;
  const auto serial = run_engine(f, p, {{0, 1, 100, 0}, {1, 0, 100, 50}});
  CHECK(serial[0].delivered == 2 * r1 + 100);
  CHECK(serial[1].delivered == 2 * r1 + 100 + 2 * r1 + 100);
  // The same skew with a third tile as tile 1's destination: tile 1 waits (as above).
  const auto other = run_engine(f, p, {{0, 1, 100, 0}, {1, 2, 100, 50}});
  CHECK(other[1].delivered == 2 * r1 + 100 + 2 * r1 + 100);
}

TEST_CASE("half duplex: control messages neither wait nor make others wait", "[wormhole]") {
  // The receive of tile 0's 100 flits at tile 1 lasts 4..103. A one-flit control message
  // tile 1 posts at 50 goes at once (delivered 50 + 2(r + 1) + 1), and tile 1's data
  // posted at 60 still waits for the receive: the control message did not count as a
  // transmit that began before it.
  const fabric f = fabric::mesh(1, 3);
  const cycle_t r1 = 2;  // r + 1
  const wormhole_params p = half_duplex_line();
  const auto t = run_engine(f, p, {{0, 1, 100, 0}, {1, 2, 0, 50, true}, {1, 2, 20, 60}});
  CHECK(t[1].delivered == 50 + 2 * r1 + 1);
  CHECK(t[2].delivered == 2 * r1 + 100 + 2 * r1 + 20);
}

TEST_CASE("half duplex: a ring of late receives never deadlocks and every message arrives",
          "[wormhole]") {
  // Every tile of a 4x4 mesh sends to tile + i for every i, posted with skews larger than
  // the window: receives are serialized behind transmits and transmits behind receives,
  // but the network is never held, so everything is delivered.
  require_delivered(skewed_mesh_params(false), skewed_rounds(7, 64, 200));
}

TEST_CASE("duplex_hold: a receive that starts late waits at the ejection, holding its path",
          "[wormhole]") {
  // Bokhari §5's rule with the network's back-pressure: tile 2 transmits 100 flits to
  // tile 3 from 0. Its stream starts when its header crosses tile 3's ejection, 2(r + 1)
  // = 4, and ends when its last flit leaves the NIC, 99. Tile 0's 20 flits to tile 2,
  // posted at 50, ask for tile 2's ejection at 50 + 3(r + 1) = 56 > 4 + 10: the header
  // waits there until the cycle after the transmit ended, 100, its flits filling the
  // FIFOs behind it, and then streams at one flit a cycle: the tail crosses the ejection
  // at 100 + 19 and the message is delivered the cycle after.
  const fabric f = fabric::mesh(1, 4);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p = half_duplex_line();
  p.duplex.duplex_hold = true;
  const auto t = run_engine(f, p, {{2, 3, 100, 0}, {0, 2, 20, 50}});
  CHECK(t[0].delivered == 2 * r1 + 100);
  CHECK(t[1].delivered == 100 + 20);
  // Within the window the two streams overlap: posted at 6, the header asks at 12 <= 14.
  const auto near = run_engine(f, p, {{2, 3, 100, 0}, {0, 2, 20, 6}});
  CHECK(near[1].delivered == 6 + 3 * r1 + 20);
}

TEST_CASE("duplex_hold: the header waiting at an ejection blocks the links it holds",
          "[wormhole]") {
  // 3 x 3 mesh, XY routes, one VC. Tile 6 transmits 100 flits east to tile 7 from 0 (its
  // stream 4..99). Tile 0's 20 flits to tile 6 (down column 0, 0->3->6) ask for tile 6's
  // ejection at 50 + 3(r + 1) = 56 and wait there until 100, their flits packed in the
  // FIFOs behind the header; the tail crosses the ejection at 119. Tile 1's 10 flits to
  // tile 3 (1->0, then 0->3), posted at 80, ask for link 0->3 at 80 + 2(r + 1) = 84 and
  // get it only after the held worm's tail crossed it: after the grant at 100, and no
  // later than a free-flowing tail would (119 - 2(r + 1), the VC free a cycle later,
  // 116). The exact cycle between depends on how the packed flits drain through the
  // credit loop. From the grant G: the ejection at G + (r + 1), the tail 9 cycles later,
  // delivered the cycle after.
  const fabric f = fabric::mesh(3, 3);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p = half_duplex_line();
  p.duplex.duplex_hold = true;
  const std::vector<job> jobs{{6, 7, 100, 0}, {0, 6, 20, 50}, {1, 3, 10, 80}};
  const auto held = run_engine(f, p, jobs);
  CHECK(held[1].delivered == 120);
  CHECK(held[2].delivered > 100 + r1 + 9 + 1);
  CHECK(held[2].delivered <= 116 + r1 + 9 + 1);
  // Without duplex_hold the late receive drains at once (its tail crosses link 0->3 at
  // 52 + 19 = 71), and tile 1's message finds the link free: zero load, 80 + 3(r + 1) + 10.
  p.duplex.duplex_hold = false;
  const auto drained = run_engine(f, p, jobs);
  CHECK(drained[1].delivered == 99 + 19 + 1);
  CHECK(drained[2].delivered == 80 + 3 * r1 + 10);
}

TEST_CASE("duplex_hold: a late receive at a tile still in its window overlaps", "[wormhole]") {
  const fabric f = fabric::mesh(1, 4);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p = half_duplex_line();
  p.duplex.duplex_hold = true;
  // Within the window the two streams overlap: posted at 6, the header asks at 12 <= 14.
  const auto near = run_engine(f, p, {{2, 3, 100, 0}, {0, 2, 20, 6}});
  CHECK(near[1].delivered == 6 + 3 * r1 + 20);
}

TEST_CASE("duplex_hold: a transmit waits at its destination while its source receives",
          "[wormhole]") {
  // Tile 0 sends 100 flits to tile 1 from 0: tile 1 receives from 2(r + 1) = 4 until the
  // delivery at 104. Tile 1 posts 20 flits to tile 2 at 10 <= 4 + 10: it overlaps
  // the receive (the window counts from the receive's start). Posted at 50, its header
  // waits at the NIC (the half-duplex rule of the injection) until the delivery, 104.
  const fabric f = fabric::mesh(1, 4);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p = half_duplex_line();
  p.duplex.duplex_hold = true;
  const auto near = run_engine(f, p, {{0, 1, 100, 0}, {1, 2, 20, 10}});
  CHECK(near[1].delivered == 10 + 2 * r1 + 20);
  const auto late = run_engine(f, p, {{0, 1, 100, 0}, {1, 2, 20, 50}});
  CHECK(late[1].delivered == 104 + 2 * r1 + 20);
  // An exchange with duplex_exchange never waits, however late its second half.
  p.duplex.duplex_exchange = true;
  const auto ex = run_engine(f, p, {{0, 1, 100, 0}, {1, 0, 100, 50}});
  CHECK(ex[1].delivered == 50 + 2 * r1 + 100);
}

TEST_CASE("duplex_hold: skewed rings of late streams never deadlock and every message arrives",
          "[wormhole]") {
  // Every tile of a 4x4 mesh sends to tile + i for every i (GEN's pattern, Thakur §3.4),
  // posted with skews larger than the window. Headers wait at ejections holding their
  // paths, but only for streams that have started, and a started stream needs nothing
  // more: everything is delivered, and the holding costs time against the rule without it.
  for (const std::uint32_t seed : {7U, 8U, 9U})
    require_delivered(skewed_mesh_params(true), skewed_rounds(seed, 256, 400));
}

TEST_CASE("eager messages: their own start-up, and the receiver's copy before delivery",
          "[wormhole]") {
  // A lone message at zero load on 1 x 2 is delivered at alpha + 2(r + 1) + F. At most
  // eager_bytes it starts after alpha_eager instead and is delivered a copy later:
  // ceil(F eager_copy / 1024) cycles.
  const fabric f = fabric::mesh(1, 2);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p{.width = 1, .router_delay = 1, .buffer = 4, .alpha = 50, .credit_delay = 1};
  p.eager_bytes = 100;
  p.alpha_eager = 10;
  p.eager_copy = 1000;  // 100 bytes: ceil(100000 / 1024) = 98
  CHECK(run_engine(f, p, {{0, 1, 100, 0}})[0].delivered == 10 + 2 * r1 + 100 + 98);
  CHECK(run_engine(f, p, {{0, 1, 101, 0}})[0].delivered == 50 + 2 * r1 + 101);
  p.eager_copy = 2048;  // two cycles a byte
  CHECK(run_engine(f, p, {{0, 1, 100, 0}})[0].delivered == 10 + 2 * r1 + 100 + 200);
  p.eager_bytes = 0;  // one protocol: alpha for all
  CHECK(run_engine(f, p, {{0, 1, 100, 0}})[0].delivered == 50 + 2 * r1 + 100);
}

TEST_CASE("eager messages: the copy is the receiver's processor, not its NIC", "[wormhole]") {
  // Half duplex: tile 0's eager 100 bytes reach tile 1 at 2(r + 1)..2(r + 1) + 99 and
  // are delivered 200 cycles later (304). Tile 1's 120 bytes to tile 2 (rendezvous, no
  // copy), posted at 110, after the NIC finished receiving (104) but during the copy:
  // they do not wait.
  const fabric f = fabric::mesh(1, 3);
  const cycle_t r1 = 2;  // r + 1
  wormhole_params p = half_duplex_line();
  p.eager_bytes = 100;
  p.eager_copy = 2048;
  const auto t = run_engine(f, p, {{0, 1, 100, 0}, {1, 2, 120, 110}});
  CHECK(t[0].delivered == 2 * r1 + 100 + 200);
  CHECK(t[1].delivered == 110 + 2 * r1 + 120);
}
