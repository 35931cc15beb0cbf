// Requests and grants (docs/wormhole.md, "arbitration"): a header asks for its next
// channel; each channel grants one header per cycle, round robin over its input VCs, on
// its lowest free VC. Included by wormhole_engine.cpp only.
#pragma once

#include "impl.hpp"

namespace tessera::net {

void wormhole_engine::impl::touch(std::uint32_t c) {
  if (ch[c].touched) return;
  ch[c].touched = true;
  touched.push_back(c);
}

void wormhole_engine::impl::request(worm& w, cycle_t now) {
  const std::size_t j = w.t0.size();
  if (duplex.on() && j == 0 && w.index == 0 && !msgs[w.msg].x.control) {
    // A transmit that starts more than the window after a receive waits for it.
    const message& m = msgs[w.msg];
    nic& n = nics[m.x.src];
    if (must_wait(n, m.x.dst, now)) {
      n.parked = &w;
      return;
    }
  }
  if (duplex.holds() && j == w.hops + 1 && w.index == 0 && !msgs[w.msg].x.control) {
    message& m = msgs[w.msg];
    const std::uint32_t b = hold_blocker(m, now);
    m.held_by = b;
    if (b != none) {
      const nic& n = nics[b];
      if (b == m.x.dst && n.tx.end != never)
        events.push(n.tx.end, {ev_kind::ready, 0, 0, &w});  // the transmit's end is known
      else
        nics[b].held.push_back(&w);
      return;
    }
  }
  const std::uint32_t c = w.chan[j];
  const std::uint32_t in = j == 0 ? local_input * nvc : input_of(w.chan[j - 1]) * nvc + w.vc[j - 1];
  channel& x = ch[c];
  worm*& slot = req_slots[std::size_t{c} * n_inputs * nvc + in];
  if (slot != nullptr) throw std::logic_error("wormhole engine: two headers at one input");
  slot = &w;
  ++x.nreq;
  x.max_queue = std::max(x.max_queue, x.nreq);
  w.ready_since = now;
  touch(c);
}

// Round robin over the 5 x V input VCs from the pointer; the pointer then moves just
// past the input VC granted.
auto wormhole_engine::impl::pick(std::uint32_t c) -> worm* {
  channel& x = ch[c];
  const std::uint32_t n = n_inputs * nvc;
  worm** req = &req_slots[std::size_t{c} * n];
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t in = x.rr + i < n ? x.rr + i : x.rr + i - n;
    if (req[in] == nullptr) continue;
    worm* w = req[in];
    req[in] = nullptr;
    --x.nreq;
    x.rr = in + 1 < n ? in + 1 : 0;
    return w;
  }
  return nullptr;
}

// w's header crosses its next channel at `now` on the lowest free VC.
void wormhole_engine::impl::grant(worm& w, cycle_t now) {
  const std::uint32_t k = static_cast<std::uint32_t>(w.t0.size());
  channel& x = ch[w.chan[k]];
  const auto v = static_cast<std::uint32_t>(std::countr_zero(x.free_mask));
  x.free_mask &= ~(std::uint32_t{1} << v);
  x.granted_at = now;
  w.vc[k] = static_cast<std::uint8_t>(v);
  ++x.packets;
  if (now > w.ready_since) {
    const cycle_t waited = now - w.ready_since;
    ++cont.blocked;
    cont.blocked_cycles += waited;
    cont.max_blocked = std::max(cont.max_blocked, waited);
  }
  if (duplex.on() && w.index == 0 && !msgs[w.msg].x.control && (k == 0 || k == w.hops + 1))
    half_duplex_grant(w, k, now);
  w.t0.push_back(now);
  const std::int64_t here = as_i64(now) - k;
  w.pre.push_back(k == 0 ? here : std::max(w.pre.back(), here));
  if (gap > 1) {
    const std::int64_t paced = as_i64(now) - q0 * k;
    ext(w).g0.push_back(k == 0 ? paced : std::max(ext(w).g0.back(), paced));
  }
  if (k == w.hops + 1) {
    w.suf.resize(w.t0.size());
    for (std::uint32_t j = k + 1; j-- > 0;) {
      const std::int64_t b = as_i64(w.t0[j]) - qrow * j;
      w.suf[j] = j == k ? b : std::max(b, w.suf[j + 1]);
    }
  }
  if (k <= w.hops) {
    ahead_link& last = vc_last[std::size_t{w.chan[k]} * nvc + v];
    w.ahead[k] = last;
    if (last.w != nullptr) ++w.live_links;
    last = {&w, k, 0};
    resolve_front(w);
  }
  progress(w);
  wake(w);
}

// At most one header crosses a physical channel per cycle (it is one flit); with VCs
// left and headers waiting, the channel is looked at again next cycle.
void wormhole_engine::impl::arbitrate(cycle_t now) {
  now_ = now;
  for (std::uint32_t tile : starting)
    start_next(tile, now);
  starting.clear();
  for (std::size_t i = 0; i < touched.size(); ++i) {
    const std::uint32_t c = touched[i];
    channel& x = ch[c];
    x.touched = false;
    if (x.nreq == 0 || x.free_mask == 0) continue;
    if (x.granted_at != now) {
      grant(*pick(c), now);
      drain_retry();
    }
    if (x.nreq > 0 && x.free_mask != 0 && !x.retouch) {
      x.retouch = true;
      events.push(now + 1, {ev_kind::touch, 0, c, nullptr});
    }
  }
  touched.clear();
}

}  // namespace tessera::net
