#include "tessera/harness/compare.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace tessera::harness {
namespace {

using name = std::tuple<std::uint32_t, std::uint32_t, std::string, std::uint64_t, std::uint64_t>;

// Each message under its name; the k-th of a (src, dst, kind, step) in order of start,
// then delivery: a source posts them in program order.
std::map<name, const message_times*> by_name(const std::vector<message_times>& run) {
  std::vector<const message_times*> order;
  order.reserve(run.size());
  for (const message_times& m : run)
    order.push_back(&m);
  std::stable_sort(order.begin(), order.end(), [](const message_times* x, const message_times* y) {
    return std::tie(x->start, x->delivered) < std::tie(y->start, y->delivered);
  });
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::string, std::uint64_t>, std::uint64_t>
      seen;
  std::map<name, const message_times*> out;
  for (const message_times* m : order) {
    std::uint64_t& k = seen[{m->src, m->dst, m->kind, m->step}];
    out.emplace(name{m->src, m->dst, m->kind, m->step, k}, m);
    ++k;
  }
  return out;
}

std::uint64_t gap(std::uint64_t x, std::uint64_t y) {
  return x > y ? x - y : y - x;
}

}  // namespace

comparison compare_runs(const std::vector<message_times>& a, const std::vector<message_times>& b) {
  const auto na = by_name(a);
  const auto nb = by_name(b);
  comparison c;
  std::uint64_t first_at = 0;
  auto note = [&](const name& n, const message_times* x, const message_times* y) {
    std::uint64_t at = ~std::uint64_t{0};
    if (x != nullptr) at = std::min(at, x->start);
    if (y != nullptr) at = std::min(at, y->start);
    if (c.first && at >= first_at) return;
    first_at = at;
    divergence d;
    std::tie(d.src, d.dst, d.kind, d.step, d.occurrence) = n;
    if (x != nullptr) d.a = *x;
    if (y != nullptr) d.b = *y;
    c.first = d;
  };
  for (const auto& [n, x] : na) {
    const auto it = nb.find(n);
    if (it == nb.end()) {
      ++c.unmatched;
      note(n, x, nullptr);
      continue;
    }
    const message_times* y = it->second;
    ++c.messages;
    const std::uint64_t d = std::max(gap(x->start, y->start), gap(x->delivered, y->delivered));
    c.max_delta = std::max(c.max_delta, d);
    if (d != 0) {
      ++c.differing;
      note(n, x, y);
    }
  }
  for (const auto& [n, y] : nb) {
    if (na.contains(n)) continue;
    ++c.unmatched;
    note(n, nullptr, y);
  }
  return c;
}

}  // namespace tessera::harness
