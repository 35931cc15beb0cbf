// Grama's ideal network (Grama slide 4) as an engine: a message of m bytes costs
// ts + tw*m cycles (a control message ts); each tile has one output and one input
// port, nothing else contends. A tile's messages leave in the order posted; when
// several wait for one input port at the same time the lowest source id wins. The
// host model in platform/alphabeta keeps the same rules, so the two must agree.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/event_queue.hpp"

namespace tessera::net {

struct alphabeta_params {
  cycle_t ts{100};
  cycle_t tw{1};
};

class alphabeta_engine final : public engine {
 public:
  alphabeta_engine(std::uint32_t tiles, alphabeta_params p);

  void inject(const xfer& x, cycle_t now) override;
  void arbitrate(cycle_t now) override;
  [[nodiscard]] cycle_t next_event() const override { return events_.next(); }
  void fire(cycle_t now) override;
  [[nodiscard]] bool idle() const override;
  [[nodiscard]] std::vector<link_stat> links() const override;
  [[nodiscard]] energy_counts energy() const override;
  [[nodiscard]] contention_stat contention() const override { return cont_; }
  [[nodiscard]] std::vector<std::string> stuck() const override;

 private:
  struct port {
    std::deque<xfer> out;  // posted, not started
    cycle_t out_free{0};
    cycle_t in_free{0};
    cycle_t out_busy{0};
    cycle_t in_busy{0};
    std::uint64_t sent{0};
    std::uint64_t received{0};
    std::uint64_t bytes_out{0};
    std::uint64_t bytes_in{0};
    std::uint32_t max_queue{0};
    std::vector<cycle_t> queued_at;  // parallel to out: when each was posted
  };

  std::uint32_t tiles_;
  alphabeta_params p_;
  std::vector<port> t_;
  event_queue<xfer> events_;
  contention_stat cont_{};
  std::uint64_t in_flight_{0};
};

}  // namespace tessera::net
