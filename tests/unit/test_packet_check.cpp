// The check of what comes out of the Verilated torus, the engine's and tb_torus's
// (rtl_models/tops torus_check.hpp), fed arrivals and ejection-port cycles
// by hand: a good stream delivers each message once, and every fault the check names is
// caught, with the tile, packet and cycle.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "tessera/rtl_tops/torus_check.hpp"

using tessera::rtl_tops::link_word;
using tessera::rtl_tops::torus_check;
using tessera::rtl_tops::torus_hdr;

namespace {

// The header of packet seq of tile src, len bytes to dst, as a node reports it.
torus_hdr header(unsigned src, unsigned dst, unsigned seq, unsigned len) {
  torus_hdr h;
  h.src = static_cast<std::uint16_t>(src);
  h.dst = static_cast<std::uint16_t>(dst);
  h.seq = static_cast<std::uint16_t>(seq);
  h.len = static_cast<std::uint16_t>(len);
  return h;
}

// What the ejection port hands out for that packet: its header, then a byte a cycle.
std::vector<link_word> ejected(unsigned src, unsigned dst, unsigned seq, unsigned len) {
  std::vector<link_word> out{{true, header(src, dst, seq, len), false, 0}};
  for (unsigned b = 0; b < len; ++b)
    out.push_back({false, {}, true, torus_check::payload_byte(src, seq, b)});
  return out;
}

// Feeds the cycles to tile `tile`'s port from cycle `first` on; returns the messages
// whose packets' headers came out, in order.
std::vector<std::uint64_t> feed(torus_check& c, unsigned tile, const std::vector<link_word>& cycles,
                                std::uint64_t first) {
  std::vector<std::uint64_t> opened;
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    if (const auto id = c.eject(tile, cycles[i], first + i)) opened.push_back(*id);
  }
  return opened;
}

std::string hex(unsigned v) {
  char s[8];
  std::snprintf(s, sizeof s, "0x%x", v);
  return s;
}

// How arrive() names packet seq of tile src at `tile` in cycle `at`.
std::string received(unsigned tile, unsigned seq, unsigned src, std::uint64_t at) {
  return "tile " + std::to_string(tile) + " received packet " + std::to_string(seq) + " of tile " +
         std::to_string(src) + " in cycle " + std::to_string(at);
}

// How eject() names tile t's port in cycle `at`.
std::string port(unsigned t, std::uint64_t at) {
  return "tile " + std::to_string(t) + "'s ejection port in cycle " + std::to_string(at);
}

}  // namespace

TEST_CASE("packet check: a message of several packets is delivered once, bytes checked",
          "[rtl_tops]") {
  torus_check c(4, false);
  // Message 7: 10 bytes from tile 1 to tile 2 in packets of 4 (4, 4, 2 bytes).
  const std::vector<unsigned> lens{4, 4, 2};
  const std::uint16_t seq = c.add(7, 1, 3);
  CHECK(seq == 0);
  CHECK(c.add(8, 1, 1) == seq + 3);  // the next message of tile 1 is numbered on
  CHECK(c.add(9, 0, 1) == 0);        // each tile numbers its own
  for (unsigned p = 0; p < 3; ++p)
    CHECK(c.sent(1, seq + p, 7, 2, lens[p], 10 + p));
  CHECK(c.packets(7) == 3);
  // The packets arrive out of order; the last to arrive completes the message.
  CHECK_FALSE(c.arrive(2, header(1, 2, seq + 2, lens[2]), 30).has_value());
  CHECK_FALSE(c.arrive(2, header(1, 2, seq + 0, lens[0]), 31).has_value());
  CHECK(c.arrived(7) == 2);
  CHECK(c.arrive(2, header(1, 2, seq + 1, lens[1]), 32) == std::optional<std::uint64_t>{7});
  CHECK(c.arrived(7) == 3);
  c.remove(7);
  // Then they leave the ejection port, each header naming the message, in arrival order.
  std::uint64_t at = 33;
  for (const unsigned p : {2U, 0U, 1U}) {
    CHECK(feed(c, 2, ejected(1, 2, seq + p, lens[p]), at) == std::vector<std::uint64_t>{7});
    at += 1 + lens[p];
  }
  CHECK(c.failure().empty());
  CHECK_FALSE(c.holds_packets());
}

