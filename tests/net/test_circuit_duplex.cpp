// The circuit engine's half-duplex interface (Bokhari91 §5; the rule in net/duplex.hpp): a
// late stream waits with its circuit set up until the other direction's stream at its
// tile ends; an exchange overlaps only with duplex_exchange. Expected times from
// Boppana90 §2's cost and the rule.
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

TEST_CASE("circuit: half duplex defers a receive behind a transmit that began earlier",
          "[circuit]") {
  // Bokhari §5: a receive and a transmit at one node run concurrently only when they
  // start nearly together. xi 10, tau 2: a one-hop message posted at p streams from
  // S' = p + 12, element e crossing into the destination at S' + 1 + e.
  net::circuit_params p = params(10, 2);
  p.duplex.half_duplex = true;
  p.duplex.duplex_window = 5;
  // Tile 1 transmits 100 bytes to tile 3 from 12 to 111. Tile 0's 20 bytes to tile 1,
  // posted at 40, would be received from 53: 53 > 12 + 5 while tile 1 transmits, so its
  // stream starts after tile 1's last element: S' = 111 + 1 - 1, E = 111 + 1 + 19.
  {
    net::circuit_engine e{cube(2), p};
    const auto r = run(e, {msg(1, 1, 3, 100, 0), msg(2, 0, 1, 20, 40)});
    CHECK(r[0].e == boppana(10, 2, 1, 100));
    CHECK(r[1].s == 52);
    CHECK(r[1].e == 111 + 1 + 19);
  }
  // The same without half duplex: 52 + 1 + 19.
  {
    net::circuit_engine e{cube(2), params(10, 2)};
    const auto r = run(e, {msg(1, 1, 3, 100, 0), msg(2, 0, 1, 20, 40)});
    CHECK(r[1].e == 40 + boppana(10, 2, 1, 20));
  }
}

TEST_CASE("circuit: half duplex defers a transmit behind a receive that began earlier",
          "[circuit]") {
  net::circuit_params p = params(10, 2);
  p.duplex.half_duplex = true;
  p.duplex.duplex_window = 5;
  // Tile 0's 100 bytes reach tile 1 from 13 to 112. Tile 1's 20 bytes to tile 3, set up
  // at 52, stream from 113: E = 113 + 1 + 19.
  net::circuit_engine e{cube(2), p};
  const auto r = run(e, {msg(1, 0, 1, 100, 0), msg(2, 1, 3, 20, 40)});
  CHECK(r[1].s == 52);
  CHECK(r[1].e == 113 + 1 + 19);
  // Posted at 6 it is set up at 18, within 5 of the receive's start at 13: no wait.
  net::circuit_engine near{cube(2), p};
  const auto n = run(near, {msg(1, 0, 1, 100, 0), msg(2, 1, 3, 20, 6)});
  CHECK(n[1].e == 6 + boppana(10, 2, 1, 20));
}

TEST_CASE("circuit: half duplex serializes an unsynchronized exchange unless duplex_exchange",
          "[circuit]") {
  // Tiles 0 and 1 exchange 100 bytes, tile 1 posting 40 cycles late. Without pairwise
  // synchronization the iPSC runs them one after the other: tile 1's stream starts after
  // its receive (13..112) ends. With duplex_exchange (Thakur's beta_ex) they overlap.
  net::circuit_params p = params(10, 2);
  p.duplex.half_duplex = true;
  p.duplex.duplex_window = 5;
  net::circuit_engine serial{cube(2), p};
  const auto s = run(serial, {msg(1, 0, 1, 100, 0), msg(2, 1, 0, 100, 40)});
  CHECK(s[0].e == boppana(10, 2, 1, 100));
  CHECK(s[1].e == 113 + 1 + 99);
  p.duplex.duplex_exchange = true;
  net::circuit_engine overlap{cube(2), p};
  const auto o = run(overlap, {msg(1, 0, 1, 100, 0), msg(2, 1, 0, 100, 40)});
  CHECK(o[1].e == 40 + boppana(10, 2, 1, 100));
}

TEST_CASE("circuit: half-duplex complete exchange on the 5-cube delivers everything", "[circuit]") {
  // Every tile sends to every other, posted with skews beyond the window: streams are
  // deferred behind streams, but one that started always ends, so nothing deadlocks.
  net::circuit_params p = params(30, 3);
  p.duplex.half_duplex = true;
  p.duplex.duplex_window = 2;
  std::vector<net::timed_xfer> msgs;
  std::mt19937 rng(11);
  std::uint64_t id = 0;
  for (std::uint32_t i = 1; i < 32; ++i)
    for (std::uint32_t s = 0; s < 32; ++s)
      msgs.push_back(msg(++id, s, s ^ i, 16 + rng() % 64, i * 40 + rng() % 100));
  net::circuit_engine e{cube(5), p};
  const auto r = run(e, msgs);
  REQUIRE(r.size() == msgs.size());
  for (std::size_t k = 0; k < r.size(); ++k)
    CHECK(r[k].e > msgs[k].at);
  CHECK(e.idle());
}
