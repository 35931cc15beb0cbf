#include "tessera/net/circuit_engine.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "message_slots.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::net {

void validate(const circuit_params& p) {
  check_ranges("circuit", circuit_range::all,
               {p.xi, p.xi_held, p.tau, p.width, p.control_xi, p.retry, p.duplex.duplex_window});
  if (p.xi_held > p.xi)
    throw input_error("circuit xi_held " + std::to_string(p.xi_held) + " exceeds xi " +
                      std::to_string(p.xi));
}

circuit_engine::circuit_engine(const fabric& f, circuit_params p)
    : f_{f}, p_{p}, duplex_{duplex_of(p)}, src_(f.tiles()) {
  if (f.kind != fabric_kind::hypercube)
    throw input_error("circuit switching needs a hypercube fabric, not a " +
                      std::string(kind_name(f.kind)) + " of " + std::to_string(f.tiles()) +
                      " tiles");
  validate(p);
  cube_links_ = f.tiles() * f.ports();
  res_.resize(std::size_t{cube_links_} + f.tiles());
  is_dirty_.assign(res_.size(), false);
}

std::uint64_t circuit_engine::elements(const xfer& x) const {
  if (x.control || x.bytes == 0) return 1;
  return (x.bytes + p_.width - 1) / p_.width;
}

std::uint32_t circuit_engine::alloc(const xfer& x) {
  const std::uint32_t slot = take_slot(msgs_, free_);
  message& m = msgs_[slot];
  m.x = x;
  m.st = stage::queued;
  m.held = 0;
  m.path.clear();
  for_each_hop(f_, tile_id{x.src}, tile_id{x.dst}, [&](link_id l) { m.path.push_back(l.value()); });
  m.path.push_back(eject(x.dst));
  return slot;
}

void circuit_engine::inject(const xfer& x, cycle_t now) {
  (void)now;
  const std::uint32_t slot = alloc(x);
  src_[x.src].queue.push_back(slot);
  start_dirty_.push_back(x.src);
  ++live_;
}

void circuit_engine::try_start(std::uint32_t tile, cycle_t now) {
  source& s = src_[tile];
  while (!s.queue.empty()) {
    const std::uint32_t slot = s.queue.front();
    message& m = msgs_[slot];
    if (s.active > 0) {
      // Pre-setup (Boppana §3.3): beside one message whose path completed in an earlier
      // cycle, and only when the first resource of the new path was not held at the end
      // of the last cycle (the RTL interface reads its node's registered busy flags, so
      // a grant in this cycle does not count).
      if (!p_.presetup || s.active > 1 || s.in_setup != none || s.set_up_at >= now) break;
      const resource& first = res_[m.path.front()];
      if (first.holder != none && first.since != now) break;
    }
    s.queue.pop_front();
    ++s.active;
    s.in_setup = slot;
    m.st = stage::startup;
    if (listener_ != nullptr) listener_->started(m.x.id, now);
    const cycle_t lead = m.x.layer_control() ? p_.control_xi : p_.xi - p_.xi_held;
    // With no start-up the header asks in the cycle the interface takes the message,
    // beside the headers that ask in that cycle anyway (the RTL's xi = 0).
    if (lead == 0) {
      request(slot, now);
    } else {
      events_.push(now + lead, event{ev_kind::ask, slot, 0});
    }
  }
}

void circuit_engine::request(std::uint32_t slot, cycle_t now) {
  message& m = msgs_[slot];
  m.st = stage::waiting;
  m.requested = now;
  const std::uint32_t r = m.path[m.held];
  resource& l = res_[r];
  l.waiting.push_back(slot);
  l.max_queue = std::max(l.max_queue, static_cast<std::uint32_t>(l.waiting.size()));
  if (!is_dirty_[r]) {
    is_dirty_[r] = true;
    dirty_.push_back(r);
  }
}

std::size_t circuit_engine::pick(const resource& l, const std::vector<std::uint32_t>& cands) const {
  const std::uint32_t p = f_.tiles();
  std::size_t best = 0;
  // (rank, then rank within it, then the message id).
  auto key = [&](std::uint32_t slot) {
    const message& m = msgs_[slot];
    switch (p_.arbitration) {
      case circuit_arbitration::fifo:
        return std::make_tuple(m.requested, cycle_t{m.x.src}, m.x.id);
      case circuit_arbitration::round_robin:
        return std::make_tuple(cycle_t{(m.x.src + p - l.rr) % p}, cycle_t{0}, m.x.id);
      case circuit_arbitration::lowest_id:
        break;
    }
    return std::make_tuple(cycle_t{m.x.src}, cycle_t{0}, m.x.id);
  };
  for (std::size_t i = 1; i < cands.size(); ++i) {
    if (key(cands[i]) < key(cands[best])) best = i;
  }
  return best;
}

