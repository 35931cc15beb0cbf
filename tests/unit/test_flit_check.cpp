// The check of what comes out of the Verilated mesh, the engine's and tb_mesh's
// (rtl_models/tops mesh_check.hpp), fed flit streams by hand: a good stream delivers each
// message once, and every fault the check names is caught.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tessera/rtl_tops/mesh_check.hpp"

using tessera::rtl_tops::mesh_check;
using tessera::rtl_tops::mesh_flit;

namespace {

// The flits of packet [k0, k0 + n) of message (src, seq) to dst on VC vc, as the bridge
// injects them.
std::vector<mesh_flit> packet(unsigned src, unsigned dst, std::uint32_t seq, std::uint32_t k0,
                              std::uint32_t n, unsigned vc = 0) {
  std::vector<mesh_flit> out;
  for (std::uint32_t k = k0; k < k0 + n; ++k)
    out.push_back({k == k0, k == k0 + n - 1, vc, src, dst, mesh_check::word(src, seq, k)});
  return out;
}

// Feeds the flits to tile `tile`; returns the messages completed, in order.
std::vector<std::uint64_t> feed(mesh_check& c, unsigned tile, const std::vector<mesh_flit>& flits) {
  std::vector<std::uint64_t> done;
  for (const mesh_flit& f : flits) {
    std::uint64_t id = 0;
    if (c.eject(tile, f, id)) done.push_back(id);
  }
  return done;
}

}  // namespace

