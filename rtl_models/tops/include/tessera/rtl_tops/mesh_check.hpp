#pragma once

// The one check of what comes out of a Verilated mesh, for the engine and the testbench
// alike, apart from the model so it is tested on its own (tests/unit/test_flit_check.cpp).
// Each flit a driver injects carries word(src, seq, k): the source's message number and
// the flit's index, scrambled per source. Every flit taken out of an ejection port must
// continue the packet open on its VC, or head a packet its message still owes; a packet
// ends with its tail exactly at its last flit; it arrives on a VC in use. With one VC in
// use and one path per source and destination (XY or YX routing) the packets from one
// source to one tile arrive in the order they were sent (the ejection channel and every
// link carry one packet after another); adaptive routing may reorder them. Anything else is a
// fault of the fabric: lost, repeated, corrupted, reordered or misrouted flits, or a
// tail early or late.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera/common/errors.hpp"

namespace tessera::rtl_tops {

// One flit on a tile's ejection port, in the tile ids of the mesh.
struct mesh_flit {
  bool head = false;
  bool tail = false;
  unsigned vc = 0;
  unsigned src = 0;
  unsigned dst = 0;
  std::uint32_t data = 0;
};

class mesh_check {
 public:
  // `vcs`: the VCs in use; `in_order`: hold one source's packets to one tile to the
  // order they were sent (true when one VC is in use and the routing is XY or YX).
  mesh_check(unsigned tiles, unsigned vcs, bool in_order)
      : tiles_(tiles),
        vcs_(vcs),
        in_order_(in_order),
        open_(std::size_t{tiles} * vcs),
        next_seq_(tiles, 0),
        sent_(std::size_t{tiles} * tiles, 0),
        arrived_(std::size_t{tiles} * tiles, 0) {}

  // Flit k of the source's message number seq carries this word.
  static std::uint32_t word(std::uint32_t src, std::uint32_t seq, std::uint32_t k) {
    return ((seq & 0xffffU) << 16 | (k & 0xffffU)) ^ salt(src);
  }

  // Expects message id of `flits` flits in packets of packet_flits (0: one packet) from
  // src to dst; returns its number at src (its flits' seq). Throws input_error when src
  // has 65536 messages in flight (the word keeps 16 bits of the number).
  std::uint32_t add(std::uint64_t id, std::uint32_t src, std::uint32_t dst, std::uint32_t flits,
                    std::uint32_t packet_flits) {
    expect e;
    e.src = src;
    e.dst = dst;
    e.flits = flits;
    e.pf = packet_flits == 0 ? flits : packet_flits;
    e.seq = next_seq_[src]++;
    e.got.assign((flits + e.pf - 1) / e.pf, false);
    e.left = static_cast<std::uint32_t>(e.got.size());
    std::uint64_t& sent = sent_[pair(src, dst)];
    e.order = sent;
    sent += e.got.size();
    const std::uint64_t key = seq_key(src, e.seq);
    if (by_seq_.count(key) != 0) {
      throw input_error("rtl mesh: tile " + std::to_string(src) +
                        " has more than 65536 messages in flight");
    }
    by_seq_[key] = id;
    const std::uint32_t seq = e.seq;
    msgs_.emplace(id, std::move(e));
    return seq;
  }

  // Packets of message id not yet out.
  [[nodiscard]] std::uint32_t left(std::uint64_t id) const { return msgs_.at(id).left; }
  [[nodiscard]] std::uint32_t packets(std::uint64_t id) const {
    return static_cast<std::uint32_t>(msgs_.at(id).got.size());
  }
  // Packets out whole so far, of every message.
  [[nodiscard]] std::uint64_t packets_out() const { return packets_out_; }

  // The message is delivered: forget it.
  void remove(std::uint64_t id) {
    const auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    by_seq_.erase(seq_key(it->second.src, it->second.seq));
    msgs_.erase(it);
  }

