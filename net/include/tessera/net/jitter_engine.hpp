// Operating-system jitter in front of any engine (Bokhari, "Complete Exchange on the
// iPSC-860" §6: run times vary from run to run, which his Figures 12 and 13 show as
// envelopes of 100 to 1000 runs). A message a tile posts is hit by the operating system
// with probability percent/100 (an interrupt, a timer tick) and then waits a random
// delay before its NIC may take it: D = floor(-mean ln(1 - U)) cycles, exponential with
// the given mean, U uniform in [0, 1). Both draws come from a counter-based hash of
// (seed, source tile, the message's number at that source). The draws depend only on
// the seed and on what
// each tile posts, not on the order the simulation happens to visit tiles, so a run
// is reproducible; a tile's messages still reach its NIC in the order posted (a
// message waits at least until the one posted before it is released).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/event_queue.hpp"

namespace tessera::net {

// The delay of the n-th message tile `src` posts, for a mean in cycles, when it is hit.
[[nodiscard]] cycle_t jitter_delay(std::uint64_t seed, std::uint32_t src, std::uint64_t n,
                                   std::uint64_t mean);
// Whether the n-th message of `src` is hit, with probability percent / 100.
[[nodiscard]] bool jitter_hit(std::uint64_t seed, std::uint32_t src, std::uint64_t n,
                              std::uint32_t percent);

class jitter_engine final : public engine, private listener {
 public:
  jitter_engine(std::unique_ptr<engine> inner, std::uint32_t tiles, std::uint64_t mean,
                std::uint64_t seed, std::uint32_t percent = 100);

  void inject(const xfer& x, cycle_t now) override;
  void arbitrate(cycle_t now) override { inner_->arbitrate(now); }
  [[nodiscard]] cycle_t next_event() const override;
  void fire(cycle_t now) override;
  [[nodiscard]] bool idle() const override { return held_.empty() && inner_->idle(); }
  [[nodiscard]] std::vector<link_stat> links() const override { return inner_->links(); }
  [[nodiscard]] contention_stat contention() const override { return inner_->contention(); }
  [[nodiscard]] std::vector<std::string> stuck() const override;
  [[nodiscard]] std::string failure() const override { return inner_->failure(); }
  [[nodiscard]] energy_counts energy() const override { return inner_->energy(); }
  void record_links(bool on) override { inner_->record_links(on); }
  [[nodiscard]] const std::vector<link_busy>& link_intervals() const override {
    return inner_->link_intervals();
  }

  [[nodiscard]] engine& inner() { return *inner_; }
  // Cycles of delay drawn so far, summed.
  [[nodiscard]] cycle_t total_delay() const { return total_; }

 private:
  void started(std::uint64_t id, cycle_t t) override;
  void delivered(std::uint64_t id, cycle_t t) override;

  std::unique_ptr<engine> inner_;
  std::uint64_t mean_;
  std::uint64_t seed_;
  std::uint32_t percent_;
  std::vector<std::uint64_t> posted_;  // per source: messages posted so far
  std::vector<cycle_t> released_;      // per source: release time of its latest message
  event_queue<xfer> held_;
  cycle_t total_{0};
};

}  // namespace tessera::net
