#include "tessera/alphabeta/network.hpp"

#include <algorithm>
#include <cstring>

namespace tessera::ab {

network::network(std::uint32_t tiles, params prm)
    : tiles_{tiles}, prm_{prm}, t_(tiles), touched_(tiles, false) {}

nic_handle network::new_handle(std::uint32_t tile, hkind k) {
  tile_state& ts = t_[tile];
  nic_handle h;
  if (!ts.free_handles.empty()) {
    h = ts.free_handles.back();
    ts.free_handles.pop_back();
  } else {
    h = static_cast<nic_handle>(ts.handles.size());
    ts.handles.emplace_back();
  }
  ts.handles[h] = handle_state{};
  ts.handles[h].kind = k;
  return h;
}

void network::touch(std::uint32_t t) {
  if (!touched_[t]) {
    touched_[t] = true;
    touched_list_.push_back(t);
  }
}

std::vector<std::uint32_t> network::take_touched() {
  std::vector<std::uint32_t> out;
  out.swap(touched_list_);
  for (const std::uint32_t t : out)
    touched_[t] = false;
  std::sort(out.begin(), out.end());
  return out;
}

void network::start_transfers() {
  // Lowest tile id first, so simultaneous claims on an input port are deterministic.
  for (std::uint32_t s = 0; s < tiles_; ++s) {
    tile_state& src = t_[s];
    while (!src.out.empty() && src.out_free <= now_) {
      const std::uint32_t d = src.out.front().header.dst;
      tile_state& dst = t_[d];
      if (dst.in_free > now_) break;
      message m = std::move(src.out.front());
      src.out.pop_front();
      const std::uint64_t end = now_ + prm_.ts + prm_.tw * m.header.bytes;
      src.out_free = end;
      dst.in_free = end;
      log_.push_back(transfer_record{m.header, now_, end});
      std::size_t idx;
      if (!free_flight_.empty()) {
        idx = free_flight_.back();
        free_flight_.pop_back();
        in_flight_[idx] = std::move(m);
      } else {
        idx = in_flight_.size();
        in_flight_.push_back(std::move(m));
      }
      events_.push(event{end, seq_++, d, no_handle, idx, false});
    }
  }
}

bool network::advance() {
  start_transfers();
  if (events_.empty()) return false;
  now_ = events_.top().time;
  while (!events_.empty() && events_.top().time == now_) {
    const event e = events_.top();
    events_.pop();
    if (e.is_delay) {
      t_[e.tile].handles[e.handle].status = nic_status::done;
      touch(e.tile);
    } else {
      deliver(e.message);
    }
  }
  return true;
}

void network::complete_recv(std::uint32_t tile, nic_handle h, const message& m) {
  handle_state& hs = t_[tile].handles[h];
  hs.header = m.header;
  if (m.payload.size() > hs.buffer.size()) {
    hs.status = nic_status::failed;
  } else {
    if (!m.payload.empty()) std::memcpy(hs.buffer.data(), m.payload.data(), m.payload.size());
    hs.status = nic_status::done;
  }
  touch(tile);
}

void network::deliver(std::size_t idx) {
  message m = std::move(in_flight_[idx]);
  free_flight_.push_back(idx);
  const std::uint32_t s = m.header.src;
  const std::uint32_t d = m.header.dst;
  if (m.send_handle != no_handle) {
    t_[s].handles[m.send_handle].status = nic_status::done;
    touch(s);
  }
  tile_state& dst = t_[d];
  touch(d);
  if (m.header.kind != msg_kind::data) {
    dst.control.push_back(m.header);
    return;
  }
  for (auto it = dst.posted.begin(); it != dst.posted.end(); ++it) {
    if (dst.handles[*it].src != s) continue;
    const nic_handle h = *it;
    dst.posted.erase(it);
    complete_recv(d, h, m);
    return;
  }
  if (m.header.proto == protocol::forced) {
    drops_.push_back(drop_record{m.header, now_});
    return;
  }
  dst.unexpected.push_back(std::move(m));
}

std::vector<msg_header> network::unreceived() const {
  std::vector<msg_header> out;
  for (const tile_state& ts : t_) {
    for (const message& m : ts.unexpected)
      out.push_back(m.header);
  }
  std::sort(out.begin(), out.end(), [](const msg_header& a, const msg_header& b) {
    return a.dst != b.dst ? a.dst < b.dst : a.src < b.src;
  });
  return out;
}

// ---- ab_nic ------------------------------------------------------------------------

nic_handle ab_nic::post_send(const msg_header& h, std::span<const std::byte> payload) {
  network& n = *net_;
  if (h.dst >= n.tiles_) return no_handle;
  const nic_handle hd = n.new_handle(tile_, network::hkind::send);
  network::message m;
  m.header = h;
  m.header.src = tile_;
  m.payload.assign(payload.begin(), payload.end());
  m.send_handle = hd;
  n.t_[tile_].out.push_back(std::move(m));
  return hd;
}

nic_handle ab_nic::post_recv(std::uint32_t src, std::span<std::byte> buffer) {
  network& n = *net_;
  if (src >= n.tiles_) return no_handle;
  const nic_handle hd = n.new_handle(tile_, network::hkind::recv);
  auto& ts = n.t_[tile_];
  ts.handles[hd].src = src;
  ts.handles[hd].buffer = buffer;
  for (auto it = ts.unexpected.begin(); it != ts.unexpected.end(); ++it) {
    if (it->header.src != src) continue;
    const network::message m = std::move(*it);
    ts.unexpected.erase(it);
    n.complete_recv(tile_, hd, m);
    return hd;
  }
  ts.posted.push_back(hd);
  return hd;
}

nic_handle ab_nic::post_delay(std::uint64_t cycles) {
  network& n = *net_;
  const nic_handle hd = n.new_handle(tile_, network::hkind::delay);
  n.events_.push(network::event{n.now_ + cycles, n.seq_++, tile_, hd, 0, true});
  return hd;
}

bool ab_nic::post_control(const msg_header& h) {
  network& n = *net_;
  if (h.dst >= n.tiles_) return false;
  network::message m;
  m.header = h;
  m.header.src = tile_;
  m.header.bytes = 0;
  n.t_[tile_].out.push_back(std::move(m));
  return true;
}

bool ab_nic::take_control(const msg_header& want, msg_header& out) {
  auto& q = net_->t_[tile_].control;
  for (auto it = q.begin(); it != q.end(); ++it) {
    if (it->kind != want.kind) continue;
    if (want.src != any_tile && it->src != want.src) continue;
    if (want.tag != any_tag && it->tag != want.tag) continue;
    out = *it;
    q.erase(it);
    return true;
  }
  return false;
}

nic_status ab_nic::test(nic_handle h) const {
  return net_->t_[tile_].handles[h].status;
}

const msg_header& ab_nic::header(nic_handle h) const {
  return net_->t_[tile_].handles[h].header;
}

void ab_nic::release(nic_handle h) {
  auto& ts = net_->t_[tile_];
  ts.handles[h].kind = network::hkind::free;
  ts.free_handles.push_back(h);
}

}  // namespace tessera::ab