TEST_CASE("flit check: packets of a message in any order deliver it once", "[rtl_tops]") {
  mesh_check c(4, 2, false);
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

TEST_CASE("flit check: a repeated packet is named", "[rtl_tops]") {
  mesh_check c(4, 1, true);
  const std::uint32_t seq = c.add(3, 0, 3, 4, 2);
  feed(c, 3, packet(0, 3, seq, 0, 2));
  feed(c, 3, packet(0, 3, seq, 0, 2));
  CHECK(c.failure() ==
        "tile 3 VC 0 got a head at flit 0 of message 3 (0->3), which is no packet it still owes");
}

TEST_CASE("flit check: a corrupted flit is named with its message and index", "[rtl_tops]") {
  mesh_check c(4, 1, true);
  const std::uint32_t seq = c.add(9, 2, 1, 3, 0);
  std::vector<mesh_flit> flits = packet(2, 1, seq, 0, 3);
  flits[1].data ^= 0x10U;  // one bit of flit 1
  CHECK(feed(c, 1, flits).empty());
  CHECK(c.failure() == "tile 1 VC 0 got a corrupt flit in message 9: flit 1 carried word " +
                           std::to_string(flits[1].data) + " from tile 2");
}

TEST_CASE("flit check: a lost flit is named at the index it left empty", "[rtl_tops]") {
  mesh_check c(4, 1, true);
  const std::uint32_t seq = c.add(1, 0, 1, 4, 0);
  std::vector<mesh_flit> flits = packet(0, 1, seq, 0, 4);
  flits.erase(flits.begin() + 2);  // flit 2 lost: flit 3 arrives where 2 was due
  feed(c, 1, flits);
  CHECK(c.failure() == "tile 1 VC 0 got a corrupt flit in message 1: flit 2 carried word " +
                           std::to_string(mesh_check::word(0, seq, 3)) + " from tile 0");
  // A lost tail: the next head comes inside the open packet.
  mesh_check d(4, 1, true);
  const std::uint32_t s1 = d.add(1, 0, 1, 2, 0);
  const std::uint32_t s2 = d.add(2, 0, 1, 2, 0);
  std::vector<mesh_flit> first = packet(0, 1, s1, 0, 2);
  first.pop_back();
  feed(d, 1, first);
  feed(d, 1, packet(0, 1, s2, 0, 2));
  CHECK(d.failure() == "tile 1 VC 0 got a head inside a packet of message 1");
}

TEST_CASE("flit check: a misrouted flit and a stray body flit are named", "[rtl_tops]") {
  mesh_check c(4, 1, true);
  const std::uint32_t seq = c.add(5, 0, 2, 1, 0);
  feed(c, 3, packet(0, 2, seq, 0, 1));  // for tile 2, out at tile 3
  CHECK(c.failure() == "tile 3 VC 0 got a flit of (src 0, dst 2) that is not for it");
  mesh_check d(4, 1, true);
  d.add(5, 0, 2, 2, 0);
  feed(d, 2, {mesh_flit{false, false, 0, 0, 2, 0}});
  CHECK(d.failure() == "tile 2 VC 0 got a body flit with no head");
}

TEST_CASE("flit check: a flit naming no message in flight, and a wrong tail", "[rtl_tops]") {
  mesh_check c(4, 1, true);
  c.add(5, 0, 2, 2, 0);
  feed(c, 2, packet(0, 2, 77, 0, 2));  // a message number tile 0 never used
  CHECK(c.failure().starts_with("tile 2 VC 0 got a head flit from tile 0 that names no message"));
  mesh_check d(4, 1, true);
  const std::uint32_t seq = d.add(6, 1, 0, 3, 0);
  std::vector<mesh_flit> flits = packet(1, 0, seq, 0, 3);
  flits[1].tail = true;
  feed(d, 0, flits);
  CHECK(d.failure() == "tile 0 VC 0 message 6: the tail came early, at flit 1");
}

TEST_CASE("flit check: a delivered message is forgotten, and a number may not wrap early",
          "[rtl_tops]") {
  mesh_check c(2, 1, true);
  const std::uint32_t seq = c.add(1, 0, 1, 1, 0);
  CHECK(feed(c, 1, packet(0, 1, seq, 0, 1)) == std::vector<std::uint64_t>{1});
  c.remove(1);
  // A repeat of the delivered message's flit names no message in flight any more.
  feed(c, 1, packet(0, 1, seq, 0, 1));
  CHECK_FALSE(c.failure().empty());
  // 65536 messages in flight from one tile: the next would reuse a word.
  mesh_check d(2, 1, true);
  for (std::uint64_t id = 0; id < 65536; ++id)
    d.add(id, 0, 1, 1, 0);
  CHECK_THROWS_WITH(d.add(65536, 0, 1, 1, 0),
                    "rtl mesh: tile 0 has more than 65536 messages in flight");
}

TEST_CASE("flit check: with one VC a source's packets to a tile come in the order sent",
          "[rtl_tops]") {
  // Two one-packet messages from tile 0 to tile 1; the second one's packet comes first.
  const auto reordered = [](mesh_check& c) {
    const std::uint32_t s1 = c.add(1, 0, 1, 2, 0);
    const std::uint32_t s2 = c.add(2, 0, 1, 2, 0);
    std::vector<mesh_flit> flits = packet(0, 1, s2, 0, 2);
    const std::vector<mesh_flit> first = packet(0, 1, s1, 0, 2);
    flits.insert(flits.end(), first.begin(), first.end());
    return feed(c, 1, flits);
  };
  mesh_check in_order(4, 1, true);
  CHECK(reordered(in_order).empty());
  CHECK(in_order.failure() ==
        "tile 1 VC 0 got packet 0 of message 2 (0->1) out of the order its source sent them in");
  // Where packets may overtake on other VCs, the order is not checked.
  mesh_check any_order(4, 1, false);
  CHECK(reordered(any_order) == std::vector<std::uint64_t>{2, 1});
  CHECK(any_order.failure().empty());
}

TEST_CASE("flit check: a flit on a VC not in use is named", "[rtl_tops]") {
  mesh_check c(4, 2, false);
  const std::uint32_t seq = c.add(3, 0, 1, 1, 0);
  feed(c, 1, packet(0, 1, seq, 0, 1, 2));
  CHECK(c.failure() == "tile 1 VC 2 got a flit of (src 0, dst 1) that is not for it");
}

TEST_CASE("flit check: what is owed, per tile and source, oldest packet first", "[rtl_tops]") {
  mesh_check c(4, 1, true);
  // Message 5: 4 flits from tile 2 to tile 3 in packets of 2; message 6: 1 flit from 0.
  const std::uint32_t s5 = c.add(5, 2, 3, 4, 2);
  c.add(6, 0, 3, 1, 0);
  feed(c, 3, packet(2, 3, s5, 0, 2));
  CHECK(c.packets_out() == 1);
  CHECK(c.owed(4) ==
        " tile 3 lacks message 0 packet 0 from 0; tile 3 lacks message 0 packet 1 from 2;");
  CHECK(c.owed(1) == " tile 3 lacks message 0 packet 0 from 0;");
}
