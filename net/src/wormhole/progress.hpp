// Progress of one worm: as its header crossings are granted, the tails and credits the
// closed form can now answer become known, in path order, and the channel releases,
// deliveries and next packets they complete are scheduled (docs/wormhole.md, "Events
// and laziness"). Included by wormhole_engine.cpp only.
#pragma once

#include "impl.hpp"

namespace tessera::net {

void wormhole_engine::impl::wait_on(worm& m, worm& w) {
  if (m.waiters.empty() || m.waiters.back() != &w) m.waiters.push_back(&w);
}

void wormhole_engine::impl::wake(worm& m) {
  retry.insert(retry.end(), m.waiters.begin(), m.waiters.end());
  m.waiters.clear();
}

void wormhole_engine::impl::drain_retry() {
  while (!retry.empty()) {
    worm* x = retry.back();
    retry.pop_back();
    if (x->finished) continue;
    if (x->front_wait) resolve_front(*x);
    progress(*x);
  }
}

// Computes every tail and credit time that has become known, in path order, and
// schedules the channel releases they complete. Why a release is never in the past
// when it becomes known: every term of the closed form is a header crossing plus a
// non-negative weight (s f + k - k', s(f - B(k' - k)) with k' <= k + floor(f/B), or the
// paced row's g(f - k'B) with k'B <= f), and a cross term is another packet's flit
// time of the same shape plus a non-negative weight. A value becomes computable when
// the last header it needs is granted, which is now, so it is >= now. release()
// checks it (docs/wormhole.md, "Events and laziness").
void wormhole_engine::impl::progress(worm& w) {
  if (w.finished) return;
  const std::uint32_t last = w.hops + 1;
  std::array<worm*, 2> missing{};
  bool moved = false;
  while (w.tail_done <= last) {
    const answer a = flit_time(w, w.flits - 1, w.tail_done);
    if (a.missing != nullptr) {
      missing[0] = a.missing;
      break;
    }
    w.tail[w.tail_done++] = a.t;
    on_tail(w, w.tail_done - 1);
    moved = true;
  }
  while (w.credit_done <= w.hops) {
    const answer a = credit_time(w, w.credit_done);
    if (a.missing != nullptr) {
      missing[1] = a.missing;
      break;
    }
    w.credit[w.credit_done++] = a.t;
    moved = true;
  }
  while (w.released < w.tail_done && (w.released == last || w.released < w.credit_done))
    release(w, w.released++);
  for (worm* m : missing)
    if (m != nullptr && m != &w) wait_on(*m, w);
  if (moved) wake(w);
  if (w.released == last + 1) finish(w);
}

// A VC of a link or the ejection carries one flit per s cycles, across packets too.
void wormhole_engine::impl::release(worm& w, std::uint32_t k) {
  channel& c = ch[w.chan[k]];
  cycle_t avail = w.tail[k] + (k == 0 ? 1 : static_cast<cycle_t>(share));
  // The slot the next header needs frees at credit[k] (0: no flit holds it); its
  // sender may use it d cycles later. The ejection channel has no buffer.
  if (k <= w.hops && w.credit[k] != 0) avail = std::max(avail, w.credit[k] + as_cycle(cd));
  if (avail < now_) throw std::logic_error("wormhole engine: a channel release fell in the past");
  c.busy += w.tail[k] - w.t0[k] + 1;
  c.flits += w.flits;
  if (w.chan[k] < 4 * tiles) {
    const link_ends e = endpoints(fab, link_id{w.chan[k]});
    owner.note_link(e.from.value(), e.to.value(), w.chan[k] % 4, w.t0[k], w.tail[k] + 1,
                    msgs[w.msg].x);
  }
  events.push(avail, {ev_kind::free, w.vc[k], w.chan[k], nullptr});
}

void wormhole_engine::impl::on_tail(worm& w, std::uint32_t k) {
  const cycle_t t = w.tail[k];
  if (k == 0) {
    message& m = msgs[w.msg];
    if (!w.last) {
      // The NIC paces a message's flits, across its packets too.
      worm* next = make_worm(w.msg);
      events.push(t + p.inject_gap, {ev_kind::ready, 0, 0, next});
    } else {
      nic& n = nics[m.x.src];
      n.busy = false;
      n.free_at = t + 1;
      if (!n.queue.empty()) schedule_nic(m.x.src, n.free_at);
      if (duplex.holds()) {
        m.injected = true;
        if (n.tx_slot == w.msg) {
          n.tx.end = t + 1;
          std::vector<worm*> h;
          h.swap(n.held);
          for (worm* x : h)
            events.push(t + 1, {ev_kind::ready, 0, 0, x});
        }
      } else if (duplex.on()) {
        n.tx.end = t + 1;
        for (const std::uint32_t slot : n.after_tx) {
          message& r = msgs[slot];
          r.tx_end = n.tx.end;
          if (r.tail_known) deliver_serial(slot);
        }
        n.after_tx.clear();
      }
    }
  }
  if (k == w.hops + 1 && nvc == 1) {
    if (w.last) deliver_at(w.msg, t);
  } else if (k == w.hops + 1) {
    // On different VCs a later packet can arrive first: deliver after the latest tail.
    message& m = msgs[w.msg];
    m.latest = std::max(m.latest, t);
    if (--m.tails_left == 0) deliver_at(w.msg, m.latest);
  }
}

// The last tail of message `slot` crosses the ejection at t.
void wormhole_engine::impl::deliver_at(std::uint32_t slot, cycle_t t) {
  message& m = msgs[slot];
  if (!m.serial) {
    events.push(t + 1, {ev_kind::deliver, 0, slot, nullptr});
    return;
  }
  m.tail_known = true;
  m.rx_tail = t;
  if (m.tx_end != never) deliver_serial(slot);
}

void wormhole_engine::impl::finish(worm& w) {
  w.finished = true;
  const std::size_t i = w.active_index;
  active[i] = active.back();
  active[i]->active_index = i;
  active.pop_back();
}

// The header entered buffer k at t0[k]; it may ask for channel k+1 once its r cycles
// are over and the packet ahead of it has left the buffer (FIFO order).
void wormhole_engine::impl::resolve_front(worm& w) {
  const std::uint32_t k = static_cast<std::uint32_t>(w.t0.size() - 1);
  ahead_link& a = w.ahead[k];
  cycle_t e = w.t0[k] + 1 + p.router_delay;
  if (a.w) {
    worm& q = *a.w;
    const std::uint32_t out = a.k + 1;
    if (q.tail_done <= out) {
      w.front_wait = true;
      wait_on(q, w);
      return;
    }
    e = std::max(e, q.tail[out] + 1);
    if (ahead_gone(w, k, q, out)) {
      a.w = nullptr;
      --w.live_links;
    }
  }
  w.front_wait = false;
  events.push(e, {ev_kind::ready, 0, 0, &w});
}

}  // namespace tessera::net
