#pragma once

// Reference of what each tile must receive: the packets of every message sent to it,
// each exactly once, every payload word intact. With one VC they arrive in the order
// their source sent them; with several, a packet may overtake an earlier one of the same
// source on another VC (docs/wormhole.md rule 9), so a packet is matched to any packet
// owed by its source. A message is delivered the cycle after the tail of the last of its
// packets to arrive crossed the ejection channel.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mesh_driver.hpp"
#include "mesh_monitor.hpp"

namespace tessera::tb {

class mesh_scoreboard {
 public:
  explicit mesh_scoreboard(bool in_order) : in_order_(in_order) {}

  void expect(const mesh_message& m) {
    auto& q = want_[{m.dst, m.src}];
    const unsigned per = m.packet_flits == 0 ? m.flits : m.packet_flits;
    unsigned n_packets = 0;
    for (unsigned first = 0, k = 0; first < m.flits; first += per, ++k, ++n_packets) {
      const unsigned n = std::min(per, m.flits - first);
      q.push_back({m.seq, k, first, n});
    }
    left_[{m.src, m.seq}] = {n_packets, 0};
    ++owed_;
  }

  void delivered(const mesh_packet& p) {
    auto& q = want_[{p.tile, p.src}];
    const std::string where = "tile " + std::to_string(p.tile) + " from " + std::to_string(p.src);
    // The owed packet this one is: the oldest (one VC), or any whose words it carries.
    auto it = q.begin();
    if (!in_order_) {
      it = std::find_if(q.begin(), q.end(), [&](const packet_ref& w) {
        return !p.words.empty() && p.words[0] == mesh_word(p.src, w.seq, w.first);
      });
    }
    if (it == q.end()) {
      fail(where + ": a packet of " + std::to_string(p.words.size()) +
           " flits that was not owed, or came twice");
      return;
    }
    const packet_ref w = *it;
    q.erase(it);
    const std::string which =
        where + " message " + std::to_string(w.seq) + " packet " + std::to_string(w.index);
    if (p.words.size() != w.flits) {
      fail(which + ": " + std::to_string(p.words.size()) + " flits, want " +
           std::to_string(w.flits));
      return;
    }
    for (unsigned k = 0; k < w.flits; ++k) {
      if (p.words[k] != mesh_word(p.src, w.seq, w.first + k)) {
        fail(which + ": flit " + std::to_string(k) + " lost, swapped or corrupted" +
             (in_order_ ? " (in order per source, so a reordering shows here)" : ""));
        return;
      }
    }
    ++packets_;
    auto& [left, last] = left_[{p.src, w.seq}];
    last = std::max(last, p.tail_cycle + 1);
    if (--left == 0) {
      done_[{p.src, w.seq}] = last;
      --owed_;
    }
  }

  // The cycle message (src, seq) was delivered, or -1.
  std::int64_t delivered_at(unsigned src, unsigned seq) const {
    const auto it = done_.find({src, seq});
    return it == done_.end() ? -1 : static_cast<std::int64_t>(it->second);
  }

  bool done() const { return owed_ == 0; }
  std::uint64_t packets() const { return packets_; }
  std::uint64_t messages() const { return done_.size(); }
  const std::vector<std::string>& errors() const { return errors_; }
  void fail(const std::string& s) { errors_.push_back(s); }

  std::string missing() const {
    std::ostringstream os;
    int n = 0;
    for (const auto& [k, q] : want_) {
      if (q.empty()) continue;
      if (n++ == 4) break;
      os << " tile " << k.first << " lacks message " << q.front().seq << " packet "
         << q.front().index << " from " << k.second << ';';
    }
    return os.str();
  }

 private:
  struct packet_ref {
    unsigned seq, index, first, flits;
  };
  bool in_order_;
  std::map<std::pair<unsigned, unsigned>, std::deque<packet_ref>> want_;  // (dst, src)
  // (src, seq): packets still owed, and the latest tail + 1 so far.
  std::map<std::pair<unsigned, unsigned>, std::pair<unsigned, std::uint64_t>> left_;
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> done_;  // (src, seq)
  std::uint64_t owed_ = 0;
  std::uint64_t packets_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace tessera::tb
