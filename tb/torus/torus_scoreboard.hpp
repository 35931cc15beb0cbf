#pragma once

// Reference model of what each tile must receive: every expected packet exactly once,
// with its bytes intact, and unicast packets from one source to one tile in the order
// sent; and the cycle each packet arrived (was complete at the tile), which the golden
// checks and the engine comparison read.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "torus_monitor.hpp"

namespace tessera::tb {

// The payload of packet (src, seq): distinct per packet and byte, so a swapped or
// repeated byte shows.
inline std::uint8_t torus_byte(unsigned src, unsigned seq, unsigned k) {
  return static_cast<std::uint8_t>((src * 131U + seq * 17U + k * 7U + 1U) & 0xffU);
}

class torus_scoreboard {
 public:
  void expect(unsigned tile, const torus_hdr& h) { want_[{tile, h.src, h.seq}] = h.len; }

  void arrived(const torus_arrival& a) {
    if (!arrival_.emplace(key{a.tile, a.hdr.src, a.hdr.seq}, a.cycle).second)
      fail("tile " + std::to_string(a.tile) + " got packet (src " + std::to_string(a.hdr.src) +
           ", seq " + std::to_string(a.hdr.seq) + ") twice");
  }

  void delivered(const torus_delivery& d) {
    const key k{d.tile, d.hdr.src, d.hdr.seq};
    const auto it = want_.find(k);
    if (it == want_.end()) {
      fail("tile " + std::to_string(d.tile) + " got packet (src " + std::to_string(d.hdr.src) +
           ", seq " + std::to_string(d.hdr.seq) + ") it was not owed, or twice");
      return;
    }
    for (std::size_t b = 0; b < d.bytes.size(); ++b) {
      if (d.bytes[b] != torus_byte(d.hdr.src, d.hdr.seq, static_cast<unsigned>(b))) {
        fail("tile " + std::to_string(d.tile) + " packet (src " + std::to_string(d.hdr.src) +
             ", seq " + std::to_string(d.hdr.seq) + ") byte " + std::to_string(b) + " corrupted");
        return;
      }
    }
    if (d.bytes.size() != it->second) fail("tile " + std::to_string(d.tile) + ": wrong length");
    // In order per (source, tile): sequence numbers only grow.
    auto& last = last_seq_[{d.tile, d.hdr.src}];
    if (last.second && d.hdr.seq < last.first && !d.hdr.multicast) {
      fail("tile " + std::to_string(d.tile) + " got seq " + std::to_string(d.hdr.seq) + " from " +
           std::to_string(d.hdr.src) + " after seq " + std::to_string(last.first));
    }
    last = {d.hdr.seq, true};
    want_.erase(it);
    ++delivered_;
  }

  // The arrival cycle of (tile, src, seq), or -1.
  std::int64_t arrival(unsigned tile, unsigned src, unsigned seq) const {
    const auto it = arrival_.find({tile, src, seq});
    return it == arrival_.end() ? -1 : static_cast<std::int64_t>(it->second);
  }

  using key = std::tuple<unsigned, unsigned, unsigned>;  // tile, src, seq
  const std::map<key, std::uint64_t>& arrivals() const { return arrival_; }

  bool done() const { return want_.empty(); }
  std::uint64_t delivered_count() const { return delivered_; }
  const std::vector<std::string>& errors() const { return errors_; }

  std::string missing() const {
    std::ostringstream os;
    int n = 0;
    for (const auto& [k, len] : want_) {
      if (n++ == 4) break;
      os << " tile " << std::get<0>(k) << " lacks (src " << std::get<1>(k) << ", seq "
         << std::get<2>(k) << ");";
    }
    return os.str();
  }

  void fail(const std::string& s) { errors_.push_back(s); }

 private:
  std::map<key, unsigned> want_;
  std::map<key, std::uint64_t> arrival_;
  std::map<std::pair<unsigned, unsigned>, std::pair<unsigned, bool>> last_seq_;
  std::vector<std::string> errors_;
  std::uint64_t delivered_ = 0;
};

}  // namespace tessera::tb
