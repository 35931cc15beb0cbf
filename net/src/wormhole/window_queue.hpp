#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tessera/net/engine.hpp"
#include "tessera/net/event_queue.hpp"

namespace tessera::net::wormhole_detail {

// A time-ordered event queue for times that never go back: events due within `span`
// cycles of the earliest pending time sit in per-cycle FIFO buckets, later ones in an
// event_queue until the window reaches them. A header hop costs two events, and a binary heap
// of every pending release was the engine's largest cost on long runs. Events of one
// cycle come out in the order pushed (heap ones first: they were pushed earlier).
template <typename Payload>
class window_queue {
 public:
  // span: a power of two; cycles ahead of the earliest pending event that are bucketed.
  explicit window_queue(std::size_t span)
      : span_{span}, mask_{span - 1}, words_{span / 64}, buckets_(span), used_(span / 64, 0) {}

  // push and pop_due run for every event: always inlined, as they were while the queue was
  // local to the engine's one file (GCC inlines a shared header's template less).
  [[gnu::always_inline]] void push(cycle_t t, const Payload& p) {
    if (t < base_) throw std::logic_error("wormhole engine: an event was scheduled in the past");
    ++count_;
    if (t - base_ < span_) {
      put(t, p);
    } else {
      far_.push(t, p);
    }
  }
  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] cycle_t next() const {
    if (count_ == 0) return never;
    const std::size_t start = base_ & mask_;
    for (std::size_t i = 0; i < words_; ++i) {
      const std::size_t w = (start / 64 + i) & (words_ - 1);
      std::uint64_t bits = used_[w];
      if (i == 0) bits &= ~std::uint64_t{0} << (start % 64);
      if (bits != 0) return time_of(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
    }
    // Wrapped part of the first word.
    const std::uint64_t low = used_[start / 64] & ~(~std::uint64_t{0} << (start % 64));
    if (low != 0) return time_of(start / 64 * 64 + static_cast<std::size_t>(std::countr_zero(low)));
    return far_.next();
  }
  // Pops the oldest event due at `now` (never earlier than any pending event).
  [[gnu::always_inline]] bool pop_due(cycle_t now, Payload& out) {
    if (now > base_) slide(now);  // once a cycle; the other pops of the cycle skip the call
    bucket& b = buckets_[now & mask_];
    if (b.head == b.items.size()) return false;
    out = b.items[b.head++];
    --count_;
    if (b.head == b.items.size()) {
      // An emptied bucket's storage goes to a spare list that the next bucket to fill
      // takes from: storage then follows the buckets in use, not every bucket's largest
      // burst, which over a long run would add up to memory growing with the run.
      b.items.clear();
      spare_.push_back(std::move(b.items));
      b.items = std::vector<Payload>{};
      b.head = 0;
      used_[(now & mask_) / 64] &= ~(std::uint64_t{1} << ((now & mask_) % 64));
    }
    return true;
  }

 private:
  struct bucket {
    std::vector<Payload> items;
    std::size_t head{0};
  };

  [[nodiscard]] cycle_t time_of(std::size_t slot) const {
    return base_ + ((slot - (base_ & mask_)) & mask_);
  }
  void put(cycle_t t, const Payload& p) {
    const std::size_t slot = t & mask_;
    std::vector<Payload>& items = buckets_[slot].items;
    if (items.capacity() == 0 && !spare_.empty()) {
      items = std::move(spare_.back());
      spare_.pop_back();
    }
    items.push_back(p);
    used_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }
  // Moves the window start to `now`; everything before it has been popped.
  void slide(cycle_t now) {
    if (now <= base_) return;
    if (next() < now) throw std::logic_error("wormhole engine: fired past a pending event");
    base_ = now;
    while (!far_.empty() && far_.next() - base_ < span_) {
      const cycle_t t = far_.next();
      Payload p;
      far_.pop_due(t, p);
      put(t, p);
    }
  }

  std::size_t span_;
  std::size_t mask_;
  std::size_t words_;
  cycle_t base_{0};
  std::size_t count_{0};
  std::vector<bucket> buckets_;
  std::vector<std::vector<Payload>> spare_;  // emptied buckets' storage, for reuse
  std::vector<std::uint64_t> used_;
  event_queue<Payload> far_;  // beyond the window, in time and push order
};

}  // namespace tessera::net::wormhole_detail