  // Checks one flit ejected at `tile`. Returns true when it was the tail of the last
  // packet its message owed (done is then the message); false otherwise. After a fault,
  // failure() names it and every later flit is ignored.
  bool eject(unsigned tile, const mesh_flit& f, std::uint64_t& done) {
    if (!failure_.empty()) return false;
    const auto where = [&] {
      return "tile " + std::to_string(tile) + " VC " + std::to_string(f.vc);
    };
    if (f.vc >= vcs_ || std::size_t{tile} * vcs_ + f.vc >= open_.size() || f.dst != tile) {
      return fail(where() + " got a flit of (src " + std::to_string(f.src) + ", dst " +
                  std::to_string(f.dst) + ") that is not for it");
    }
    open_packet& o = open_[std::size_t{tile} * vcs_ + f.vc];
    if (f.head) {
      if (o.busy)
        return fail(where() + " got a head inside a packet of message " + std::to_string(o.id));
      const std::uint32_t plain = f.data ^ salt(f.src);
      const auto s = by_seq_.find(seq_key(f.src, plain >> 16));
      if (s == by_seq_.end()) {
        return fail(where() + " got a head flit from tile " + std::to_string(f.src) +
                    " that names no message in flight (word " + std::to_string(f.data) + ")");
      }
      const expect& m = msgs_.at(s->second);
      const std::uint32_t k = plain & 0xffffU;
      if (m.dst != tile || k % m.pf != 0 || k >= m.flits || m.got[k / m.pf]) {
        return fail(where() + " got a head at flit " + std::to_string(k) + " of message " +
                    std::to_string(s->second) + " (" + std::to_string(m.src) + "->" +
                    std::to_string(m.dst) + "), which is no packet it still owes");
      }
      if (in_order_) {
        std::uint64_t& next = arrived_[pair(m.src, tile)];
        if (m.order + k / m.pf != next) {
          return fail(where() + " got packet " + std::to_string(k / m.pf) + " of message " +
                      std::to_string(s->second) + " (" + std::to_string(m.src) + "->" +
                      std::to_string(m.dst) + ") out of the order its source sent them in");
        }
        ++next;
      }
      o = open_packet{true, s->second, f.src, k, std::min(k + m.pf, m.flits)};
    } else if (!o.busy) {
      return fail(where() + " got a body flit with no head");
    }
    expect& m = msgs_.at(o.id);
    if (f.src != o.src || f.data != word(o.src, m.seq, o.next)) {
      return fail(where() + " got a corrupt flit in message " + std::to_string(o.id) + ": flit " +
                  std::to_string(o.next) + " carried word " + std::to_string(f.data) +
                  " from tile " + std::to_string(f.src));
    }
    ++o.next;
    if (f.tail != (o.next == o.end)) {
      return fail(where() + " message " + std::to_string(o.id) + ": the tail came " +
                  (f.tail ? "early, at flit " : "late, after flit ") + std::to_string(o.next - 1));
    }
    if (!f.tail) return false;
    o.busy = false;
    ++packets_out_;
    m.got[(o.end - 1) / m.pf] = true;
    if (--m.left != 0) return false;
    done = o.id;
    return true;
  }

  [[nodiscard]] const std::string& failure() const { return failure_; }

  // What the first `most` (tile, source) pairs still owe, in their order: the oldest
  // packet each waits for, " tile D lacks message SEQ packet K from SRC;".
  [[nodiscard]] std::string owed(std::size_t most) const {
    struct oldest {
      std::uint64_t order;
      std::uint32_t seq;
      std::uint32_t packet;
    };
    std::vector<std::pair<std::uint64_t, oldest>> per_pair;  // (dst, src) key
    for (const auto& [id, m] : msgs_) {
      for (std::uint32_t k = 0; k < m.got.size(); ++k) {
        if (m.got[k]) continue;
        const std::uint64_t key = std::uint64_t{m.dst} * tiles_ + m.src;
        const auto it = std::find_if(per_pair.begin(), per_pair.end(),
                                     [&](const auto& p) { return p.first == key; });
        const oldest o{m.order + k, m.seq, k};
        if (it == per_pair.end())
          per_pair.emplace_back(key, o);
        else if (o.order < it->second.order)
          it->second = o;
      }
    }
    std::sort(per_pair.begin(), per_pair.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string out;
    for (std::size_t i = 0; i < per_pair.size() && i < most; ++i) {
      const auto& [key, o] = per_pair[i];
      out += " tile " + std::to_string(key / tiles_) + " lacks message " + std::to_string(o.seq) +
             " packet " + std::to_string(o.packet) + " from " + std::to_string(key % tiles_) + ';';
    }
    return out;
  }

 private:
  struct expect {
    std::uint32_t src{0};
    std::uint32_t dst{0};
    std::uint32_t flits{1};
    std::uint32_t pf{1};  // flits per packet
    std::uint32_t seq{0};
    std::uint32_t left{1};
    std::uint64_t order{0};  // its first packet's number among src's packets to dst
    std::vector<bool> got;   // per packet: its tail came out
  };
  struct open_packet {  // the packet arriving on one VC of a tile's ejection port
    bool busy{false};
    std::uint64_t id{0};
    std::uint32_t src{0};
    std::uint32_t next{0};  // the flit index expected next
    std::uint32_t end{0};   // one past the packet's last flit
  };

  static std::uint32_t salt(std::uint32_t src) { return (src + 1U) * 0x9e3779b1U; }
  static std::uint64_t seq_key(std::uint32_t src, std::uint32_t seq) {
    return std::uint64_t{src} << 16 | (seq & 0xffffU);
  }
  [[nodiscard]] std::size_t pair(std::uint32_t src, std::uint32_t dst) const {
    return std::size_t{src} * tiles_ + dst;
  }
  bool fail(const std::string& why) {
    if (failure_.empty()) failure_ = why;
    return false;
  }

  unsigned tiles_;
  unsigned vcs_;
  bool in_order_;
  std::vector<open_packet> open_;  // per tile and VC
  std::unordered_map<std::uint64_t, expect> msgs_;
  std::unordered_map<std::uint64_t, std::uint64_t> by_seq_;  // (src, seq) -> id
  std::vector<std::uint32_t> next_seq_;                      // per tile
  std::vector<std::uint64_t> sent_;     // per (src, dst): packets expected so far
  std::vector<std::uint64_t> arrived_;  // per (src, dst): packets whose head came out
  std::uint64_t packets_out_{0};
  std::string failure_;
};

}  // namespace tessera::rtl_tops
