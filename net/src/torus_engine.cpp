#include "tessera/net/torus_engine.hpp"

#include <algorithm>
#include <string>

#include "message_slots.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/net/mesh_routing.hpp"
#include "tessera/net/route_dependencies.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::net {

void validate(const torus_params& p) {
  check_ranges("store-forward", torus_range::all, {p.beta, p.tau, p.packet_bytes, p.buffers});
  // One buffer per dateline class at least (the RTL's Buffers >= 2), or unlimited.
  if (p.buffers == 1)
    throw input_error("torus: buffers 1 is out of range 2.." + std::to_string(max_torus_buffers) +
                      " (0: unlimited)");
}

torus_engine::torus_engine(const fabric& f, torus_params p) : f_{f}, p_{p} {
  if (f.kind == fabric_kind::hypercube)
    throw input_error("store-and-forward ports need a torus, mesh or ring fabric, not a " +
                      std::string(kind_name(f.kind)) + " of " + std::to_string(f.tiles()) +
                      " tiles");
  validate(p);
  const std::size_t ends = std::size_t{f.tiles()} * in_ports();
  wants_.resize(ends * in_ports());
  outs_.resize(ends);
  nis_.resize(f.tiles());
  // Dateline classes of a link input: ceil(B/2) buffers of class 0, the rest class 1.
  const std::uint32_t class0 = p.buffers - p.buffers / 2;
  for (output& o : outs_) {
    o.room[0] = class0;
    o.room[1] = p.buffers - class0;
  }
  for (interface& n : nis_)
    n.room = p.buffers;
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

void torus_engine::set_forwarding(const std::vector<forwarding_entry>& entries,
                                  deadlock_check check) {
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
  if (check == deadlock_check::skip) return;
  // Every walk arrives; a cycle of buffer dependencies could still hold them all.
  std::vector<channel> cycle;
  try {
    const channel_graph g = dependencies();
    cycle = g.find_cycle();
    if (!cycle.empty()) {
      throw input_error(
          "forwarding tables can deadlock: their routes close a cycle of buffer "
          "dependencies, " +
          cycle_text(g, cycle, "class") + " (tessera check-routes)");
    }
  } catch (...) {
    std::swap(forward_, table);
    throw;
  }
}

channel_graph torus_engine::dependencies() const {
  // The destinations the forwarding entries name; towards the others every tile takes
  // dimension order.
  std::vector<bool> tabled(forward_.empty() ? 0 : f_.tiles(), false);
  for (const auto& [key, port] : forward_)
    tabled[key % f_.tiles()] = true;
  return store_forward_dependencies(
      f_, p_.buffers, [this](std::uint32_t at, std::uint32_t d) { return next_port(at, d); },
      [&tabled](std::uint32_t d) { return !tabled.empty() && tabled[d]; });
}

void torus_engine::set_trees(const std::vector<tree_entry>& entries) {
  const std::uint32_t p = f_.tiles();
  const std::uint32_t all = (1U << in_ports()) - 1;
  std::unordered_map<std::uint64_t, std::uint32_t> table;
  std::vector<std::uint32_t> trees;
  for (const tree_entry& e : entries) {
    const std::string name = "tree entry (tree " + std::to_string(e.tree) + ", tile " +
                             std::to_string(e.tile) + ", mask " + std::to_string(e.mask) + ")";
    if (e.tree == 0) throw input_error(name + ": tree 0 is unicast; trees are numbered from 1");
    if (e.tile >= p) throw input_error(name + " names a tile off the fabric");
    if ((e.mask & ~all) != 0) throw input_error(name + " names a port the fabric has not");
    for (std::uint32_t o = 0; o < f_.ports(); ++o) {
      if (((e.mask >> o) & 1U) != 0 && !neighbour(f_, tile_id{e.tile}, o))
        throw input_error(name + ": the tile has no link on port " + std::to_string(o));
    }
    table[std::uint64_t{e.tree} * p + e.tile] = e.mask;
    trees.push_back(e.tree);
  }
  std::sort(trees.begin(), trees.end());
  trees.erase(std::unique(trees.begin(), trees.end()), trees.end());
  // Each table must be a forest: no tile fed by two edges (it would get two copies)
  // and no cycle (a packet would circle for ever).
  std::vector<std::uint32_t> fed(p);
  std::vector<std::uint8_t> state(p);
  std::vector<std::uint32_t> stack;
  for (const std::uint32_t k : trees) {
    std::fill(fed.begin(), fed.end(), 0);
    const auto mask_of = [&](std::uint32_t t) {
      const auto it = table.find(std::uint64_t{k} * p + t);
      return it == table.end() ? 0U : it->second;
    };
    for (std::uint32_t t = 0; t < p; ++t) {
      for (std::uint32_t o = 0; o < f_.ports(); ++o) {
        if (((mask_of(t) >> o) & 1U) == 0) continue;
        const std::uint32_t n = neighbour(f_, tile_id{t}, o)->value();
        if (++fed[n] > 1)
          throw input_error("tree " + std::to_string(k) + " reaches tile " + std::to_string(n) +
                            " twice (a tree table must be a forest)");
      }
    }
    // In-degree at most 1: a cycle is a walk back to its start; follow from each tile.
    std::fill(state.begin(), state.end(), 0);
    for (std::uint32_t s = 0; s < p; ++s) {
      if (state[s] != 0) continue;
      stack.assign(1, s);
      std::uint32_t seen = 0;
      while (!stack.empty()) {
        const std::uint32_t t = stack.back();
        stack.pop_back();
        if (state[t] == 1 && t == s && seen > 0)
          throw input_error("tree " + std::to_string(k) + " has a cycle through tile " +
                            std::to_string(s));
        if (state[t] != 0) continue;
        state[t] = 1;
        ++seen;
        for (std::uint32_t o = 0; o < f_.ports(); ++o) {
          if (((mask_of(t) >> o) & 1U) == 0) continue;
          const std::uint32_t n = neighbour(f_, tile_id{t}, o)->value();
          if (n == s)
            throw input_error("tree " + std::to_string(k) + " has a cycle through tile " +
                              std::to_string(s));
          stack.push_back(n);
        }
      }
      // Tiles reached from s are done; a later start cannot close a cycle through them
      // that s did not (each has one feeder).
    }
  }
  std::swap(trees_, table);
}

std::uint32_t torus_engine::new_packet() {
  if (!free_pks_.empty()) {
    const std::uint32_t k = free_pks_.back();
    free_pks_.pop_back();
    return k;
  }
  pks_.emplace_back();
  return static_cast<std::uint32_t>(pks_.size() - 1);
}

void torus_engine::mark(std::uint32_t tile, std::uint32_t o) {
  output& op = out_port(tile, o);
  if (op.dirty) return;
  op.dirty = true;
  dirty_outs_.push_back(tile * in_ports() + o);
}

void torus_engine::mark_interface(std::uint32_t tile) {
  if (nis_[tile].dirty) return;
  nis_[tile].dirty = true;
  dirty_nis_.push_back(tile);
}

std::uint32_t torus_engine::route_mask(const packet& pk) const {
  const xfer& x = msgs_[pk.msg].x;
  if (x.tree != 0) {
    const auto it = trees_.find(std::uint64_t{x.tree} * f_.tiles() + pk.at);
    return it == trees_.end() ? 0U : it->second;
  }
  if (pk.at == x.dst) return 1U << f_.ports();
  return 1U << next_port(pk.at, x.dst);
}

// The RTL's dl_class: a unicast packet is in class 1 at a node once its route in the
// dimension it travels has wrapped round the ring. The route in a dimension starts in
// the source's column (row) and covers at most half the ring, so it has wrapped
// exactly when the node lies past the source's column (row) from the far side.
std::uint8_t torus_engine::next_class(const packet& pk, std::uint32_t o) const {
  const xfer& x = msgs_[pk.msg].x;
  if (x.tree != 0) return 0;
  // Ports 0..3 are E, W, S, N (a ring's +1 and -1 are E and W), as torus_class takes them;
  // the class graph of dependencies() reads the same rule.
  const std::uint32_t cols = f_.cols;
  const mesh_place here{pk.at % cols, pk.at / cols};
  const mesh_place src{x.src % cols, x.src / cols};
  return torus_class(o, here, src, cols, f_.rows) ? 1 : 0;
}

void torus_engine::complete(std::uint32_t msg, cycle_t now) {
  message& m = msgs_[msg];
  m.live = false;
  --live_;
  const std::uint64_t id = m.x.id;
  const bool started = m.started;
  m.started = true;
  if (m.copies == 0) free_msgs_.push_back(msg);
  if (listener_ != nullptr) {
    if (!started) listener_->started(id, now);
    listener_->delivered(id, now);
  }
}

void torus_engine::deliver_one(std::uint32_t msg, std::uint32_t tile, std::uint64_t index,
                               cycle_t now) {
  message& m = msgs_[msg];
  const std::uint64_t id = m.x.id;
  const bool last = ++m.arrived == m.expected;
  if (hook_) hook_(torus_arrival{id, tile, index, now});
  if (last) complete(msg, now);
}

void torus_engine::release(std::uint32_t pk) {
  const packet& k = pks_[pk];
  if (p_.buffers != 0) {
    if (k.input == f_.ports()) {
      ++nis_[k.at].room;
      mark_interface(k.at);
    } else {
      // Input i is fed by the neighbour in direction i, through its output i ^ 1.
      const std::uint32_t up = neighbour(f_, tile_id{k.at}, k.input)->value();
      const std::uint32_t o = k.input ^ 1U;
      ++out_port(up, o).room[k.cls];
      mark(up, o);
    }
  }
  message& m = msgs_[k.msg];
  --held_;
  free_pks_.push_back(pk);
  // The message's slot is reused once it is delivered and its last copy is gone.
  if (--m.copies == 0 && !m.live) free_msgs_.push_back(k.msg);
}

void torus_engine::stored(std::uint32_t pk, cycle_t now) {
  packet& k = pks_[pk];
  k.ready = now;
  k.pend = route_mask(k);
  const std::uint32_t eject = f_.ports();
  if (k.pend == 0) {  // routed nowhere: the buffer frees at once
    release(pk);
    return;
  }
  for (std::uint32_t o = 0; o < in_ports(); ++o) {
    if (((k.pend >> o) & 1U) == 0) continue;
    waiting(k.at, k.input, o).push_back(pk);
    output& op = out_port(k.at, o);
    op.max_queue = std::max(op.max_queue, ++op.waiting);
    mark(k.at, o);
  }
  if (((k.pend >> eject) & 1U) != 0) deliver_one(k.msg, k.at, k.index, now);
}

void torus_engine::inject(const xfer& x, cycle_t now) {
  const std::uint32_t slot = take_slot(msgs_, free_msgs_);
  message& m = msgs_[slot];
  m = message{};
  m.x = x;
  m.live = true;
  const std::uint64_t bytes = x.control ? 0 : x.bytes;
  const std::uint64_t unit =
      p_.packet_bytes == 0 ? std::max<std::uint64_t>(bytes, 1) : p_.packet_bytes;
  m.packets = bytes == 0 ? 1 : (bytes + unit - 1) / unit;
  std::uint64_t tiles = 1;
  if (x.tree != 0) {
    // The tiles the tree delivers to from the source (a forest: each reached once).
    tiles = 0;
    std::vector<std::uint32_t> todo{x.src};
    while (!todo.empty()) {
      const std::uint32_t t = todo.back();
      todo.pop_back();
      const auto it = trees_.find(std::uint64_t{x.tree} * f_.tiles() + t);
      const std::uint32_t mask = it == trees_.end() ? 0U : it->second;
      if (((mask >> f_.ports()) & 1U) != 0) ++tiles;
      for (std::uint32_t o = 0; o < f_.ports(); ++o)
        if (((mask >> o) & 1U) != 0) todo.push_back(neighbour(f_, tile_id{t}, o)->value());
    }
  }
  m.expected = m.packets * tiles;
  ++live_;
  std::uint64_t left = bytes;
  for (std::uint64_t i = 0; i < m.packets; ++i) {
    const std::uint32_t pk = new_packet();
    packet& k = pks_[pk];
    k = packet{};
    k.msg = slot;
    k.at = x.src;
    k.input = f_.ports();
    k.index = i;
    k.bytes = std::min(left, unit);
    left -= k.bytes;
    nis_[x.src].queue.push_back(pk);
    ++held_;
  }
  m.copies = m.packets;
  (void)now;
  mark_interface(x.src);
}

bool torus_engine::try_grant(std::uint32_t tile, std::uint32_t o, cycle_t now) {
  output& op = out_port(tile, o);
  if (op.free_at > now) return false;
  const bool link = o < f_.ports();
  const std::uint32_t n = in_ports();
  bool blocked = false;
  for (std::uint32_t step = 1; step <= n; ++step) {
    const std::uint32_t in = (op.rr + step) % n;
    wait_list& q = waiting(tile, in, o);
    blocked = blocked || !q.empty();
    // The oldest packet of this input that wants the output and may go: with finite
    // buffers, the one whose class has a free buffer at the neighbour.
    std::size_t at = q.head;
    if (link && p_.buffers != 0) {
      while (at != q.items.size() && op.room[next_class(pks_[q.items[at]], o)] == 0)
        ++at;
    }
    if (at == q.items.size()) continue;
    const std::uint32_t pk = q.items[at];
    q.erase(at);
    --op.waiting;
    op.rr = in;
    packet& k = pks_[pk];
    message& m = msgs_[k.msg];
    if (!m.started) {
      m.started = true;
      if (listener_ != nullptr) listener_->started(m.x.id, now);
    }
    cycle_t cost = k.bytes + 1;  // ejection: a header cycle, then a byte a cycle
    if (link) {
      cost = std::max<cycle_t>(1, p_.beta + p_.tau * k.bytes);
      if (p_.buffers != 0) --op.room[next_class(k, o)];
      const cycle_t waited = now - k.ready;
      if (waited > 0) {
        ++cont_.blocked;
        cont_.blocked_cycles += waited;
        cont_.max_blocked = std::max(cont_.max_blocked, waited);
      }
      op.busy += cost;
      const link_id li = make_link(f_, tile_id{tile}, o);
      note_link(tile, endpoints(f_, li).to.value(), o, now, now + cost, m.x);
    }
    ++op.messages;
    op.units += k.bytes;
    op.free_at = now + cost;
    events_.push(now + cost, event{tile, o, pk});
    return true;
  }
  if (blocked) ++credit_stalls_;
  return false;
}

void torus_engine::write_packet(std::uint32_t tile, cycle_t now) {
  const std::uint32_t pk = nis_[tile].queue.front();
  nis_[tile].queue.pop_front();
  const std::uint32_t msg = pks_[pk].msg;
  nis_[tile].written += pks_[pk].bytes;
  message& m = msgs_[msg];
  ++m.written;
  const bool nowhere = m.expected == 0 && m.written == m.packets;
  stored(pk, now);
  // A tree that delivers nowhere from its source: done when the last packet is in.
  if (nowhere) complete(msg, now);
}

void torus_engine::arbitrate(cycle_t now) {
  // The interfaces first: a packet written this cycle may leave this cycle.
  std::vector<std::uint32_t> nis;
  nis.swap(dirty_nis_);
  std::sort(nis.begin(), nis.end());
  for (const std::uint32_t t : nis) {
    interface& ni = nis_[t];
    ni.dirty = false;
    if (ni.queue.empty()) continue;
    if (p_.buffers == 0) {  // the ideal node takes every posted packet at once
      while (!nis_[t].queue.empty())
        write_packet(t, now);
      continue;
    }
    if (ni.written_at == now) {  // one packet a cycle: again next cycle
      events_.push(now + 1, event{t, none, 0});
      continue;
    }
    if (ni.room == 0) continue;  // a released local buffer marks the interface again
    --ni.room;
    ni.written_at = now;
    write_packet(t, now);
    if (!nis_[t].queue.empty()) events_.push(now + 1, event{t, none, 0});
  }
  std::vector<std::uint32_t> work;
  work.swap(dirty_outs_);
  std::sort(work.begin(), work.end());
  for (const std::uint32_t w : work) {
    const std::uint32_t tile = w / in_ports();
    const std::uint32_t o = w % in_ports();
    out_port(tile, o).dirty = false;
    try_grant(tile, o, now);
  }
}

void torus_engine::fire(cycle_t now) {
  event ev{};
  while (events_.pop_due(now, ev)) {
    if (ev.out == none) {
      mark_interface(ev.tile);
      continue;
    }
    mark(ev.tile, ev.out);  // the output is free again
    packet& k = pks_[ev.pk];
    k.pend &= ~(1U << ev.out);
    if (ev.out < f_.ports()) {
      // The copy is complete at the neighbour, in its input facing this link.
      const std::uint32_t cp = new_packet();
      packet& c = pks_[cp];
      const packet& src = pks_[ev.pk];
      c = packet{};
      c.msg = src.msg;
      c.index = src.index;
      c.bytes = src.bytes;
      c.at = neighbour(f_, tile_id{ev.tile}, ev.out)->value();
      c.input = ev.out ^ 1U;
      c.cls = next_class(src, ev.out);
      ++msgs_[c.msg].copies;
      ++held_;
      stored(cp, now);
    }
    if (pks_[ev.pk].pend == 0) release(ev.pk);
  }
}

std::vector<link_stat> torus_engine::links() const {
  static constexpr const char* names2d[] = {"E", "W", "S", "N"};
  static constexpr const char* names_ring[] = {"+1", "-1"};
  std::vector<link_stat> out;
  for (std::uint32_t li = 0; li < f_.link_slots(); ++li) {
    const std::uint32_t dir = li % f_.ports();
    const output& op = outs_[std::size_t{li / f_.ports()} * in_ports() + dir];
    if (op.messages == 0) continue;
    const auto ends = endpoints(f_, link_id{li});
    out.push_back(link_stat{ends.from.value(),
                            ends.to.value(),
                            f_.kind == fabric_kind::ring ? names_ring[dir] : names2d[dir],
                            op.busy,
                            op.messages,
                            op.max_queue,
                            op.units,
                            {}});
  }
  return out;
}

// Packet buffer bytes written (a packet stored from a link or from the NIC) and read
// (forwarded on a link or ejected), link bytes, and the NIC's bytes in and out.
energy_counts torus_engine::energy() const {
  std::vector<link_stat> rows = links();
  for (std::uint32_t t = 0; t < f_.tiles(); ++t) {
    if (nis_[t].written != 0)
      rows.push_back(link_stat{t, t, "inject", 0, 0, 0, nis_[t].written, {}});
    const output& ej = outs_[std::size_t{t} * in_ports() + f_.ports()];
    if (ej.messages != 0) rows.push_back(link_stat{t, t, "eject", 0, ej.messages, 0, ej.units, {}});
  }
  return channel_energy(energy_rule::store_forward, f_.tiles(), 1, rows);
}

std::vector<std::string> torus_engine::stuck() const {
  std::vector<std::string> out;
  for (const message& m : msgs_) {
    if (!m.live) continue;
    const std::string what =
        m.x.tree != 0 ? "tree " + std::to_string(m.x.tree) : std::to_string(m.x.dst);
    out.push_back("message " + std::to_string(m.x.src) + "->" + what + ": " +
                  std::to_string(m.arrived) + " of " + std::to_string(m.expected) +
                  " packet deliveries, " + std::to_string(m.packets - m.written) +
                  " packets not yet in the network");
  }
  // Where the stored packets wait: per input, its oldest packet and what it owes.
  static constexpr const char* names2d[] = {"E", "W", "S", "N", "local"};
  static constexpr const char* names_ring[] = {"+1", "-1", "local"};
  const char* const* names = f_.kind == fabric_kind::ring ? names_ring : names2d;
  for (std::uint32_t t = 0; t < f_.tiles(); ++t) {
    for (std::uint32_t i = 0; i < in_ports(); ++i) {
      std::uint32_t oldest = none;
      for (std::uint32_t o = 0; o < in_ports(); ++o) {
        const auto& q = wants_[(std::size_t{t} * in_ports() + i) * in_ports() + o];
        if (!q.empty() && (oldest == none || pks_[q.front()].ready < pks_[oldest].ready))
          oldest = q.front();
      }
      if (oldest == none) continue;
      const packet& k = pks_[oldest];
      std::string ports;
      for (std::uint32_t o = 0; o < in_ports(); ++o)
        if (((k.pend >> o) & 1U) != 0) ports += std::string(" ") + names[o];
      out.push_back("tile " + std::to_string(t) + " input " + names[i] + " holds packet " +
                    std::to_string(k.index) + " of message " + std::to_string(msgs_[k.msg].x.src) +
                    "->" +
                    (msgs_[k.msg].x.tree != 0 ? "tree " + std::to_string(msgs_[k.msg].x.tree)
                                              : std::to_string(msgs_[k.msg].x.dst)) +
                    ", which waits for output" + ports);
    }
  }
  return out;
}

}  // namespace tessera::net
