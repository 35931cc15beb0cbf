#pragma once

// The one check of what comes out of a Verilated torus, for the engine and the testbench
// alike, apart from the model so it is tested on its own
// (tests/unit/test_packet_check.cpp). Each packet an NI writes is numbered per source
// (seq) and carries payload_byte(src, seq, b) at byte b. A packet must arrive once,
// complete, at each tile it is owed to (a unicast packet its destination; a multicast one
// every tile its tree delivers to), as it was sent (destination, length, unicast or
// multicast); it must then leave each of those tiles' ejection ports as a header
// followed by exactly its bytes, each the one sent. With in_order, the unicast packets
// from one source leave a tile's port in the order the source wrote them (dimension-order
// routes and first-come buffers keep them so). Anything else is a fault of the fabric: a
// packet lost, repeated, corrupted, reordered or misrouted. A lost packet shows
// as a packet never delivered, which its user's watchdog reports.
//
// A fault does not stop the check: later calls go on as before and failure() keeps the
// first. The user passes it on after each call, so a run reports its first fault.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "tessera/rtl_tops/torus_words.hpp"

namespace tessera::rtl_tops {

class torus_check {
 public:
  // A packet an NI wrote that has not left every tile it is owed to whole.
  struct packet {
    std::uint64_t id{0};  // its message
    std::uint32_t dst{0};
    std::uint32_t len{0};
    bool multicast{false};
    std::uint64_t order{0};  // its number among the source's packets written
    // The tiles it is owed to, and per tile whether it arrived and left the port whole.
    std::vector<unsigned> tiles;
    std::vector<bool> arrived;
    std::vector<bool> out;
    unsigned left{0};  // tiles it has not left whole yet
    // The cycle it was complete at the tile it is at. The check does not read it: it is
    // the engine's, which counts a hop that starts later as contention.
    std::uint64_t ready{0};
  };

  torus_check(unsigned tiles, bool in_order)
      : tiles_(tiles),
        in_order_(in_order),
        next_seq_(tiles, 0),
        written_(tiles, 0),
        rx_(tiles),
        last_out_(std::size_t{tiles} * tiles, 0) {}

  // The first fault, empty while there is none.
  [[nodiscard]] const std::string& failure() const { return failure_; }

  // Byte b of the packet numbered seq from tile src: what a driver writes and the check
  // expects.
  static std::uint8_t payload_byte(unsigned src, unsigned seq, unsigned b) {
    const unsigned v = src * 0x9dU + seq * 0x3bU + b * 0x25U + (seq >> 8) * 0x11U + (b >> 8);
    return static_cast<std::uint8_t>(v ^ (v >> 8));
  }

  // Packet seq of tile src in the maps: packet numbers keep 16 bits, as in the header.
  static std::uint32_t key(unsigned src, unsigned seq) {
    return (static_cast<std::uint32_t>(src) << 16) | (seq & 0xffffU);
  }

  // Expects message id of `packets` unicast packets from src; returns its first packet's
  // number, the next src has not used (its packets are numbered on from there, modulo
  // 65536). arrive() then reports the message when its last packet arrived. A user that
  // numbers packets itself (and has no messages to report) does not call it.
  std::uint16_t add(std::uint64_t id, unsigned src, std::uint32_t packets) {
    const std::uint16_t seq = next_seq_[src];
    next_seq_[src] = static_cast<std::uint16_t>(seq + packets);
    msgs_.emplace(id, message{packets, 0});
    return seq;
  }

  // Packets of message id complete at its destination, of how many.
  [[nodiscard]] std::uint32_t arrived(std::uint64_t id) const { return msgs_.at(id).arrived; }
  [[nodiscard]] std::uint32_t packets(std::uint64_t id) const { return msgs_.at(id).packets; }

  // The message is delivered: forget it (its packets stay until they leave their port).
  void remove(std::uint64_t id) { msgs_.erase(id); }

