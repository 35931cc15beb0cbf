#include "tessera/alphabeta/network.hpp"

#include <algorithm>

namespace tessera::ab {

network::network(std::uint32_t tiles, params prm)
    : tiles_{tiles}, prm_{prm}, touched_(tiles, false) {
  t_.reserve(tiles);
  for (std::uint32_t t = 0; t < tiles; ++t)
    t_.emplace_back(t);
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
      harness::message m = std::move(src.out.front());
      src.out.pop_front();
      m.id = next_id_++;
      m.admitted = now_;
      if (faults_ != nullptr && !faults_->admit(m.header, m.id, now_)) {
        // Undeliverable: it leaves the NIC and goes nowhere.
        if (m.send_handle != no_handle) {
          src.ep.complete(m.send_handle);
          touch(s);
        }
        continue;
      }
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
      events_.push(event{end, seq_++, d, 0, idx, event_kind::transfer});
    }
  }
}

void network::wake_at(std::uint32_t t, std::uint64_t time) {
  events_.push(event{time, seq_++, t, 0, 0, event_kind::wake});
}

network::step network::advance(std::uint64_t limit) {
  start_transfers();
  if (events_.empty()) return step::idle;
  if (events_.top().time > limit) return step::past_limit;
  now_ = events_.top().time;
  while (!events_.empty() && events_.top().time == now_) {
    const event e = events_.top();
    events_.pop();
    switch (e.kind) {
      case event_kind::delay:
        t_[e.tile].ep.complete_delay(e.token);
        touch(e.tile);
        break;
      case event_kind::wake:
        touch(e.tile);
        break;
      case event_kind::transfer:
        deliver(e.message);
        break;
    }
  }
  return step::advanced;
}

void network::deliver(std::size_t idx) {
  harness::message m = std::move(in_flight_[idx]);
  free_flight_.push_back(idx);
  const std::uint32_t s = m.header.src;
  const std::uint32_t d = m.header.dst;
  if (m.send_handle != no_handle) {
    t_[s].ep.complete(m.send_handle);
    touch(s);
  }
  touch(d);
  const msg_header h = m.header;
  if (faults_ != nullptr && !faults_->deliver(h, m.id, m.payload, m.admitted, now_)) return;
  if (t_[d].ep.arrive(std::move(m)) == harness::arrival::dropped)
    drops_.push_back(drop_record{h, now_});
}

std::vector<msg_header> network::unreceived() const {
  std::vector<msg_header> out;
  for (const tile_state& ts : t_) {
    for (const harness::message& m : ts.ep.unreceived())
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
  harness::message m;
  m.header = h;
  m.header.src = tile_;
  m.payload.assign(payload.begin(), payload.end());
  m.send_handle = n.t_[tile_].ep.new_send();
  const nic_handle hd = m.send_handle;
  n.t_[tile_].out.push_back(std::move(m));
  return hd;
}

nic_handle ab_nic::post_recv(std::uint32_t src, std::span<std::byte> buffer) {
  if (src >= net_->tiles_) return no_handle;
  return net_->t_[tile_].ep.post_recv(src, buffer);
}

nic_handle ab_nic::post_delay(std::uint64_t cycles) {
  network& n = *net_;
  const nic_handle hd = n.t_[tile_].ep.new_delay();
  n.events_.push(network::event{n.now_ + cycles, n.seq_++, tile_, n.t_[tile_].ep.delay_token(hd), 0,
                                network::event_kind::delay});
  return hd;
}

bool ab_nic::post_control(const msg_header& h) {
  network& n = *net_;
  if (h.dst >= n.tiles_) return false;
  harness::message m;
  m.header = h;
  m.header.src = tile_;
  m.header.bytes = 0;
  n.t_[tile_].out.push_back(std::move(m));
  return true;
}

bool ab_nic::take_control(const msg_header& want, msg_header& out) {
  return net_->t_[tile_].ep.take_control(want, out);
}

nic_status ab_nic::test(nic_handle h) const {
  return net_->t_[tile_].ep.test(h);
}

const msg_header& ab_nic::header(nic_handle h) const {
  return net_->t_[tile_].ep.header(h);
}

void ab_nic::release(nic_handle h) {
  net_->t_[tile_].ep.release(h);
}

void ab_nic::set_arrival_check(arrival_check fn, void* ctx) {
  net_->t_[tile_].ep.set_arrival_check(fn, ctx);
}

}  // namespace tessera::ab
