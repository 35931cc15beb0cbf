#pragma once

// What tb_cube times its messages by: when each posted message's circuit reached its
// destination (S) and its tail left there (E), as the tops' cube check reports them. The
// check itself (exactly once, intact, in order) is rtl_models/tops' cube_check.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tessera/rtl_tops/cube_check.hpp"
#include "tessera/rtl_tops/cube_ni.hpp"

namespace tessera::tb {

struct cube_delivery {
  std::uint64_t setup = 0;  // the cycle its circuit reached its destination (S)
  std::uint64_t tail = 0;   // the cycle the last element left the ejection port (E)
};

class cube_record {
 public:
  explicit cube_record(const std::vector<rtl_tops::cube_message>& msgs) {
    for (const rtl_tops::cube_message& m : msgs)
      owed_.emplace(key{m.dst, m.src, m.seq}, true);
  }

  // Message m's last element left its destination's port in cycle `tail`.
  void delivered(const rtl_tops::cube_check::message& m, std::uint64_t tail) {
    const key k{m.dst, m.src, m.seq};
    got_[k] = cube_delivery{m.setup, tail};
    owed_.erase(k);
  }

  // The delivery of (dst, src, seq), or nullptr.
  const cube_delivery* find(unsigned dst, unsigned src, unsigned seq) const {
    const auto it = got_.find({dst, src, seq});
    return it == got_.end() ? nullptr : &it->second;
  }

  bool done() const { return owed_.empty(); }
  std::size_t delivered_count() const { return got_.size(); }

  std::string missing() const {
    std::ostringstream os;
    int n = 0;
    for (const auto& [k, owed] : owed_) {
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
  std::map<key, bool> owed_;
  std::map<key, cube_delivery> got_;
};

}  // namespace tessera::tb
