#pragma once

// Reference of what each tile must receive: the packets of every message sent to it,
// each exactly once, in the order its source sent them, every payload word intact. A
// message is delivered the cycle after the tail of its last packet crossed the
// ejection channel (rule 9 of docs/wormhole.md).
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
  void expect(const mesh_message& m) {
    auto& q = want_[{m.dst, m.src}];
    const unsigned per = m.packet_flits == 0 ? m.flits : m.packet_flits;
    for (unsigned first = 0, k = 0; first < m.flits; first += per, ++k) {
      const unsigned n = std::min(per, m.flits - first);
      q.push_back({m.seq, k, first, n, first + n == m.flits});
    }
    ++owed_;
  }

  void delivered(const mesh_packet& p) {
    auto& q = want_[{p.tile, p.src}];
    const std::string where = "tile " + std::to_string(p.tile) + " from " + std::to_string(p.src);
    if (q.empty()) {
      fail(where + ": a packet of " + std::to_string(p.words.size()) +
           " flits that was not owed, or came twice");
      return;
    }
    const packet_ref w = q.front();
    q.pop_front();
    const std::string which =
        where + " message " + std::to_string(w.seq) + " packet " + std::to_string(w.index);
    if (p.words.size() != w.flits) {
      fail(which + ": " + std::to_string(p.words.size()) + " flits, want " +
           std::to_string(w.flits));
      return;
    }
    for (unsigned k = 0; k < w.flits; ++k) {
      if (p.words[k] != mesh_word(p.src, w.seq, w.first + k)) {
        fail(which + ": flit " + std::to_string(k) +
             " lost, swapped or corrupted (in order per source, so a reordering shows here)");
        return;
      }
    }
    ++packets_;
    if (w.last) {
      done_[{p.src, w.seq}] = p.tail_cycle + 1;
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
    bool last;
  };
  std::map<std::pair<unsigned, unsigned>, std::deque<packet_ref>> want_;  // (dst, src)
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> done_;           // (src, seq)
  std::uint64_t owed_ = 0;
  std::uint64_t packets_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace tessera::tb