TEST_CASE("packet check: a packet is held from its write until it has left its port",
          "[rtl_tops]") {
  torus_check c(4, true);
  const std::uint16_t seq = c.add(3, 0, 1);
  CHECK_FALSE(c.holds_packets());
  CHECK(c.find(torus_check::key(0, seq)) == nullptr);
  CHECK(c.sent(0, seq, 3, 1, 2, 5));
  const torus_check::packet* k = c.find(torus_check::key(0, seq));
  REQUIRE(k != nullptr);
  CHECK(k->id == 3);
  CHECK(k->dst == 1);
  CHECK(k->len == 2);
  CHECK(k->ready == 5);  // complete at its source in its write cycle
  CHECK(c.arrive(1, header(0, 1, seq, 2), 9) == std::optional<std::uint64_t>{3});
  CHECK(c.holds_packets());  // arrived, not yet out
  std::vector<link_word> out = ejected(0, 1, seq, 2);
  feed(c, 1, {out[0], out[1]}, 10);
  CHECK(c.holds_packets());
  feed(c, 1, {out[2]}, 12);
  CHECK_FALSE(c.holds_packets());
  CHECK(c.failure().empty());
}

TEST_CASE("packet check: a packet no NI sent, and one arriving twice, are named", "[rtl_tops]") {
  torus_check c(4, true);
  const std::uint16_t seq = c.add(1, 3, 1);
  c.sent(3, seq, 1, 0, 5, 0);
  const unsigned never = seq + 1;  // a number tile 3 has not written
  CHECK_FALSE(c.arrive(0, header(3, 0, never, 5), 20).has_value());
  CHECK(c.failure() == received(0, never, 3, 20) + ", which no NI sent");

  torus_check d(4, true);
  const std::uint16_t s = d.add(1, 3, 2);
  d.sent(3, s, 1, 0, 5, 0);
  d.sent(3, s + 1, 1, 0, 5, 1);
  CHECK_FALSE(d.arrive(0, header(3, 0, s, 5), 20).has_value());
  CHECK_FALSE(d.arrive(0, header(3, 0, s, 5), 21).has_value());
  CHECK(d.failure() == received(0, s, 3, 21) + " a second time");
  // The repeat did not count: one of the message's two packets has arrived.
  CHECK(d.arrived(1) == 1);
}

TEST_CASE("packet check: a packet at or to the wrong tile, of the wrong length or multicast",
          "[rtl_tops]") {
  const unsigned src = 1;
  const unsigned dst = 2;
  const unsigned len = 6;
  // Where each packet arrives and what its header says, against (dst, len, unicast) sent.
  struct arrival {
    const char* what;
    unsigned tile;
    unsigned dst;
    unsigned len;
    bool multicast;
  };
  const std::vector<arrival> wrong{{"at the wrong tile", 3, dst, len, false},
                                   {"to the wrong tile", dst, 3, len, false},
                                   {"of the wrong length", dst, dst, len + 1, false},
                                   {"flagged multicast", dst, dst, len, true}};
  for (const arrival& a : wrong) {
    INFO(a.what);
    torus_check c(4, true);
    const std::uint16_t seq = c.add(4, src, 1);
    c.sent(src, seq, 4, dst, len, 0);
    torus_hdr h = header(src, a.dst, seq, a.len);
    h.multicast = a.multicast;
    CHECK_FALSE(c.arrive(a.tile, h, 40).has_value());
    CHECK(c.failure() == received(a.tile, seq, src, 40) + " (" +
                             (a.multicast ? "multicast, " : "") + "to " + std::to_string(a.dst) +
                             ", " + std::to_string(a.len) + " bytes), sent to " +
                             std::to_string(dst) + " with " + std::to_string(len) + " bytes");
    CHECK(c.arrived(4) == 0);
  }
}

