// The half-duplex rule itself (net/duplex.hpp; Bokhari91 §5, Thakur93 §2), which the
// circuit engine, the wormhole engine and the estimator ask: the window, the exchange,
// control messages, who holds its path, and a late receive's completion. The engines'
// half-duplex cases hold them to it in time.
#include <catch2/catch.hpp>

#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/duplex.hpp"
#include "tessera/net/wormhole_engine.hpp"

using namespace tessera::net;

TEST_CASE("duplex: a stream is late only past the window while the other one runs", "[duplex]") {
  // Tile 3's stream of the other direction runs from 100 to 199 (its end is 200).
  const duplex_policy half{duplex_params{.half_duplex = true, .duplex_window = 10}};
  const duplex_stream<cycle_t> other{100, 200, 3};
  CHECK(!half.late(other, cycle_t{110}, 5));  // 110 <= 100 + 10: within the window
  CHECK(half.late(other, cycle_t{111}, 5));
  CHECK(half.late(other, cycle_t{199}, 5));
  CHECK(!half.late(other, cycle_t{200}, 5));                      // the other stream has ended
  CHECK(!half.late(duplex_stream<cycle_t>{}, cycle_t{1000}, 5));  // no stream yet
  // The same decision on the estimator's clock.
  CHECK(half.late(duplex_stream<double>{100, 200, 3}, 111.0, 5));
  CHECK(!half.late(duplex_stream<double>{100, 200, 3}, 110.0, 5));
  // Full duplex: nothing is ever late.
  const duplex_policy full{duplex_params{.duplex_window = 10}};
  CHECK(!full.on());
  CHECK(!full.late(other, cycle_t{150}, 5));
}

TEST_CASE("duplex: an exchange overlaps only with duplex_exchange", "[duplex]") {
  // The other stream is with tile 3; a stream with tile 3 too is the other half of an
  // exchange (Thakur93 §2's beta_ex).
  const duplex_stream<cycle_t> other{100, 200, 3};
  const duplex_policy serial{duplex_params{.half_duplex = true, .duplex_window = 10}};
  CHECK(serial.late(other, cycle_t{150}, 3));
  const duplex_policy exchange{
      duplex_params{.half_duplex = true, .duplex_window = 10, .duplex_exchange = true}};
  CHECK(!exchange.late(other, cycle_t{150}, 3));
  CHECK(exchange.late(other, cycle_t{150}, 4));
}

TEST_CASE("duplex: control messages are exempt", "[duplex]") {
  const duplex_policy half{duplex_params{.half_duplex = true}};
  CHECK(half.applies(false));
  CHECK(!half.applies(true));
  CHECK(!duplex_policy{}.applies(false));
}

TEST_CASE("duplex: a circuit always holds its path, a worm only with duplex_hold", "[duplex]") {
  circuit_params c;
  CHECK(!duplex_of(c).holds());  // full duplex: nothing waits
  c.duplex.half_duplex = true;
  CHECK(duplex_of(c).holds());
  wormhole_params w;
  w.duplex.duplex_hold = true;
  CHECK(!duplex_of(w).holds());
  w.duplex.half_duplex = true;
  CHECK(duplex_of(w).holds());
  w.duplex.duplex_hold = false;
  CHECK(!duplex_of(w).holds());
}

TEST_CASE("duplex: a late receive that drained completes one length after the transmit",
          "[duplex]") {
  // A 20-cycle receive drained by 74 while the transmit ran until 100: it completes at
  // 100 + 20. One that drained after that completes when it drained.
  CHECK(duplex_policy::serial_end(cycle_t{74}, cycle_t{100}, cycle_t{20}) == 120);
  CHECK(duplex_policy::serial_end(cycle_t{150}, cycle_t{100}, cycle_t{20}) == 150);
}
