// A time-ordered queue of engine events; events at one time come out in the order
// they were pushed, so engines stay deterministic.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "tessera/net/engine.hpp"

namespace tessera::net {

template <typename Payload>
class event_queue {
 public:
  void push(cycle_t t, const Payload& p) { q_.push(item{t, seq_++, p}); }
  [[nodiscard]] bool empty() const { return q_.empty(); }
  [[nodiscard]] cycle_t next() const { return q_.empty() ? never : q_.top().t; }
  [[nodiscard]] std::size_t size() const { return q_.size(); }
  // Pops the oldest event due at `now`; false when there is none.
  bool pop_due(cycle_t now, Payload& out) {
    if (q_.empty() || q_.top().t != now) return false;
    out = q_.top().p;
    q_.pop();
    return true;
  }

 private:
  struct item {
    cycle_t t;
    std::uint64_t seq;
    Payload p;
    bool operator>(const item& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  std::priority_queue<item, std::vector<item>, std::greater<>> q_;
  std::uint64_t seq_{0};
};

}  // namespace tessera::net
