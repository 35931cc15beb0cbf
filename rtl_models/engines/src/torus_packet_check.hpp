// The bridge's check of what comes out of the Verilated torus, apart from the model so it
// can be tested on its own (tests/unit/test_packet_check.cpp). Each packet an NI writes is
// numbered per source (seq) and carries payload_byte(src, seq, b) at byte b. A packet
// must arrive once, complete, at the tile it was sent to, as it was sent (destination,
// length, unicast); it must then leave that tile's ejection port as a header followed by
// exactly its bytes, each the one sent. Anything else is a fault of the fabric: a packet
// lost, repeated, corrupted or misrouted. A lost packet shows as a message never
// delivered, which the bridge's watchdog reports.
//
// A fault does not stop the check: later calls go on as before and failure() keeps the
// first. The bridge passes it on after each call, so the run reports its first fault,
// whether the check's or the bridge's own.
#pragma once

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::rtl_engines {

// A packet's header as a torus node reports it, in the tile ids of the torus.
struct torus_header {
  std::uint16_t src{0};
  std::uint16_t dst{0};
  bool multicast{false};
  std::uint16_t seq{0};
  std::uint16_t len{0};  // payload bytes
};

// One cycle of a tile's ejection port: a packet's header, a byte of it, or both.
struct ejection_cycle {
  bool hdr_valid{false};
  torus_header hdr;
  bool byte_valid{false};
  std::uint8_t data{0};
};

class torus_packet_check {
 public:
  // A packet an NI wrote that has not left its destination's ejection port whole.
  struct packet {
    std::uint64_t id{0};  // its message
    std::uint32_t dst{0};
    std::uint32_t len{0};
    bool arrived{false};
    // The cycle it was complete at the tile it is at. The check does not read it: it is
    // the bridge's, which counts a hop that starts later as contention.
    std::uint64_t ready{0};
  };

  explicit torus_packet_check(unsigned tiles) : next_seq_(tiles, 0), rx_(tiles) {}

  // The first fault, empty while there is none.
  [[nodiscard]] const std::string& failure() const { return failure_; }

  // Byte b of the packet numbered seq from tile src: what the bridge writes and expects.
  static std::uint8_t payload_byte(unsigned src, unsigned seq, unsigned b) {
    const unsigned v = src * 0x9dU + seq * 0x3bU + b * 0x25U + (seq >> 8) * 0x11U + (b >> 8);
    return static_cast<std::uint8_t>(v ^ (v >> 8));
  }

  // Packet seq of tile src in the maps: packet numbers keep 16 bits, as in the header.
  static std::uint32_t key(unsigned src, unsigned seq) {
    return (static_cast<std::uint32_t>(src) << 16) | (seq & 0xffffU);
  }

  // Expects message id of `packets` packets from src; returns its first packet's number,
  // the next src has not used (its packets are numbered on from there, modulo 65536).
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

  // Tile src's NI wrote packet seq of message id: len bytes to dst, in cycle `now`.
  // False when a packet of that number is still in the torus (the numbers wrapped).
  bool sent(unsigned src, unsigned seq, std::uint64_t id, std::uint32_t dst, std::uint32_t len,
            std::uint64_t now) {
    if (packets_.emplace(key(src, seq), packet{id, dst, len, false, now}).second) return true;
    fail("tile " + std::to_string(src) + " wrote packet " + std::to_string(seq) +
         " while its namesake is still in the torus (more than 65536 packets in flight)");
    return false;
  }

  // The packet in the torus under key(src, seq), if any.
  [[nodiscard]] packet* find(std::uint32_t k) {
    const auto it = packets_.find(k);
    return it == packets_.end() ? nullptr : &it->second;
  }
  // Some packet was written and has not left its ejection port whole.
  [[nodiscard]] bool holds_packets() const { return !packets_.empty(); }

  // Packet h complete at `tile` in cycle `at` (the node's arrive_o). Returns its message
  // when it was the message's last packet.
  std::optional<std::uint64_t> arrive(unsigned tile, const torus_header& h, std::uint64_t at) {
    const auto it = packets_.find(key(h.src, h.seq));
    std::ostringstream why;
    why << "tile " << tile << " received packet " << h.seq << " of tile " << h.src << " in cycle "
        << at;
    if (it == packets_.end()) {
      fail(why.str() + ", which no NI sent");
      return std::nullopt;
    }
    packet& k = it->second;
    if (k.arrived) {
      fail(why.str() + " a second time");
      return std::nullopt;
    }
    if (tile != k.dst || h.dst != k.dst || h.len != k.len || h.multicast) {
      why << " (" << (h.multicast ? "multicast, " : "") << "to " << h.dst << ", " << h.len
          << " bytes), sent to " << k.dst << " with " << k.len << " bytes";
      fail(why.str());
      return std::nullopt;
    }
    k.arrived = true;
    message& m = msgs_.at(k.id);
    if (++m.arrived == m.packets) return k.id;
    return std::nullopt;
  }

  // One cycle of tile t's ejection port, in cycle `now`: a packet's header, then its
  // bytes. Returns the message of a packet whose header came out here as it should.
  std::optional<std::uint64_t> eject(unsigned t, const ejection_cycle& w, std::uint64_t now) {
    rx_state& r = rx_[t];
    const std::string where =
        "tile " + std::to_string(t) + "'s ejection port in cycle " + std::to_string(now);
    std::optional<std::uint64_t> opened;
    if (w.hdr_valid) {
      if (r.open) {
        fail(where + ": a new packet after " + std::to_string(r.got) + " of " +
             std::to_string(r.len) + " bytes");
        return std::nullopt;
      }
      const auto it = packets_.find(key(w.hdr.src, w.hdr.seq));
      if (it == packets_.end() || !it->second.arrived || it->second.dst != t) {
        fail(where + ": packet " + std::to_string(w.hdr.seq) + " of tile " +
             std::to_string(w.hdr.src) + " was not delivered here");
        return std::nullopt;
      }
      opened = it->second.id;
      r = rx_state{true, it->first, it->second.len, 0};
    }
    if (!w.byte_valid) return opened;
    if (!r.open) {
      fail(where + ": a byte outside a packet");
      return opened;
    }
    const unsigned src = r.key >> 16;
    const unsigned seq = r.key & 0xffffU;
    const std::uint8_t want = payload_byte(src, seq, r.got);
    if (w.data != want) {
      std::ostringstream os;
      os << where << ": byte " << r.got << " of packet " << seq << " of tile " << src << " is 0x"
         << std::hex << unsigned{w.data} << ", sent 0x" << unsigned{want};
      fail(os.str());
      return opened;
    }
    if (++r.got == r.len) {
      packets_.erase(r.key);
      r.open = false;
    }
    return opened;
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

  void fail(const std::string& why) {
    if (failure_.empty()) failure_ = why;
  }

  std::vector<std::uint16_t> next_seq_;                // per tile: the next packet's number
  std::vector<rx_state> rx_;                           // per tile
  std::unordered_map<std::uint64_t, message> msgs_;    // by id: expected, not yet delivered
  std::unordered_map<std::uint32_t, packet> packets_;  // by key(src, seq): in the torus
  std::string failure_;
};

}  // namespace tessera::rtl_engines
