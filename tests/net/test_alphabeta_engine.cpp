// The alpha-beta engine against Grama's ts + tw m (Grama slide 4)
// and its port rules (one output, one input per tile, lowest source first).
#include <catch2/catch.hpp>

#include "tessera/net/alphabeta_engine.hpp"
#include "tessera/net/replay.hpp"

#include "timed_msg.hpp"

namespace net = tessera::net;

using tessera::test::msg;

TEST_CASE("alphabeta: a message costs ts + tw m, a control message ts", "[alphabeta]") {
  net::alphabeta_engine e{4, {37, 3}};
  auto c = msg(2, 2, 3, 0, 10);
  c.x.control = true;
  const auto r = net::replay(e, {msg(1, 0, 1, 100, 5), c});
  CHECK(r[0].delivered == 5 + 37 + 3 * 100);
  CHECK(r[1].delivered == 10 + 37);
}

TEST_CASE("alphabeta: one input port serves the lowest source first", "[alphabeta]") {
  net::alphabeta_engine e{4, {10, 1}};
  const auto r = net::replay(e, {msg(1, 3, 0, 5), msg(2, 1, 0, 5), msg(3, 2, 0, 5)});
  CHECK(r[1].delivered == 15);  // tile 1 first
  CHECK(r[2].delivered == 30);  // then tile 2
  CHECK(r[0].delivered == 45);  // then tile 3
  CHECK(e.contention().blocked == 2);
}

TEST_CASE("alphabeta: a tile's messages leave in the order posted", "[alphabeta]") {
  net::alphabeta_engine e{4, {10, 1}};
  const auto r = net::replay(e, {msg(1, 0, 1, 20), msg(2, 0, 2, 0)});
  CHECK(r[0].delivered == 30);
  CHECK(r[1].started == 30);
  CHECK(r[1].delivered == 40);
}
