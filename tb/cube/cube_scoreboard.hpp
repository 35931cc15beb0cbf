#pragma once

// What each tile must receive: every message owed exactly once, all k elements intact,
// and the messages from one source to one tile in the order sent.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cube_monitor.hpp"

namespace tessera::tb {

// Element e of message (src, seq): a mix of all three, so a corrupted, repeated,
// swapped or misrouted element shows.
inline std::uint32_t cube_element(unsigned src, unsigned seq, unsigned e) {
  std::uint64_t x = (std::uint64_t{src} << 48) ^ (std::uint64_t{seq} << 24) ^ e;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

class cube_scoreboard {
 public:
  void expect(unsigned src, unsigned dst, unsigned seq, unsigned k) { want_[{dst, src, seq}] = k; }

  void delivered(const cube_delivery& d) {
    const key k{d.tile, d.hdr.src, d.hdr.seq};
    const std::string what = "tile " + std::to_string(d.tile) + " message (src " +
                             std::to_string(d.hdr.src) + ", seq " + std::to_string(d.hdr.seq) + ")";
    const auto it = want_.find(k);
    if (it == want_.end()) {
      fail(what + " was not owed, or came twice");
      return;
    }
    if (d.hdr.dst != d.tile) fail(what + " carries destination " + std::to_string(d.hdr.dst));
    if (d.elements.size() != it->second) {
      fail(what + ": " + std::to_string(d.elements.size()) + " elements, want " +
           std::to_string(it->second));
    }
    for (std::size_t e = 0; e < d.elements.size(); ++e) {
      const std::uint32_t want = cube_element(d.hdr.src, d.hdr.seq, static_cast<unsigned>(e));
      if (d.elements[e] != want) {
        std::ostringstream os;
        os << what << " element " << e << ": got 0x" << std::hex << d.elements[e] << ", want 0x"
           << want;
        fail(os.str());
        break;
      }
    }
    auto& last = last_seq_[{d.tile, d.hdr.src}];
    if (last.second && d.hdr.seq <= last.first) {
      fail(what + " after seq " + std::to_string(last.first) + " from the same source");
    }
    last = {d.hdr.seq, true};
    got_[k] = d;
    want_.erase(it);
  }

  // The delivery of (dst, src, seq), or nullptr.
  const cube_delivery* find(unsigned dst, unsigned src, unsigned seq) const {
    const auto it = got_.find({dst, src, seq});
    return it == got_.end() ? nullptr : &it->second;
  }

  bool done() const { return want_.empty(); }
  std::size_t delivered_count() const { return got_.size(); }
  const std::vector<std::string>& errors() const { return errors_; }
  void fail(const std::string& s) { errors_.push_back(s); }

  std::string missing() const {
    std::ostringstream os;
    int n = 0;
    for (const auto& [k, len] : want_) {
      if (n++ == 6) {
        os << " ...";
        break;
      }
      os << " tile " << std::get<0>(k) << " lacks (src " << std::get<1>(k) << ", seq "
         << std::get<2>(k) << ");";
    }
    return os.str();
  }

 private:
  using key = std::tuple<unsigned, unsigned, unsigned>;  // dst, src, seq
  std::map<key, unsigned> want_;
  std::map<key, cube_delivery> got_;
  std::map<std::pair<unsigned, unsigned>, std::pair<unsigned, bool>> last_seq_;
  std::vector<std::string> errors_;
};

}  // namespace tessera::tb