void circuit_engine::grant(std::uint32_t r, std::uint32_t slot, cycle_t now) {
  resource& l = res_[r];
  message& m = msgs_[slot];
  l.holder = slot;
  l.since = now;
  ++l.messages;
  if (p_.arbitration == circuit_arbitration::round_robin) l.rr = (m.x.src + 1) % f_.tiles();
  const cycle_t waited = now - m.requested;
  if (waited > 0) {
    ++cont_.blocked;
    cont_.blocked_cycles += waited;
    cont_.max_blocked = std::max(cont_.max_blocked, waited);
  }
  ++m.held;
  if (m.held == m.path.size()) {
    setup_complete(slot, now);  // the ejection port: S
  } else {
    m.st = stage::setup;
    events_.push(now + p_.tau, event{ev_kind::ask, slot, 0});
  }
}

void circuit_engine::setup_complete(std::uint32_t slot, cycle_t now) {
  message& m = msgs_[slot];
  source& s = src_[m.x.src];
  s.in_setup = none;
  s.set_up_at = now;
  m.st = stage::streaming;
  if (on_setup_) on_setup_(m.x.id, now);
  // S': the held part of the start-up, and (pre-setup) the previous message's last
  // element, come first.
  const cycle_t k = elements(m.x);
  const cycle_t hops = m.path.size() - 1;
  s.injected += k;
  for (const std::uint32_t r : m.path)
    res_[r].units += k;
  cycle_t first = std::max(now + (m.x.layer_control() ? 0 : p_.xi_held), s.free_at);
  if (duplex_.applies(m.x.control) && m.x.src != m.x.dst) {
    first = duplex_start(m, first, hops);
    s.tx = {first, first + k, m.x.dst};
    src_[m.x.dst].rx = {first + hops, first + hops + k, m.x.src};
  }
  s.free_at = first + k;
  events_.push(first + hops + k - 1, event{ev_kind::tail, slot, 0});
  // The tail crosses hop position j in first + k - 1 + j: teardown starts one cycle
  // later at the source and follows the tail node by node.
  events_.push(first + k, event{ev_kind::release, slot, 0});
  // Pre-setup may take the tile's next message from the next cycle on.
  if (p_.presetup) events_.push(now + 1, event{ev_kind::wake, m.x.src, 0});
}

// A late stream waits, its circuit held (duplex_of), until the other direction's stream
// at its tile ends: the transmit at the source, and the receive at the destination (hops
// cycles later). One deferral can run into the other, so repeat until neither applies.
cycle_t circuit_engine::duplex_start(const message& m, cycle_t first, cycle_t hops) const {
  const source& s = src_[m.x.src];
  const source& d = src_[m.x.dst];
  for (;;) {
    cycle_t f = first;
    if (duplex_.late(s.rx, f, m.x.dst)) f = s.rx.end;
    if (duplex_.late(d.tx, f + hops, m.x.src)) f = d.tx.end - hops;
    if (f == first) return f;
    first = f;
  }
}

void circuit_engine::free_resource(std::uint32_t r, cycle_t now) {
  resource& l = res_[r];
  l.busy += now - l.since;
  if (r < cube_links_ && l.holder != none) {
    const std::uint32_t from = owner(r);
    const std::uint32_t dim = r % f_.ports();
    note_link(from, from ^ (1U << dim), dim, l.since, now, msgs_[l.holder].x);
  }
  l.holder = none;
  if (!l.waiting.empty() && !is_dirty_[r]) {
    is_dirty_[r] = true;
    dirty_.push_back(r);
  }
  // A tile's next message may pre-set up once its first resource is free.
  if (p_.presetup) start_dirty_.push_back(owner(r));
}

void circuit_engine::release_all(std::uint32_t slot, cycle_t now) {
  message& m = msgs_[slot];
  for (std::uint32_t j = 0; j < m.held; ++j)
    free_resource(m.path[j], now);
  m.held = 0;
}

// Grants resource r if it is free and asked for; under release_retry, refuses all
// other requests for it.
void circuit_engine::settle(std::uint32_t r, cycle_t now) {
  resource& l = res_[r];
  if (l.waiting.empty()) return;
  if (p_.blocking == circuit_blocking::hold_wait) {
    if (l.holder != none) return;
    const std::size_t w = pick(l, l.waiting);
    const std::uint32_t slot = l.waiting[w];
    l.waiting.erase(l.waiting.begin() + static_cast<std::ptrdiff_t>(w));
    grant(r, slot, now);
    return;
  }
  std::vector<std::uint32_t> losers;
  losers.swap(l.waiting);
  if (l.holder == none) {
    const std::size_t w = pick(l, losers);
    const std::uint32_t slot = losers[w];
    losers.erase(losers.begin() + static_cast<std::ptrdiff_t>(w));
    grant(r, slot, now);
  }
  for (const std::uint32_t slot : losers) {
    release_all(slot, now);
    msgs_[slot].st = stage::retrying;
    ++cont_.retries;
    events_.push(now + p_.retry, event{ev_kind::ask, slot, 0});
  }
}

