#include "tessera/net/torus_engine.hpp"

#include <algorithm>
#include <string>

#include "tessera/runtime/routing.hpp"
#include "tessera/schedule/errors.hpp"

namespace tessera::net {

void validate(const torus_params& p) {
  constexpr cycle_t big = cycle_t{1} << 40;
  if (p.beta > big) throw input_error("beta " + std::to_string(p.beta) + " exceeds 2^40 cycles");
  if (p.tau > (cycle_t{1} << 20))
    throw input_error("tau " + std::to_string(p.tau) + " exceeds 2^20 cycles per byte");
  if (p.packet_bytes > (std::uint64_t{1} << 30))
    throw input_error("packet_bytes " + std::to_string(p.packet_bytes) + " exceeds 1 GiB");
}

torus_engine::torus_engine(const fabric& f, torus_params p) : f_{f}, p_{p} {
  if (f.kind == fabric_kind::hypercube)
    throw input_error("store-and-forward ports need a torus, mesh or ring fabric, not a " +
                      std::string(kind_name(f.kind)) + " of " + std::to_string(f.tiles()) +
                      " tiles");
  validate(p);
  ports_.resize(std::size_t{f.tiles()} * f.ports());
  is_dirty_.assign(ports_.size(), false);
}

std::uint32_t torus_engine::next_port(std::uint32_t at, std::uint32_t dst) const {
  if (!forward_.empty()) {
    const auto it = forward_.find(std::uint64_t{at} * f_.tiles() + dst);
    if (it != forward_.end()) return it->second;
  }
  std::uint32_t out = 0;
  bool first = true;
  for_each_hop(f_, tile_id{at}, tile_id{dst}, [&](link_id l) {
    if (first) out = link_port(f_, l);
    first = false;
  });
  return out;
}

void torus_engine::route(std::uint32_t src, std::uint32_t dst,
                         std::vector<std::uint32_t>& path) const {
  path.clear();
  if (forward_.empty()) {
    for_each_hop(f_, tile_id{src}, tile_id{dst}, [&](link_id l) { path.push_back(l.value()); });
    return;
  }
  // set_forwarding proved every walk arrives within p hops.
  for (std::uint32_t at = src; at != dst;) {
    const std::uint32_t out = next_port(at, dst);
    path.push_back(make_link(f_, tile_id{at}, out).value());
    at = neighbour(f_, tile_id{at}, out)->value();
  }
}

void torus_engine::set_forwarding(const std::vector<forwarding_entry>& entries) {
  const std::uint32_t p = f_.tiles();
  std::unordered_map<std::uint64_t, std::uint32_t> table;
  std::vector<std::uint32_t> dsts;
  for (const forwarding_entry& e : entries) {
    const std::string name = "forwarding entry (tile " + std::to_string(e.tile) + ", dst " +
                             std::to_string(e.dst) + ", port " + std::to_string(e.port) + ")";
    if (e.tile >= p || e.dst >= p) throw input_error(name + " names a tile off the fabric");
    if (e.tile == e.dst) throw input_error(name + " forwards a message already at its destination");
    if (e.port >= f_.ports() || !neighbour(f_, tile_id{e.tile}, e.port))
      throw input_error(name + ": the tile has no link on that port");
    table[std::uint64_t{e.tile} * p + e.dst] = e.port;
    dsts.push_back(e.dst);
  }
  std::sort(dsts.begin(), dsts.end());
  dsts.erase(std::unique(dsts.begin(), dsts.end()), dsts.end());
  // Checking is O(p) per destination; bound it so a huge table is refused, not slow.
  if (static_cast<std::uint64_t>(dsts.size()) * p > (std::uint64_t{1} << 30)) {
    throw input_error("forwarding entries for " + std::to_string(dsts.size()) +
                      " destinations on " + std::to_string(p) +
                      " tiles are too many to check (at most 2^30 destination-tile pairs)");
  }
  std::swap(forward_, table);
  // Every walk towards a destination with entries must arrive. (Destinations without
  // entries keep dimension order, which arrives, and a walk towards them never
  // consults an entry.) Walks are followed once per tile: a tile known to arrive ends
  // a walk, and a tile already on the current walk closes a loop.
  enum : std::uint8_t { unknown, on_walk, arrives };
  std::vector<std::uint8_t> state(p);
  std::vector<std::uint32_t> walk;
  for (const std::uint32_t d : dsts) {
    std::fill(state.begin(), state.end(), unknown);
    state[d] = arrives;
    for (std::uint32_t s = 0; s < p; ++s) {
      walk.clear();
      std::uint32_t at = s;
      while (state[at] == unknown) {
        state[at] = on_walk;
        walk.push_back(at);
        at = neighbour(f_, tile_id{at}, next_port(at, d))->value();
      }
      if (state[at] == on_walk) {
        std::swap(forward_, table);
        throw input_error("forwarding to tile " + std::to_string(d) + " loops: from tile " +
                          std::to_string(s) + " it never arrives");
      }
      for (const std::uint32_t t : walk)
        state[t] = arrives;
    }
  }
}

void torus_engine::enqueue(std::uint32_t link, const packet& pk) {
  ports_[link].arriving.push_back(pk);
  if (!is_dirty_[link]) {
    is_dirty_[link] = true;
    dirty_.push_back(link);
  }
}

void torus_engine::inject(const xfer& x, cycle_t now) {
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(msgs_.size());
    msgs_.emplace_back();
  }
  message& m = msgs_[slot];
  m.x = x;
  m.path.clear();
  m.arrived = 0;
  m.started = false;
  route(x.src, x.dst, m.path);
  const std::uint64_t bytes = x.control ? 0 : x.bytes;
  const std::uint64_t unit =
      p_.packet_bytes == 0 ? std::max<std::uint64_t>(bytes, 1) : p_.packet_bytes;
  m.packets = bytes == 0 ? 1 : (bytes + unit - 1) / unit;
  ++live_;
  if (m.path.empty()) {  // to itself: nothing crosses the network
    events_.push(now, packet{slot, 0, 0, now, local});
    m.packets = 1;
    return;
  }
  std::uint64_t left = bytes;
  for (std::uint64_t i = 0; i < m.packets; ++i) {
    const std::uint64_t b = std::min(left, unit);
    left -= b;
    enqueue(m.path[0], packet{slot, 0, b, now, local});
  }
}

