#include "tessera/harness/endpoint.hpp"

#include <cstring>

namespace tessera::harness {

nic_handle endpoint::make(kind k) {
  nic_handle h;
  if (!free_.empty()) {
    h = free_.back();
    free_.pop_back();
  } else {
    h = static_cast<nic_handle>(handles_.size());
    handles_.emplace_back();
  }
  const std::uint32_t gen = handles_[h].gen + 1;
  handles_[h] = handle_state{};
  handles_[h].k = k;
  handles_[h].gen = gen;
  return h;
}

nic_handle endpoint::new_send() {
  return make(kind::send);
}
nic_handle endpoint::new_delay() {
  return make(kind::delay);
}

void endpoint::complete_delay(std::uint64_t token) {
  const auto h = static_cast<nic_handle>(token & 0xffffffffU);
  const auto gen = static_cast<std::uint32_t>(token >> 32);
  if (h < handles_.size() && handles_[h].k == kind::delay && handles_[h].gen == gen)
    handles_[h].status = nic_status::done;
}

void endpoint::release(nic_handle h) {
  handles_[h].k = kind::free;
  free_.push_back(h);
}

void endpoint::land(nic_handle h, const message& m) {
  handle_state& hs = handles_[h];
  hs.header = m.header;
  if (m.payload.size() > hs.buffer.size()) {
    hs.status = nic_status::failed;
    return;
  }
  if (!m.payload.empty()) std::memcpy(hs.buffer.data(), m.payload.data(), m.payload.size());
  hs.status = nic_status::done;
}

nic_handle endpoint::post_recv(std::uint32_t src, std::span<std::byte> buffer) {
  const nic_handle h = make(kind::recv);
  handles_[h].src = src;
  handles_[h].buffer = buffer;
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it) {
    if (it->header.src != src) continue;
    const message m = std::move(*it);
    unexpected_.erase(it);
    land(h, m);
    return h;
  }
  posted_.push_back(h);
  return h;
}

bool endpoint::take_control(const msg_header& want, msg_header& out) {
  for (auto it = control_.begin(); it != control_.end(); ++it) {
    if (it->kind != want.kind) continue;
    if (want.src != any_tile && it->src != want.src) continue;
    if (want.tag != any_tag && it->tag != want.tag) continue;
    out = *it;
    control_.erase(it);
    return true;
  }
  return false;
}

arrival endpoint::arrive(message&& m) {
  if (m.header.kind != msg_kind::data) {
    control_.push_back(m.header);
    return arrival::control;
  }
  if (check_ != nullptr && !check_(check_ctx_, m.header, m.payload)) return arrival::rejected;
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    if (handles_[*it].src != m.header.src) continue;
    const nic_handle h = *it;
    posted_.erase(it);
    land(h, m);
    return arrival::received;
  }
  if (m.header.proto == protocol::forced) return arrival::dropped;  // Bokhari §2.1
  unexpected_.push_back(std::move(m));
  return arrival::buffered;
}

}  // namespace tessera::harness
