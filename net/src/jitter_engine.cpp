#include "tessera/net/jitter_engine.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::net {

namespace {

// splitmix64's finalizer: a bijective mix of 64 bits.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

cycle_t jitter_delay(std::uint64_t seed, std::uint32_t src, std::uint64_t n, std::uint64_t mean) {
  if (mean == 0) return 0;
  const std::uint64_t h = mix(mix(mix(seed) ^ src) ^ n);
  const double u = static_cast<double>(h >> 11) * 0x1.0p-53;  // [0, 1)
  const double d = -static_cast<double>(mean) * std::log1p(-u);
  return static_cast<cycle_t>(std::floor(d));
}

bool jitter_hit(std::uint64_t seed, std::uint32_t src, std::uint64_t n, std::uint32_t percent) {
  if (percent >= 100) return true;
  // An independent stream: the seed's complement.
  const std::uint64_t h = mix(mix(mix(~seed) ^ src) ^ n);
  return static_cast<double>(h >> 11) * 0x1.0p-53 * 100.0 < static_cast<double>(percent);
}

jitter_engine::jitter_engine(std::unique_ptr<engine> inner, std::uint32_t tiles, std::uint64_t mean,
                             std::uint64_t seed, std::uint32_t percent)
    : inner_{std::move(inner)},
      mean_{mean},
      seed_{seed},
      percent_{percent},
      posted_(tiles, 0),
      released_(tiles, 0) {
  inner_->set_listener(this);
}

void jitter_engine::inject(const xfer& x, cycle_t now) {
  if (x.src >= posted_.size()) {
    inner_->inject(x, now);  // the inner engine names the bad tile
    return;
  }
  const std::uint64_t n = posted_[x.src]++;
  const cycle_t d =
      jitter_hit(seed_, x.src, n, percent_) ? jitter_delay(seed_, x.src, n, mean_) : 0;
  total_ += d;
  const cycle_t at = std::max(now + d, released_[x.src]);
  released_[x.src] = at;
  if (at == now) {
    inner_->inject(x, now);
    return;
  }
  held_.push(at, x);
}

cycle_t jitter_engine::next_event() const {
  return std::min(inner_->next_event(), held_.next());
}

void jitter_engine::fire(cycle_t now) {
  inner_->fire(now);
  // Released messages are posted after the inner engine's events of this cycle, as the
  // driving protocol posts tiles' messages (engine.hpp).
  xfer x;
  while (held_.pop_due(now, x))
    inner_->inject(x, now);
}

std::vector<std::string> jitter_engine::stuck() const {
  std::vector<std::string> out = inner_->stuck();
  if (!held_.empty()) {
    out.push_back(std::to_string(held_.size()) +
                  " messages held by operating-system jitter, the next until cycle " +
                  std::to_string(held_.next()));
  }
  return out;
}

void jitter_engine::started(std::uint64_t id, cycle_t t) {
  if (listener_ != nullptr) listener_->started(id, t);
}

void jitter_engine::delivered(std::uint64_t id, cycle_t t) {
  if (listener_ != nullptr) listener_->delivered(id, t);
}

}  // namespace tessera::net
