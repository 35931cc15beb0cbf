// The NIC: a tile's messages in posting order, cut into packets of packet_bytes, a
// message started after its start-up (alpha, or alpha_eager for an eager one) once the
// last tail of the message before has left. Included by wormhole_engine.cpp only.
#pragma once

#include "../message_slots.hpp"
#include "impl.hpp"

namespace tessera::net {

auto wormhole_engine::impl::make_worm(std::uint32_t slot) -> worm* {
  message& m = msgs[slot];
  if (spare.empty()) {
    pool.push_back(std::make_unique<worm>());
  } else {
    pool.push_back(std::move(spare.back()));
    spare.pop_back();
    pool.back()->recycle();
  }
  worm* w = pool.back().get();
  w->msg = slot;
  w->index = m.created++;
  w->last = m.created == m.packets;
  if (m.x.control) {
    w->flits = 1;
  } else {
    const std::uint64_t done = w->index * p.packet_bytes;
    const std::uint64_t payload =
        p.packet_bytes == 0 ? m.x.bytes : std::min(p.packet_bytes, m.x.bytes - done);
    w->flits = packet_flits(payload, p.width);
  }
  w->chan.push_back(inject_id(m.x.src));
  for_each_hop(
      fab, tile_id{m.x.src}, tile_id{m.x.dst}, [&](link_id l) { w->chan.push_back(l.value()); },
      order_of(p.routing));
  w->chan.push_back(eject_id(m.x.dst));
  w->hops = static_cast<std::uint32_t>(w->chan.size() - 2);
  const std::size_t n = w->chan.size();
  w->vc.resize(n);
  w->t0.reserve(n);
  w->pre.reserve(n);
  if (gap > 1) ext(*w).g0.reserve(n);
  w->ahead.resize(n - 1);
  w->tail.resize(n);
  w->credit.resize(n - 1);
  w->reached.resize(n - 1);
  w->active_index = active.size();
  active.push_back(w);
  m.current = w;
  return w;
}

void wormhole_engine::impl::schedule_nic(std::uint32_t tile, cycle_t t) {
  nic& n = nics[tile];
  if (n.scheduled) return;
  n.scheduled = true;
  events.push(t, {ev_kind::nic, 0, tile, nullptr});
}

void wormhole_engine::impl::start_next(std::uint32_t tile, cycle_t now) {
  nic& n = nics[tile];
  n.scheduled = false;
  if (n.busy || n.queue.empty()) return;
  const std::uint32_t slot = n.queue.front();
  n.queue.pop_front();
  n.busy = true;
  message& m = msgs[slot];
  m.started = true;
  if (owner.listener_ != nullptr) owner.listener_->started(m.x.id, now);
  worm* w = make_worm(slot);
  const cycle_t alpha = wormhole_detail::start_up(p, m.x);
  if (alpha == 0) {
    request(*w, now);  // competes in this round, like a header that became ready now
  } else {
    events.push(now + alpha, {ev_kind::ready, 0, 0, w});
  }
}

void wormhole_engine::impl::inject(const xfer& x, cycle_t now) {
  wormhole_detail::check_message(x, fab);
  const std::uint32_t slot = take_slot(msgs, free_msgs);
  message& m = msgs[slot];
  m = message{};
  wormhole_detail::begin_message(m, x, p);
  m.tails_left = m.packets;
  ++live_msgs;
  nic& n = nics[x.src];
  n.queue.push_back(slot);
  if (n.busy || n.scheduled) return;
  n.scheduled = true;
  if (n.free_at <= now) {
    // Started by arbitrate(now) before it grants, so the header competes in the same
    // round as everything else ready at now (with VCs, which VC it gets depends on it).
    starting.push_back(x.src);
  } else {
    events.push(n.free_at, {ev_kind::nic, 0, x.src, nullptr});
  }
}

}  // namespace tessera::net
