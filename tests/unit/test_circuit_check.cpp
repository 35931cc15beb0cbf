// The check of what comes out of the Verilated cube, the engine's and tb_cube's
// (rtl_models/tops cube_check.hpp), fed ejection-port cycles by hand: a good circuit
// delivers its message once, and every fault the check names is caught, with the tile,
// message and cycle.
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tessera/rtl_tops/cube_check.hpp"

using tessera::rtl_tops::cube_check;
using tessera::rtl_tops::cube_hdr;
using tessera::rtl_tops::cube_rx;

namespace {

// What tile dst's port hands out for message seq of k elements from src: the set-up
// cycle (no element yet), then one element a cycle, the last flagged.
std::vector<cube_rx> circuit(unsigned src, unsigned dst, unsigned seq, unsigned k) {
  cube_rx start;
  start.start = true;
  start.hdr = cube_hdr{static_cast<std::uint16_t>(src), static_cast<std::uint16_t>(dst),
                       static_cast<std::uint16_t>(seq), static_cast<std::uint16_t>(k)};
  std::vector<cube_rx> out{start};
  for (unsigned e = 0; e < k; ++e) {
    cube_rx rx;
    rx.valid = true;
    rx.last = e + 1 == k;
    rx.data = cube_check::word(src, seq, e);
    out.push_back(rx);
  }
  return out;
}

// Feeds the cycles to tile t from cycle `first` on; returns the messages completed.
std::vector<cube_check::message> feed(cube_check& c, unsigned t, const std::vector<cube_rx>& rx,
                                      std::uint64_t first) {
  std::vector<cube_check::message> done;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    if (const auto m = c.receive(t, rx[i], first + i)) done.push_back(*m);
  }
  return done;
}

std::string port(unsigned t, std::uint64_t at) {
  return "tile " + std::to_string(t) + "'s ejection port in cycle " + std::to_string(at);
}

}  // namespace

TEST_CASE("circuit check: a message is set up once and delivered whole", "[rtl_tops]") {
  cube_check c(4);
  REQUIRE(c.taken(7, 1, 2, 3, 2));
  CHECK(c.holds_messages());
  const std::vector<cube_check::message> done = feed(c, 2, circuit(1, 2, 3, 2), 10);
  REQUIRE(done.size() == 1);
  CHECK(done[0].id == 7);
  CHECK(done[0].setup == 10);  // S: the cycle the circuit reached tile 2
  CHECK(done[0].got == 2);
  CHECK_FALSE(c.holds_messages());
  CHECK(c.failure().empty());
}

TEST_CASE("circuit check: a corrupted element names its message, index and values", "[rtl_tops]") {
  cube_check c(4);
  c.taken(1, 0, 3, 5, 3);
  std::vector<cube_rx> rx = circuit(0, 3, 5, 3);
  const std::uint32_t sent = cube_check::word(0, 5, 1);
  rx[2].data = sent ^ 0x100U;
  CHECK(feed(c, 3, rx, 20).empty());
  std::ostringstream want;
  want << port(3, 22) << ": element 1 of message 1 0->3 is 0x" << std::hex << (sent ^ 0x100U)
       << ", sent 0x" << sent;
  CHECK(c.failure() == want.str());
}

TEST_CASE("circuit check: a circuit at the wrong tile, of the wrong length or from nowhere",
          "[rtl_tops]") {
  cube_check c(4);
  c.taken(4, 1, 2, 0, 3);
  CHECK(feed(c, 3, {circuit(1, 3, 0, 3)[0]}, 5).empty());
  CHECK(c.failure() == port(3, 5) + ": message 4 1->2 (3 elements) set up here as 1->3 with 3");
  cube_check d(4);
  d.taken(4, 1, 2, 0, 3);
  feed(d, 2, {circuit(1, 2, 0, 2)[0]}, 5);
  CHECK(d.failure() == port(2, 5) + ": message 4 1->2 (3 elements) set up here as 1->2 with 2");
  cube_check e(4);
  feed(e, 2, {circuit(1, 2, 9, 3)[0]}, 5);
  CHECK(e.failure() == port(2, 5) + ": a circuit from tile 1 seq 9, which no NI sent");
}

TEST_CASE("circuit check: an element outside a circuit and a wrong last flag are named",
          "[rtl_tops]") {
  cube_check c(4);
  cube_rx stray;
  stray.valid = true;
  feed(c, 0, {stray}, 3);
  CHECK(c.failure() == port(0, 3) + ": an element outside a circuit");
  cube_check d(4);
  d.taken(2, 0, 1, 0, 3);
  std::vector<cube_rx> rx = circuit(0, 1, 0, 3);
  rx[2].last = true;  // element 1 of 3
  feed(d, 1, rx, 8);
  CHECK(d.failure() == port(1, 10) + ": element 1 of message 2 of 3 is flagged last");
}

TEST_CASE("circuit check: a source's messages reach a tile in the order its NI took them",
          "[rtl_tops]") {
  cube_check c(4);
  c.taken(1, 0, 2, 0, 1);
  c.taken(2, 0, 2, 1, 1);
  CHECK(feed(c, 2, circuit(0, 2, 1, 1), 4).size() == 1);  // the later one first
  CHECK(c.failure().empty());
  CHECK(feed(c, 2, circuit(0, 2, 0, 1), 6).empty());
  CHECK(c.failure() == port(2, 6) + ": message 1 0->2 set up after one its source sent later");
}

TEST_CASE("circuit check: a number still in the cube may not be taken again", "[rtl_tops]") {
  cube_check c(2);
  REQUIRE(c.taken(1, 0, 1, 7, 4));
  CHECK_FALSE(c.taken(2, 0, 1, 7, 4));
  CHECK(c.failure() ==
        "tile 0 sent message seq 7 while its namesake is still in the cube (65536 messages in "
        "flight)");
}
