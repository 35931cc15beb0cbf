// The tlm2rtl bridge's check of what comes out of the Verilated mesh
// (rtl_models/engines/src/mesh_flit_check.hpp), fed flit streams by hand: a good stream
// delivers each message once, and every fault the check names is caught.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "mesh_flit_check.hpp"

using tessera::rtl_engines::ejected_flit;
using tessera::rtl_engines::mesh_flit_check;

namespace {

// The flits of packet [k0, k0 + n) of message (src, seq) to dst on VC vc, as the bridge
// injects them.
std::vector<ejected_flit> packet(unsigned src, unsigned dst, std::uint32_t seq, std::uint32_t k0,
                                 std::uint32_t n, unsigned vc = 0) {
  std::vector<ejected_flit> out;
  for (std::uint32_t k = k0; k < k0 + n; ++k)
    out.push_back({k == k0, k == k0 + n - 1, vc, src, dst, mesh_flit_check::word(src, seq, k)});
  return out;
}

// Feeds the flits to tile `tile`; returns the messages completed, in order.
std::vector<std::uint64_t> feed(mesh_flit_check& c, unsigned tile,
                                const std::vector<ejected_flit>& flits) {
  std::vector<std::uint64_t> done;
  for (const ejected_flit& f : flits) {
    std::uint64_t id = 0;
    if (c.eject(tile, f, id)) done.push_back(id);
  }
  return done;
}

}  // namespace

TEST_CASE("flit check: packets of a message in any order deliver it once", "[bridge]") {
  mesh_flit_check c(4, 2);
  // Message 7: 5 flits from tile 1 to tile 2 in packets of 2 (2, 2, 1 flits).
  const std::uint32_t seq = c.add(7, 1, 2, 5, 2);
  CHECK(c.packets(7) == 3);
  // The last packet first on VC 1, then the first two interleaved with it on VC 0.
  CHECK(feed(c, 2, packet(1, 2, seq, 4, 1, 1)).empty());
  CHECK(c.left(7) == 2);
  CHECK(feed(c, 2, packet(1, 2, seq, 0, 2, 0)).empty());
  CHECK(feed(c, 2, packet(1, 2, seq, 2, 2, 0)) == std::vector<std::uint64_t>{7});
  CHECK(c.failure().empty());
}

TEST_CASE("flit check: a repeated packet is named", "[bridge]") {
  mesh_flit_check c(4, 1);
  const std::uint32_t seq = c.add(3, 0, 3, 4, 2);
  feed(c, 3, packet(0, 3, seq, 0, 2));
  feed(c, 3, packet(0, 3, seq, 0, 2));
  CHECK(c.failure() ==
        "tile 3 VC 0 got a head at flit 0 of message 3 (0->3), which is no packet it still owes");
}

TEST_CASE("flit check: a corrupted flit is named with its message and index", "[bridge]") {
  mesh_flit_check c(4, 1);
  const std::uint32_t seq = c.add(9, 2, 1, 3, 0);
  std::vector<ejected_flit> flits = packet(2, 1, seq, 0, 3);
  flits[1].data ^= 0x10U;  // one bit of flit 1
  CHECK(feed(c, 1, flits).empty());
  CHECK(c.failure() == "tile 1 VC 0 got a corrupt flit in message 9: flit 1 carried word " +
                           std::to_string(flits[1].data) + " from tile 2");
}

TEST_CASE("flit check: a lost flit is named at the index it left empty", "[bridge]") {
  mesh_flit_check c(4, 1);
  const std::uint32_t seq = c.add(1, 0, 1, 4, 0);
  std::vector<ejected_flit> flits = packet(0, 1, seq, 0, 4);
  flits.erase(flits.begin() + 2);  // flit 2 lost: flit 3 arrives where 2 was due
  feed(c, 1, flits);
  CHECK(c.failure() == "tile 1 VC 0 got a corrupt flit in message 1: flit 2 carried word " +
                           std::to_string(mesh_flit_check::word(0, seq, 3)) + " from tile 0");
  // A lost tail: the next head comes inside the open packet.
  mesh_flit_check d(4, 1);
  const std::uint32_t s1 = d.add(1, 0, 1, 2, 0);
  const std::uint32_t s2 = d.add(2, 0, 1, 2, 0);
  std::vector<ejected_flit> first = packet(0, 1, s1, 0, 2);
  first.pop_back();
  feed(d, 1, first);
  feed(d, 1, packet(0, 1, s2, 0, 2));
  CHECK(d.failure() == "tile 1 VC 0 got a head inside a packet of message 1");
}

TEST_CASE("flit check: a misrouted flit and a stray body flit are named", "[bridge]") {
  mesh_flit_check c(4, 1);
  const std::uint32_t seq = c.add(5, 0, 2, 1, 0);
  feed(c, 3, packet(0, 2, seq, 0, 1));  // for tile 2, out at tile 3
  CHECK(c.failure() == "tile 3 VC 0 got a flit of (src 0, dst 2) that is not for it");
  mesh_flit_check d(4, 1);
  d.add(5, 0, 2, 2, 0);
  feed(d, 2, {ejected_flit{false, false, 0, 0, 2, 0}});
  CHECK(d.failure() == "tile 2 VC 0 got a body flit with no head");
}

TEST_CASE("flit check: a flit naming no message in flight, and a wrong tail", "[bridge]") {
  mesh_flit_check c(4, 1);
  c.add(5, 0, 2, 2, 0);
  feed(c, 2, packet(0, 2, 77, 0, 2));  // a message number tile 0 never used
  CHECK(c.failure().starts_with("tile 2 VC 0 got a head flit from tile 0 that names no message"));
  mesh_flit_check d(4, 1);
  const std::uint32_t seq = d.add(6, 1, 0, 3, 0);
  std::vector<ejected_flit> flits = packet(1, 0, seq, 0, 3);
  flits[1].tail = true;
  feed(d, 0, flits);
  CHECK(d.failure() == "tile 0 VC 0 message 6: the tail came early, at flit 1");
}

TEST_CASE("flit check: a delivered message is forgotten, and a number may not wrap early",
          "[bridge]") {
  mesh_flit_check c(2, 1);
  const std::uint32_t seq = c.add(1, 0, 1, 1, 0);
  CHECK(feed(c, 1, packet(0, 1, seq, 0, 1)) == std::vector<std::uint64_t>{1});
  c.remove(1);
  // A repeat of the delivered message's flit names no message in flight any more.
  feed(c, 1, packet(0, 1, seq, 0, 1));
  CHECK_FALSE(c.failure().empty());
  // 65536 messages in flight from one tile: the next would reuse a word.
  mesh_flit_check d(2, 1);
  for (std::uint64_t id = 0; id < 65536; ++id)
    d.add(id, 0, 1, 1, 0);
  CHECK_THROWS_WITH(d.add(65536, 0, 1, 1, 0),
                    "rtl mesh: tile 0 has more than 65536 messages in flight");
}