TEST_CASE("packet check: a header on the ejection port inside a packet is named", "[rtl_tops]") {
  torus_check c(4, true);
  const std::uint16_t seq = c.add(1, 0, 2);
  c.sent(0, seq, 1, 3, 4, 0);
  c.sent(0, seq + 1, 1, 3, 4, 1);
  c.arrive(3, header(0, 3, seq, 4), 10);
  c.arrive(3, header(0, 3, seq + 1, 4), 11);
  // The first packet's header and one byte, then the second packet's header.
  const std::vector<link_word> first = ejected(0, 3, seq, 4);
  const std::vector<link_word> second = ejected(0, 3, seq + 1, 4);
  CHECK(feed(c, 3, {first[0], first[1], second[0]}, 12) == std::vector<std::uint64_t>{1});
  CHECK(c.failure() == port(3, 14) + ": a new packet after 1 of 4 bytes");
}

TEST_CASE("packet check: a packet ejected where it was not delivered is named", "[rtl_tops]") {
  const unsigned src = 2;
  const unsigned dst = 1;
  torus_check c(4, true);
  const std::uint16_t seq = c.add(5, src, 1);
  c.sent(src, seq, 5, dst, 3, 0);
  const std::string named = ": packet " + std::to_string(seq) + " of tile " + std::to_string(src) +
                            " was not delivered here";
  SECTION("before it arrived") {
    CHECK(feed(c, dst, {ejected(src, dst, seq, 3)[0]}, 8).empty());
    CHECK(c.failure() == port(dst, 8) + named);
  }
  SECTION("at a tile it was not sent to") {
    c.arrive(dst, header(src, dst, seq, 3), 7);
    CHECK(feed(c, 0, {ejected(src, dst, seq, 3)[0]}, 8).empty());
    CHECK(c.failure() == port(0, 8) + named);
  }
  SECTION("again, after it left") {
    c.arrive(dst, header(src, dst, seq, 3), 7);
    CHECK(feed(c, dst, ejected(src, dst, seq, 3), 8) == std::vector<std::uint64_t>{5});
    CHECK(c.failure().empty());
    CHECK(feed(c, dst, {ejected(src, dst, seq, 3)[0]}, 12).empty());
    CHECK(c.failure() == port(dst, 12) + named);
  }
  SECTION("never written") {
    CHECK(feed(c, dst, {ejected(src, dst, seq + 1, 3)[0]}, 8).empty());
    CHECK(c.failure() == port(dst, 8) + ": packet " + std::to_string(seq + 1) + " of tile " +
                             std::to_string(src) + " was not delivered here");
  }
}

TEST_CASE("packet check: a byte outside a packet is named", "[rtl_tops]") {
  torus_check c(4, true);
  feed(c, 2, {link_word{false, {}, true, 0}}, 3);
  CHECK(c.failure() == port(2, 3) + ": a byte outside a packet");
  // One byte more than the packet has.
  torus_check d(4, true);
  const std::uint16_t seq = d.add(1, 0, 1);
  d.sent(0, seq, 1, 2, 2, 0);
  d.arrive(2, header(0, 2, seq, 2), 4);
  std::vector<link_word> out = ejected(0, 2, seq, 2);
  out.push_back({false, {}, true, torus_check::payload_byte(0, seq, 2)});
  feed(d, 2, out, 5);
  CHECK(d.failure() == port(2, 8) + ": a byte outside a packet");
}

TEST_CASE("packet check: a corrupted byte names its tile, packet, source, index and values",
          "[rtl_tops]") {
  const unsigned src = 3;
  const unsigned dst = 0;
  const unsigned len = 5;
  const unsigned bad = 3;  // the byte index corrupted
  torus_check c(4, true);
  c.add(1, src, 1);
  // The message is tile 3's second, so its packet is not numbered 0.
  const std::uint16_t seq = c.add(2, src, 1);
  REQUIRE(seq == 1);
  c.sent(src, seq, 2, dst, len, 0);
  c.arrive(dst, header(src, dst, seq, len), 6);
  std::vector<link_word> out = ejected(src, dst, seq, len);
  const unsigned sent = torus_check::payload_byte(src, seq, bad);
  const unsigned got = sent ^ 0x40U;  // one bit of byte 3
  out[1 + bad].data = static_cast<std::uint8_t>(got);
  CHECK(feed(c, dst, out, 7) == std::vector<std::uint64_t>{2});
  CHECK(c.failure() == port(dst, 7 + 1 + bad) + ": byte " + std::to_string(bad) + " of packet " +
                           std::to_string(seq) + " of tile " + std::to_string(src) + " is " +
                           hex(got) + ", sent " + hex(sent));
}