void circuit_engine::arbitrate(cycle_t now) {
  // Every request of this cycle is in before a resource is granted: first the tiles
  // whose interface may take a message (a header with no start-up asks at once), then
  // the resources. Grants can complete paths (pre-setup may then take a message) and
  // refused headers under release_retry free resources in this cycle: repeat until
  // nothing is left to settle.
  while (!start_dirty_.empty() || !dirty_.empty()) {
    std::vector<std::uint32_t> starts;
    starts.swap(start_dirty_);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    for (const std::uint32_t t : starts)
      try_start(t, now);

    std::vector<std::uint32_t> work;
    work.swap(dirty_);
    std::sort(work.begin(), work.end());
    for (const std::uint32_t r : work) {
      is_dirty_[r] = false;
      settle(r, now);
    }
  }
}

void circuit_engine::fire(cycle_t now) {
  event e{};
  while (events_.pop_due(now, e)) {
    if (e.kind == ev_kind::wake) {
      start_dirty_.push_back(e.slot);
      continue;
    }
    message& m = msgs_[e.slot];
    switch (e.kind) {
      case ev_kind::ask:
        request(e.slot, now);
        break;
      case ev_kind::wake:
        break;
      case ev_kind::tail:
        m.st = stage::delivered;
        if (listener_ != nullptr) listener_->delivered(m.x.id, now);
        break;
      case ev_kind::release: {
        free_resource(m.path[e.hop], now);
        if (e.hop == 0) {  // S' + k: the last element has left the interface
          --src_[m.x.src].active;
          start_dirty_.push_back(m.x.src);
        }
        if (e.hop + 1 < m.path.size()) {
          events_.push(now + 1, event{ev_kind::release, e.slot, e.hop + 1});
        } else {  // the ejection port, E + 1: the circuit is gone
          m.held = 0;
          m.st = stage::queued;
          free_.push_back(e.slot);
          --live_;
        }
        break;
      }
    }
  }
}

std::vector<link_stat> circuit_engine::links() const {
  std::vector<link_stat> out;
  const std::uint32_t d = f_.ports();
  for (std::uint32_t r = 0; r < res_.size(); ++r) {
    const resource& l = res_[r];
    if (l.messages == 0) continue;
    const std::uint32_t from = owner(r);
    if (r >= cube_links_) {
      out.push_back(link_stat{from, from, "eject", l.busy, l.messages, l.max_queue, l.units, {}});
      continue;
    }
    const std::uint32_t dim = r % d;
    out.push_back(link_stat{from,
                            from ^ (1U << dim),
                            "dim " + std::to_string(dim),
                            l.busy,
                            l.messages,
                            l.max_queue,
                            l.units,
                            {}});
  }
  return out;
}

// Path set-up per hop and element-hops from the links' rows; the elements each source
// streamed as its injections.
energy_counts circuit_engine::energy() const {
  std::vector<link_stat> rows = links();
  for (std::uint32_t t = 0; t < f_.tiles(); ++t) {
    if (src_[t].injected != 0)
      rows.push_back(link_stat{t, t, "inject", 0, 0, 0, src_[t].injected, {}});
  }
  return channel_energy(energy_rule::circuit, f_.tiles(), p_.width, rows);
}

std::string circuit_engine::resource_name(std::uint32_t r) const {
  const std::uint32_t from = owner(r);
  if (r >= cube_links_) return "the ejection port of tile " + std::to_string(from);
  return "link " + std::to_string(from) + "->" + std::to_string(from ^ (1U << (r % f_.ports())));
}

std::vector<std::string> circuit_engine::stuck() const {
  std::vector<std::string> out;
  std::vector<bool> is_free(msgs_.size(), false);
  for (const std::uint32_t s : free_)
    is_free[s] = true;
  for (std::uint32_t slot = 0; slot < msgs_.size(); ++slot) {
    if (is_free[slot]) continue;
    const message& m = msgs_[slot];
    if (m.st == stage::delivered) continue;
    std::string s = "message " + std::to_string(m.x.src) + "->" + std::to_string(m.x.dst);
    if (m.st == stage::waiting) {
      const std::uint32_t r = m.path[m.held];
      s += " waits for " + resource_name(r);
      if (res_[r].holder != none) {
        const message& h = msgs_[res_[r].holder];
        s += " held by " + std::to_string(h.x.src) + "->" + std::to_string(h.x.dst);
      }
    } else if (m.st == stage::queued) {
      s += " is queued at its source";
    } else {
      s += " is in progress";
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace tessera::net