void torus_engine::arbitrate(cycle_t now) {
  std::vector<std::uint32_t> work;
  work.swap(dirty_);
  std::sort(work.begin(), work.end());
  for (const std::uint32_t li : work) {
    is_dirty_[li] = false;
    port& pt = ports_[li];
    // Same-cycle arrivals in input order (directions, then the local NIC, which keeps
    // its posting order because the sort is stable).
    std::stable_sort(pt.arriving.begin(), pt.arriving.end(),
                     [](const packet& a, const packet& b) { return a.from < b.from; });
    for (const packet& pk : pt.arriving)
      pt.queue.push_back(pk);
    pt.arriving.clear();
    pt.max_queue = std::max(pt.max_queue, static_cast<std::uint32_t>(pt.queue.size()));
    if (pt.queue.empty() || pt.free_at > now) continue;
    const packet pk = pt.queue.front();
    pt.queue.pop_front();
    const cycle_t waited = now - pk.queued;
    if (waited > 0) {
      ++cont_.blocked;
      cont_.blocked_cycles += waited;
      cont_.max_blocked = std::max(cont_.max_blocked, waited);
    }
    message& m = msgs_[pk.msg];
    if (!m.started) {
      m.started = true;
      if (listener_ != nullptr) listener_->started(m.x.id, now);
    }
    const cycle_t cost = p_.beta + p_.tau * pk.bytes;
    pt.free_at = now + cost;
    pt.busy += cost;
    ++pt.messages;
    events_.push(now + cost, pk);
  }
}

void torus_engine::fire(cycle_t now) {
  packet pk{};
  while (events_.pop_due(now, pk)) {
    message& m = msgs_[pk.msg];
    if (!m.path.empty()) {
      const std::uint32_t li = m.path[pk.hop];
      // The port that just finished may send its next packet.
      if (!is_dirty_[li] && !ports_[li].queue.empty()) {
        is_dirty_[li] = true;
        dirty_.push_back(li);
      }
      if (pk.hop + 1 < m.path.size()) {
        packet next = pk;
        next.hop = pk.hop + 1;
        next.queued = now;
        next.from = li % f_.ports();  // arrives on the input facing this link
        enqueue(m.path[next.hop], next);
        continue;
      }
    }
    if (++m.arrived < m.packets) continue;
    const std::uint64_t id = m.x.id;
    free_.push_back(pk.msg);
    --live_;
    if (listener_ != nullptr) {
      if (m.path.empty()) listener_->started(id, now);
      listener_->delivered(id, now);
    }
  }
}

std::vector<link_stat> torus_engine::links() const {
  static constexpr const char* names2d[] = {"E", "W", "S", "N"};
  static constexpr const char* names_ring[] = {"+1", "-1"};
  std::vector<link_stat> out;
  for (std::uint32_t li = 0; li < ports_.size(); ++li) {
    const port& pt = ports_[li];
    if (pt.messages == 0) continue;
    const auto ends = endpoints(f_, link_id{li});
    const std::uint32_t dir = li % f_.ports();
    out.push_back(link_stat{ends.from.value(), ends.to.value(),
                            f_.kind == fabric_kind::ring ? names_ring[dir] : names2d[dir], pt.busy,
                            pt.messages, pt.max_queue});
  }
  return out;
}

std::vector<std::string> torus_engine::stuck() const {
  std::vector<std::string> out;
  std::vector<bool> is_free(msgs_.size(), false);
  for (const std::uint32_t s : free_)
    is_free[s] = true;
  for (std::uint32_t slot = 0; slot < msgs_.size(); ++slot) {
    if (is_free[slot]) continue;
    const message& m = msgs_[slot];
    out.push_back("message " + std::to_string(m.x.src) + "->" + std::to_string(m.x.dst) + ": " +
                  std::to_string(m.arrived) + " of " + std::to_string(m.packets) +
                  " packets arrived");
  }
  return out;
}

}  // namespace tessera::net
