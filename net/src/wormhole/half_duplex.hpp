// The half-duplex NIC on the mesh: where the engine's transmits and receives start and
// end, and what it does with a stream that the rule (tessera/net/duplex.hpp) finds late.
// Included by wormhole_engine.cpp only.
#pragma once

#include "impl.hpp"

namespace tessera::net {

// A message's first header enters the injection (a transmit starts) or the ejection
// (a receive starts) at `now`.
void wormhole_engine::impl::half_duplex_grant(const worm& w, std::uint32_t k, cycle_t now) {
  message& m = msgs[w.msg];
  if (duplex.holds()) {
    if (k == 0) return;
    m.receiving = true;
    m.rx_start = now;
    nics[m.x.dst].rx_active.push_back(w.msg);
    nic& s = nics[m.x.src];
    if (!m.injected) {
      s.tx = {now, never, m.x.dst};
      s.tx_slot = w.msg;
    }
    return;
  }
  if (k == 0) {
    nics[m.x.src].tx = {now, never, m.x.dst};
    return;
  }
  nic& n = nics[m.x.dst];
  m.receiving = true;
  m.rx_start = now;
  if (duplex.late(n.tx, now, m.x.src)) {
    m.serial = true;
    if (n.tx.end != never) {
      m.tx_end = n.tx.end;
    } else {
      n.after_tx.push_back(w.msg);
    }
  }
  n.rx_active.push_back(w.msg);
}

// Half duplex: a transmit to `peer` starting at `now` is late against one of the
// receives under way at its tile.
bool wormhole_engine::impl::must_wait(const nic& n, std::uint32_t peer, cycle_t now) const {
  for (const std::uint32_t slot : n.rx_active) {
    const message& r = msgs[slot];
    if (duplex.late(r.rx_start, r.x.src, now, peer)) return true;
  }
  return false;
}

// duplex_hold: the tile whose stream a first header of m must wait for at `now` before
// it enters the ejection (none: it may enter): m's transmit is late against a receive
// at its source, or its receive against the transmit at its destination.
std::uint32_t wormhole_engine::impl::hold_blocker(const message& m, cycle_t now) const {
  if (must_wait(nics[m.x.src], m.x.dst, now)) return m.x.src;
  if (duplex.late(nics[m.x.dst].tx, now, m.x.src)) return m.x.dst;
  return none;
}

// duplex_hold: a stream of `tile` ended; the headers held for it ask again.
void wormhole_engine::impl::release_held(std::uint32_t tile, cycle_t now) {
  nic& n = nics[tile];
  if (n.held.empty()) return;
  std::vector<worm*> h;
  h.swap(n.held);
  for (worm* w : h)
    request(*w, now);
}

// Half duplex: a receive at `tile` completed; a transmit parked behind the receives
// goes once none is left.
void wormhole_engine::impl::receive_done(std::uint32_t tile, std::uint32_t slot, cycle_t now) {
  nic& n = nics[tile];
  std::erase(n.rx_active, slot);
  if (duplex.holds()) release_held(tile, now);
  if (n.parked == nullptr || must_wait(n, msgs[n.parked->msg].x.dst, now)) return;
  worm* w = n.parked;
  n.parked = nullptr;
  request(*w, now);
}

// A serial receive is carried out after its tile's transmit, at its own length.
void wormhole_engine::impl::deliver_serial(std::uint32_t slot) {
  const message& m = msgs[slot];
  const cycle_t end = duplex_policy::serial_end(m.rx_tail + 1, m.tx_end, m.rx_tail - m.rx_start);
  events.push(std::max(end, now_), {ev_kind::deliver, 0, slot, nullptr});
}

}  // namespace tessera::net
