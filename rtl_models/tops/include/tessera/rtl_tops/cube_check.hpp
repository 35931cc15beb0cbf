#pragma once

// The one check of what comes out of the Verilated cube, for the engine and the testbench
// alike, apart from the model so it is tested on its own
// (tests/unit/test_circuit_check.cpp). Element e of the message numbered seq from tile src
// carries word(src, seq, e). A message an NI took must be set up once, at its
// destination only, with its header as sent (destination, length); then exactly its k
// elements must leave that ejection port, each the one sent, the last one flagged; and
// the messages from one source leave a tile's port in the order the source's NI took
// them (one message streams at a time, and a circuit delivers in order). Anything else is
// a fault of the fabric: a circuit or an element lost, repeated, corrupted, reordered or
// misrouted. The first fault is kept (failure()); later cycles are still checked.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera/rtl_tops/cube_words.hpp"

namespace tessera::rtl_tops {

// One cycle of a tile's ejection port (tsr_cube_ni's rx side).
struct cube_rx {
  bool start = false;  // a circuit to this tile set up in this cycle; hdr is its header
  cube_hdr hdr;
  bool valid = false;  // an element
  bool last = false;
  std::uint32_t data = 0;
};

class cube_check {
 public:
  // A message taken and not yet out whole.
  struct message {
    std::uint64_t id{0};
    unsigned src{0};
    unsigned dst{0};
    std::uint16_t seq{0};
    std::uint32_t k{1};      // elements
    std::uint64_t order{0};  // its number among the messages its source's NI took
    bool set_up{false};      // its circuit reached its destination
    std::uint64_t setup{0};  // in this cycle (S)
    std::uint32_t got{0};    // elements out of the ejection port
  };

  explicit cube_check(unsigned tiles)
      : tiles_(tiles), taken_(tiles, 0), rx_(tiles), last_out_(std::size_t{tiles} * tiles, 0) {}

  // Element e of the message numbered seq from tile src: what a driver hands over and the
  // check expects.
  static std::uint32_t word(unsigned src, unsigned seq, unsigned e) {
    std::uint32_t v = (src * 0x9e3779b1U) ^ (seq * 0x85ebca77U) ^ (e * 0xc2b2ae3dU);
    v ^= v >> 15;
    v *= 0x2c1b3c6dU;
    return v ^ (v >> 13);
  }

  // Message seq of tile src in the map: numbers keep 16 bits, as in the header.
  static std::uint32_t key(unsigned src, unsigned seq) {
    return (static_cast<std::uint32_t>(src) << 16) | (seq & 0xffffU);
  }

  // Tile src's NI took message id, numbered seq, of k elements to dst. False when a
  // message of that number is still in the cube (the numbers wrapped).
  bool taken(std::uint64_t id, unsigned src, unsigned dst, std::uint16_t seq, std::uint32_t k) {
    message m;
    m.id = id;
    m.src = src;
    m.dst = dst;
    m.seq = seq;
    m.k = k;
    m.order = taken_[src]++;
    if (msgs_.emplace(key(src, seq), m).second) return true;
    fail("tile " + std::to_string(src) + " sent message seq " + std::to_string(seq) +
         " while its namesake is still in the cube (65536 messages in flight)");
    return false;
  }

  // The message in the cube under key(src, seq), if any.
  [[nodiscard]] const message* find(std::uint32_t k) const {
    const auto it = msgs_.find(k);
    return it == msgs_.end() ? nullptr : &it->second;
  }
  // Some message was taken and is not out whole.
  [[nodiscard]] bool holds_messages() const { return !msgs_.empty(); }

  // One cycle of tile t's ejection port in cycle `now`: a circuit set up to it, then its
  // elements. Returns the message whose last element left in this cycle (it is then
  // forgotten).
  std::optional<message> receive(unsigned t, const cube_rx& rx, std::uint64_t now) {
    if (!rx.start && !rx.valid) return std::nullopt;
    const auto where = [&] {
      return "tile " + std::to_string(t) + "'s ejection port in cycle " + std::to_string(now);
    };
    std::optional<std::uint32_t>& open = rx_[t];
    if (rx.start) {
      const cube_hdr& h = rx.hdr;
      if (open) {
        fail(where() + ": a circuit from " + std::to_string(h.src) + " set up while " +
             std::to_string(msgs_.at(*open).src) + "'s is still arriving");
        return std::nullopt;
      }
      const auto it = msgs_.find(key(h.src, h.seq));
      if (it == msgs_.end()) {
        fail(where() + ": a circuit from tile " + std::to_string(h.src) + " seq " +
             std::to_string(h.seq) + ", which no NI sent");
        return std::nullopt;
      }
      message& m = it->second;
      if (m.dst != t || h.dst != t || h.len != m.k || m.set_up) {
        fail(where() + ": message " + std::to_string(m.id) + " " + std::to_string(m.src) + "->" +
             std::to_string(m.dst) + " (" + std::to_string(m.k) + " elements) set up here as " +
             std::to_string(h.src) + "->" + std::to_string(h.dst) + " with " +
             std::to_string(h.len) + (m.set_up ? ", a second time" : ""));
        return std::nullopt;
      }
      std::uint64_t& last = last_out_[std::size_t{t} * tiles_ + m.src];
      if (m.order + 1 <= last) {
        fail(where() + ": message " + std::to_string(m.id) + " " + std::to_string(m.src) + "->" +
             std::to_string(m.dst) + " set up after one its source sent later");
        return std::nullopt;
      }
      last = m.order + 1;
      m.set_up = true;
      m.setup = now;
      open = it->first;
    }
    if (!rx.valid) return std::nullopt;
    if (!open) {
      fail(where() + ": an element outside a circuit");
      return std::nullopt;
    }
    message& m = msgs_.at(*open);
    const std::uint32_t want = word(m.src, m.seq, m.got);
    if (rx.data != want) {
      std::ostringstream os;
      os << where() << ": element " << m.got << " of message " << m.id << " " << m.src << "->"
         << m.dst << " is 0x" << std::hex << rx.data << ", sent 0x" << want;
      fail(os.str());
      return std::nullopt;
    }
    const bool last = ++m.got == m.k;
    if (last != rx.last) {
      fail(where() + ": element " + std::to_string(m.got - 1) + " of message " +
           std::to_string(m.id) + " of " + std::to_string(m.k) +
           (last ? " is the last but not flagged" : " is flagged last"));
      return std::nullopt;
    }
    if (!last) return std::nullopt;
    const message done = m;
    msgs_.erase(*open);
    open.reset();
    return done;
  }

  [[nodiscard]] const std::string& failure() const { return failure_; }

 private:
  void fail(const std::string& why) {
    if (failure_.empty()) failure_ = why;
  }

  unsigned tiles_;
  std::vector<std::uint64_t> taken_;                 // per tile: messages its NI took
  std::vector<std::optional<std::uint32_t>> rx_;     // per tile: the circuit arriving
  std::vector<std::uint64_t> last_out_;              // per (tile, src): the last set up's order + 1
  std::unordered_map<std::uint32_t, message> msgs_;  // by key(src, seq): taken
  std::string failure_;
};

}  // namespace tessera::rtl_tops
