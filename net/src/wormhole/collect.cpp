// Collection (docs/wormhole.md, "memory"). Links between packets can form cycles, so
// packets are pooled and collected by marking. A query can reach a finished packet only
// through a link into one of its buffers, and then asks only about its last B flits
// leaving that buffer: that needs the link behind it in the same buffer when the packet
// is shorter than B, and the links at the buffers where those flits' one cross term
// falls. Everything else a finished packet points at is dropped, which keeps what
// survives small.
#include "impl.hpp"

namespace tessera::net {

void wormhole_engine::impl::follow(ahead_link& a, std::vector<visit>& stack) const {
  if (a.w == nullptr) return;
  a.kept = epoch;
  stack.push_back({a.w, a.k});
}

void wormhole_engine::impl::mark(std::vector<visit>& stack) {
  while (!stack.empty()) {
    const visit v = stack.back();
    stack.pop_back();
    worm& w = *v.w;
    w.live = epoch;
    if (v.k == all_links || !w.finished) {
      if (w.root == epoch) continue;
      w.root = epoch;
      for (ahead_link& a : w.ahead)
        follow(a, stack);
      for (worm* x : w.waiters)
        x->live = epoch;  // may be retried; finished ones are skipped then
      continue;
    }
    if (w.reached[v.k] == epoch) continue;
    w.reached[v.k] = epoch;
    if (w.flits < p.buffer) follow(w.ahead[v.k], stack);
    // Flits j in [F-B, F-1] leaving buffer k have their cross term at buffer
    // k + 1 + floor(j / B): at most two buffers.
    const std::uint64_t lo = w.flits > p.buffer ? w.flits - p.buffer : 0;
    for (std::uint64_t q = lo / p.buffer; q <= (w.flits - 1) / p.buffer; ++q) {
      if (v.k + 1 + q > w.hops) break;
      follow(w.ahead[v.k + 1 + q], stack);
    }
    // VC share s > 1: a flit j < B - 1 reads buffer k + 1 flit by flit (for j >= B - 1
    // its maximum is in ms already).
    if (share > 1 && w.flits < 2 * std::uint64_t{p.buffer} - 1 && v.k + 1 <= w.hops)
      follow(w.ahead[v.k + 1], stack);
    // Paced injection: T0(j) of those flits reads buffers floor(j / B) flit by flit (the
    // buffers below are in cxp already).
    if (gap > share) {
      const std::uint64_t m = (w.flits - 1) / p.buffer;
      for (std::uint64_t j = lo / p.buffer; j <= m && j <= w.hops; ++j)
        follow(w.ahead[j], stack);
    }
  }
}

void wormhole_engine::impl::collect() {
  ++epoch;
  std::vector<visit> stack;
  for (worm* w : active)
    stack.push_back({w, all_links});
  for (ahead_link& a : vc_last)
    follow(a, stack);
  mark(stack);
  for (std::size_t i = 0; i < pool.size();) {
    worm& w = *pool[i];
    if (w.live != epoch) {
      if (msgs[w.msg].current == &w) msgs[w.msg].current = nullptr;
      spare.push_back(std::move(pool[i]));
      pool[i] = std::move(pool.back());
      pool.pop_back();
      continue;
    }
    if (w.finished) {
      for (ahead_link& a : w.ahead)
        if (a.kept != epoch) a.w = nullptr;
      w.waiters.clear();  // a finished packet never progresses again
    }
    ++i;
  }
  collect_at = std::max<std::size_t>(1024, 2 * pool.size());
}

}  // namespace tessera::net