  // Tile src's NI wrote unicast packet seq of message id: len bytes to dst, in cycle
  // `now`. False when a packet of that number is still in the torus (the numbers wrapped).
  bool sent(unsigned src, unsigned seq, std::uint64_t id, std::uint32_t dst, std::uint32_t len,
            std::uint64_t now) {
    return sent(src, seq, id, dst, len, false, {dst}, now);
  }

  // The same for any packet: owed to `to` (a multicast packet: the tiles its tree delivers
  // to; dst is then the header's, not a tile it goes to).
  bool sent(unsigned src, unsigned seq, std::uint64_t id, std::uint32_t dst, std::uint32_t len,
            bool multicast, const std::vector<unsigned>& to, std::uint64_t now) {
    packet k;
    k.id = id;
    k.dst = dst;
    k.len = len;
    k.multicast = multicast;
    k.order = written_[src]++;
    k.tiles = to;
    k.arrived.assign(to.size(), false);
    k.out.assign(to.size(), false);
    k.left = static_cast<unsigned>(to.size());
    k.ready = now;
    if (to.empty()) return true;  // owed nowhere: nothing to check
    if (packets_.emplace(key(src, seq), std::move(k)).second) return true;
    fail("tile " + std::to_string(src) + " wrote packet " + std::to_string(seq) +
         " while its namesake is still in the torus (more than 65536 packets in flight)");
    return false;
  }

  // The packet in the torus under key(src, seq), if any.
  [[nodiscard]] packet* find(std::uint32_t k) {
    const auto it = packets_.find(k);
    return it == packets_.end() ? nullptr : &it->second;
  }
  // Some packet was written and has not left every port it is owed to whole.
  [[nodiscard]] bool holds_packets() const { return !packets_.empty(); }
  // Packets that left a tile's ejection port whole, counted per tile.
  [[nodiscard]] std::uint64_t delivered() const { return delivered_; }

  // Packet h complete at `tile` in cycle `at` (the node's arrive_o). Returns its message
  // when it was the last packet of a message add() expects.
  std::optional<std::uint64_t> arrive(unsigned tile, const torus_hdr& h, std::uint64_t at) {
    const auto it = packets_.find(key(h.src, h.seq));
    std::ostringstream why;
    why << "tile " << tile << " received packet " << h.seq << " of tile " << h.src << " in cycle "
        << at;
    if (it == packets_.end()) {
      fail(why.str() + ", which no NI sent");
      return std::nullopt;
    }
    packet& k = it->second;
    const std::size_t i = slot(k, tile);
    if (i < k.tiles.size() && k.arrived[i]) {
      fail(why.str() + " a second time");
      return std::nullopt;
    }
    if (i == k.tiles.size() || h.dst != k.dst || h.len != k.len || h.multicast != k.multicast) {
      why << " (" << (h.multicast ? "multicast, " : "") << "to " << h.dst << ", " << h.len
          << " bytes), sent to " << k.dst << " with " << k.len << " bytes";
      fail(why.str());
      return std::nullopt;
    }
    k.arrived[i] = true;
    const auto m = msgs_.find(k.id);
    if (k.multicast || m == msgs_.end()) return std::nullopt;
    if (++m->second.arrived == m->second.packets) return k.id;
    return std::nullopt;
  }

