#include "tessera/net/alphabeta_engine.hpp"

#include <algorithm>
#include <string>

namespace tessera::net {

alphabeta_engine::alphabeta_engine(std::uint32_t tiles, alphabeta_params p)
    : tiles_{tiles}, p_{p}, t_(tiles) {}

void alphabeta_engine::inject(const xfer& x, cycle_t now) {
  port& s = t_[x.src];
  s.out.push_back(x);
  s.queued_at.push_back(now);
  s.max_queue = std::max(s.max_queue, static_cast<std::uint32_t>(s.out.size()));
}

void alphabeta_engine::arbitrate(cycle_t now) {
  for (std::uint32_t s = 0; s < tiles_; ++s) {
    port& src = t_[s];
    while (!src.out.empty() && src.out_free <= now) {
      const xfer x = src.out.front();
      port& dst = t_[x.dst];
      if (dst.in_free > now) break;
      const cycle_t waited = now - src.queued_at.front();
      if (waited > 0) {
        ++cont_.blocked;
        cont_.blocked_cycles += waited;
        cont_.max_blocked = std::max(cont_.max_blocked, waited);
      }
      src.out.pop_front();
      src.queued_at.erase(src.queued_at.begin());
      const cycle_t cost = p_.ts + (x.control ? 0 : p_.tw * x.bytes);
      src.out_free = dst.in_free = now + cost;
      src.out_busy += cost;
      dst.in_busy += cost;
      ++src.sent;
      ++dst.received;
      src.bytes_out += x.bytes;
      dst.bytes_in += x.bytes;
      ++in_flight_;
      if (listener_ != nullptr) listener_->started(x.id, now);
      events_.push(now + cost, x);
    }
  }
}

void alphabeta_engine::fire(cycle_t now) {
  xfer x;
  while (events_.pop_due(now, x)) {
    --in_flight_;
    if (listener_ != nullptr) listener_->delivered(x.id, now);
  }
}

bool alphabeta_engine::idle() const {
  if (in_flight_ > 0) return false;
  return std::all_of(t_.begin(), t_.end(), [](const port& p) { return p.out.empty(); });
}

std::vector<link_stat> alphabeta_engine::links() const {
  std::vector<link_stat> out;
  for (std::uint32_t t = 0; t < tiles_; ++t) {
    const port& p = t_[t];
    if (p.sent > 0)
      out.push_back(link_stat{t, t, "out", p.out_busy, p.sent, p.max_queue, p.bytes_out, {}});
    if (p.received > 0)
      out.push_back(link_stat{t, t, "in", p.in_busy, p.received, 0, p.bytes_in, {}});
  }
  return out;
}

// An ideal network has no routers: the bytes its ports sent and received.
energy_counts alphabeta_engine::energy() const {
  return channel_energy(energy_rule::ideal, tiles_, 1, links());
}

std::vector<std::string> alphabeta_engine::stuck() const {
  std::vector<std::string> out;
  for (std::uint32_t t = 0; t < tiles_; ++t) {
    for (const xfer& x : t_[t].out) {
      out.push_back("message " + std::to_string(x.src) + "->" + std::to_string(x.dst) +
                    " waits for the ports");
    }
  }
  return out;
}

}  // namespace tessera::net