TEST_CASE("packet check: a number still in the torus may not be written again", "[rtl_tops]") {
  // 65536 one-packet messages from tile 0 in flight: the next one's number wraps to 0.
  torus_check c(2, true);
  for (std::uint64_t id = 0; id < 65536; ++id) {
    const std::uint16_t seq = c.add(id, 0, 1);
    REQUIRE(seq == id);
    REQUIRE(c.sent(0, seq, id, 1, 1, 0));
  }
  const std::uint16_t wrapped = c.add(65536, 0, 1);
  CHECK(wrapped == 0);
  CHECK_FALSE(c.sent(0, wrapped, 65536, 1, 1, 1));
  CHECK(c.failure() ==
        "tile 0 wrote packet 0 while its namesake is still in the torus (more "
        "than 65536 packets in flight)");
}

TEST_CASE("packet check: the first fault is kept, and the check goes on after it", "[rtl_tops]") {
  torus_check c(4, true);
  const std::uint16_t seq = c.add(1, 0, 1);
  c.sent(0, seq, 1, 1, 1, 0);
  c.arrive(1, header(0, 1, seq + 9, 1), 3);  // no NI sent it
  const std::string first = c.failure();
  CHECK_FALSE(first.empty());
  // The real packet still arrives and leaves; a later fault does not replace the first.
  CHECK(c.arrive(1, header(0, 1, seq, 1), 4) == std::optional<std::uint64_t>{1});
  CHECK(feed(c, 1, ejected(0, 1, seq, 1), 5) == std::vector<std::uint64_t>{1});
  CHECK_FALSE(c.holds_packets());
  feed(c, 1, {link_word{false, {}, true, 0}}, 7);
  CHECK(c.failure() == first);
}

TEST_CASE("packet check: a source's unicast packets leave a port in the order written",
          "[rtl_tops]") {
  torus_check c(4, true);
  const std::uint16_t seq = c.add(1, 0, 2);
  c.sent(0, seq, 1, 3, 2, 0);
  c.sent(0, seq + 1, 1, 3, 2, 1);
  c.arrive(3, header(0, 3, seq, 2), 5);
  c.arrive(3, header(0, 3, seq + 1, 2), 6);
  // The second packet out first is no fault by itself; the first after it is.
  CHECK(feed(c, 3, ejected(0, 3, seq + 1, 2), 7) == std::vector<std::uint64_t>{1});
  CHECK(c.failure().empty());
  CHECK(feed(c, 3, ejected(0, 3, seq, 2), 10).empty());
  CHECK(c.failure() == port(3, 10) + ": packet " + std::to_string(seq) +
                           " of tile 0 after a packet its source wrote later");
}

TEST_CASE("packet check: a multicast packet is owed to every tile its tree delivers to",
          "[rtl_tops]") {
  torus_check c(4, true);
  // Packet 5 of tile 0, 3 bytes on a tree that delivers to tiles 1 and 2 (header dst 0).
  REQUIRE(c.sent(0, 5, 9, 0, 3, true, {1, 2}, 0));
  torus_hdr h = header(0, 0, 5, 3);
  h.multicast = true;
  CHECK_FALSE(c.arrive(1, h, 4).has_value());
  CHECK_FALSE(c.arrive(2, h, 5).has_value());
  CHECK(c.failure().empty());
  std::vector<link_word> out = ejected(0, 0, 5, 3);
  out[0].hdr.multicast = true;
  feed(c, 1, out, 6);
  CHECK(c.holds_packets());  // tile 2 still owed
  CHECK(c.owed(4) == " tile 2 lacks (src 0, seq 5);");
  feed(c, 2, out, 7);
  CHECK_FALSE(c.holds_packets());
  CHECK(c.delivered() == 2);
  CHECK(c.failure().empty());
  // At a tile the tree does not deliver to.
  torus_check d(4, true);
  d.sent(0, 5, 9, 0, 3, true, {1, 2}, 0);
  d.arrive(3, h, 4);
  CHECK(d.failure() ==
        received(3, 5, 0, 4) + " (multicast, to 0, 3 bytes), sent to 0 with 3 bytes");
}