  // One cycle of tile t's ejection port, in cycle `now`: a packet's header, then its
  // bytes. Returns the message of a packet whose header came out here as it should.
  std::optional<std::uint64_t> eject(unsigned t, const link_word& w, std::uint64_t now) {
    rx_state& r = rx_[t];
    const auto where = [&] {
      return "tile " + std::to_string(t) + "'s ejection port in cycle " + std::to_string(now);
    };
    std::optional<std::uint64_t> opened;
    if (w.hdr_valid) {
      if (r.open) {
        fail(where() + ": a new packet after " + std::to_string(r.got) + " of " +
             std::to_string(r.len) + " bytes");
        return std::nullopt;
      }
      const auto it = packets_.find(key(w.hdr.src, w.hdr.seq));
      const std::size_t i = it == packets_.end() ? 0 : slot(it->second, t);
      if (it == packets_.end() || i == it->second.tiles.size() || !it->second.arrived[i] ||
          it->second.out[i]) {
        fail(where() + ": packet " + std::to_string(w.hdr.seq) + " of tile " +
             std::to_string(w.hdr.src) + " was not delivered here");
        return std::nullopt;
      }
      const packet& k = it->second;
      if (in_order_ && !k.multicast) {
        std::uint64_t& last = last_out_[std::size_t{t} * tiles_ + w.hdr.src];
        if (k.order + 1 <= last) {
          fail(where() + ": packet " + std::to_string(w.hdr.seq) + " of tile " +
               std::to_string(w.hdr.src) + " after a packet its source wrote later");
          return std::nullopt;
        }
        last = k.order + 1;
      }
      opened = k.id;
      r = rx_state{true, it->first, k.len, 0};
    }
    if (!w.byte_valid) return opened;
    if (!r.open) {
      fail(where() + ": a byte outside a packet");
      return opened;
    }
    const unsigned src = r.key >> 16;
    const unsigned seq = r.key & 0xffffU;
    const std::uint8_t want = payload_byte(src, seq, r.got);
    if (w.data != want) {
      std::ostringstream os;
      os << where() << ": byte " << r.got << " of packet " << seq << " of tile " << src << " is 0x"
         << std::hex << unsigned{w.data} << ", sent 0x" << unsigned{want};
      fail(os.str());
      return opened;
    }
    if (++r.got == r.len) {
      r.open = false;
      ++delivered_;
      const auto it = packets_.find(r.key);
      packet& k = it->second;
      k.out[slot(k, t)] = true;
      if (--k.left == 0) packets_.erase(it);
    }
    return opened;
  }

  // What the first `most` packets still owe, by (tile, source, seq): " tile T lacks (src
  // S, seq Q);".
  [[nodiscard]] std::string owed(std::size_t most) const {
    std::vector<std::tuple<unsigned, unsigned, unsigned>> out;
    for (const auto& [k, p] : packets_) {
      for (std::size_t i = 0; i < p.tiles.size(); ++i)
        if (!p.out[i]) out.emplace_back(p.tiles[i], k >> 16, k & 0xffffU);
    }
    std::sort(out.begin(), out.end());
    std::ostringstream os;
    for (std::size_t i = 0; i < out.size() && i < most; ++i) {
      os << " tile " << std::get<0>(out[i]) << " lacks (src " << std::get<1>(out[i]) << ", seq "
         << std::get<2>(out[i]) << ");";
    }
    return os.str();
  }

 private:
  struct message {
    std::uint32_t packets{1};
    std::uint32_t arrived{0};
  };
  // The packet leaving an ejection port, byte by byte.
  struct rx_state {
    bool open{false};
    std::uint32_t key{0};
    std::uint32_t len{0};
    std::uint32_t got{0};
  };

  // Where `tile` is among the tiles k is owed to, or k.tiles.size().
  static std::size_t slot(const packet& k, unsigned tile) {
    return static_cast<std::size_t>(std::find(k.tiles.begin(), k.tiles.end(), tile) -
                                    k.tiles.begin());
  }

  void fail(const std::string& why) {
    if (failure_.empty()) failure_ = why;
  }

  unsigned tiles_;
  bool in_order_;
  std::vector<std::uint16_t> next_seq_;  // per tile: the next packet's number
  std::vector<std::uint64_t> written_;   // per tile: packets its NI wrote
  std::vector<rx_state> rx_;             // per tile
  std::vector<std::uint64_t> last_out_;  // per (tile, src): the last unicast out's order + 1
  std::unordered_map<std::uint64_t, message> msgs_;    // by id: expected, not yet delivered
  std::unordered_map<std::uint32_t, packet> packets_;  // by key(src, seq): in the torus
  std::uint64_t delivered_{0};
  std::string failure_;
};

}  // namespace tessera::rtl_tops
