// An in-memory network for tiles that share one address space: every message is
// delivered the moment it is posted. It is what a bare-metal self-test image runs
// many tiles over, and a reference NIC for host tests. Fixed capacity, no heap:
// Tiles tiles, Handles outstanding operations per tile, Messages buffered messages
// of at most MaxPayload bytes, Controls buffered control messages per tile.
//
// Delays complete at once (there is no clock), so a reliable sender's timer has
// always run out when it looks: it retransmits whenever the ack has not come back by
// its next poll. A fault can be armed: the n-th data message from one tile to
// another is dropped or has one byte flipped on its way (docs/faults.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "tessera/runtime/message.hpp"
#include "tessera/runtime/nic.hpp"

namespace tessera {

template <std::uint32_t Tiles, std::uint32_t Handles, std::uint32_t Messages,
          std::uint32_t MaxPayload, std::uint32_t Controls>
class memory_fabric {
 public:
  class port {
   public:
    port() = default;
    port(memory_fabric& f, std::uint32_t tile) : f_{&f}, me_{tile} {}

    nic_handle post_send(const msg_header& h, std::span<const std::byte> payload) {
      return f_->send(me_, h, payload);
    }
    nic_handle post_recv(std::uint32_t src, std::span<std::byte> buffer) {
      return f_->recv(me_, src, buffer);
    }
    nic_handle post_delay(std::uint64_t) { return f_->done_handle(me_); }
    bool post_control(const msg_header& h) { return f_->control(me_, h); }
    bool take_control(const msg_header& want, msg_header& out) { return f_->take(me_, want, out); }
    nic_status test(nic_handle h) const { return f_->tiles_[me_].handles[h].status; }
    const msg_header& header(nic_handle h) const { return f_->tiles_[me_].handles[h].header; }
    void release(nic_handle h) { f_->tiles_[me_].handles[h].used = false; }
    void idle() {}
    void set_arrival_check(arrival_check fn, void* ctx) {
      f_->tiles_[me_].check = fn;
      f_->tiles_[me_].check_ctx = ctx;
    }

   private:
    memory_fabric* f_{nullptr};
    std::uint32_t me_{0};
  };

  [[nodiscard]] port nic(std::uint32_t tile) { return port{*this, tile}; }

  // Forgets every message and handle (in place: the object may be large).
  void reset() {
    for (auto& t : tiles_) {
      for (auto& h : t.handles)
        h = handle_state{};
      t.controls = 0;
    }
    for (auto& m : msgs_)
      m.used = false;
    order_ = 0;
    dropped_ = 0;
    last_drop_ = msg_header{};
    fault_ = fault{};
  }

  enum class fault_kind : std::uint8_t { none, drop, corrupt };
  // Arms one fault: the n-th (from 1) data message from src to dst.
  void arm_fault(fault_kind k, std::uint32_t src, std::uint32_t dst, std::uint32_t n) {
    fault_ = fault{k, src, dst, n, 0, false};
  }
  [[nodiscard]] bool fault_acted() const { return fault_.acted; }
  [[nodiscard]] std::uint32_t dropped() const { return dropped_; }
  [[nodiscard]] const msg_header& last_drop() const { return last_drop_; }
  [[nodiscard]] std::uint32_t buffered() const {
    std::uint32_t n = 0;
    for (const auto& m : msgs_)
      n += m.used ? 1U : 0U;
    return n;
  }

 private:
  struct handle_state {
    bool used{false};
    bool posted{false};  // an unmatched receive
    nic_status status{nic_status::pending};
    std::uint32_t src{0};
    std::uint64_t order{0};
    std::span<std::byte> buffer{};
    msg_header header{};
  };
  struct tile_state {
    handle_state handles[Handles];
    msg_header control[Controls];
    std::uint32_t controls{0};
    arrival_check check{nullptr};
    void* check_ctx{nullptr};
  };
  struct fault {
    fault_kind kind{fault_kind::none};
    std::uint32_t src{0};
    std::uint32_t dst{0};
    std::uint32_t n{0};
    std::uint32_t seen{0};
    bool acted{false};
  };
  struct buffered_msg {
    bool used{false};
    std::uint64_t order{0};
    msg_header header{};
    std::uint32_t len{0};
    std::byte data[MaxPayload];
  };

  nic_handle new_handle(std::uint32_t t) {
    for (std::uint32_t h = 0; h < Handles; ++h) {
      if (!tiles_[t].handles[h].used) {
        tiles_[t].handles[h] = handle_state{};
        tiles_[t].handles[h].used = true;
        return h;
      }
    }
    return no_handle;
  }

  nic_handle done_handle(std::uint32_t t) {
    const nic_handle h = new_handle(t);
    if (h != no_handle) tiles_[t].handles[h].status = nic_status::done;
    return h;
  }

  static void land(handle_state& r, const msg_header& h, std::span<const std::byte> payload) {
    r.posted = false;
    r.header = h;
    if (payload.size() > r.buffer.size()) {
      r.status = nic_status::failed;
      return;
    }
    if (!payload.empty()) std::memcpy(r.buffer.data(), payload.data(), payload.size());
    r.status = nic_status::done;
  }

  nic_handle send(std::uint32_t me, const msg_header& hdr, std::span<const std::byte> payload) {
    if (hdr.dst >= Tiles) return no_handle;
    const nic_handle hd = done_handle(me);
    if (hd == no_handle) return no_handle;
    msg_header h = hdr;
    h.src = me;
    if (fault_.kind != fault_kind::none && h.kind == msg_kind::data && h.src == fault_.src &&
        h.dst == fault_.dst && ++fault_.seen == fault_.n) {
      fault_.acted = true;
      if (fault_.kind == fault_kind::drop) return hd;  // gone: the send itself completed
      if (!payload.empty() && payload.size() <= MaxPayload) {
        for (std::size_t i = 0; i < payload.size(); ++i)
          scratch_[i] = payload[i];
        scratch_[payload.size() / 2] = ~scratch_[payload.size() / 2];
        payload = std::span<const std::byte>(scratch_, payload.size());
      }
    }
    tile_state& to = tiles_[h.dst];
    if (to.check != nullptr && !to.check(to.check_ctx, h, payload)) return hd;
    // The earliest unmatched receive from me at the destination takes it.
    handle_state* best = nullptr;
    for (auto& r : tiles_[h.dst].handles) {
      if (r.used && r.posted && r.src == me && (best == nullptr || r.order < best->order))
        best = &r;
    }
    if (best != nullptr) {
      land(*best, h, payload);
      return hd;
    }
    if (h.proto == protocol::forced) {
      ++dropped_;
      last_drop_ = h;
      return hd;
    }
    for (auto& m : msgs_) {
      if (m.used) continue;
      if (payload.size() > MaxPayload) break;
      m.used = true;
      m.order = order_++;
      m.header = h;
      m.len = static_cast<std::uint32_t>(payload.size());
      if (!payload.empty()) std::memcpy(m.data, payload.data(), payload.size());
      return hd;
    }
    tiles_[me].handles[hd].status = nic_status::failed;  // no buffer: the message is lost
    return hd;
  }

  nic_handle recv(std::uint32_t me, std::uint32_t src, std::span<std::byte> buffer) {
    if (src >= Tiles) return no_handle;
    const nic_handle hd = new_handle(me);
    if (hd == no_handle) return no_handle;
    handle_state& r = tiles_[me].handles[hd];
    r.src = src;
    r.buffer = buffer;
    r.order = order_++;
    buffered_msg* best = nullptr;
    for (auto& m : msgs_) {
      if (m.used && m.header.dst == me && m.header.src == src &&
          (best == nullptr || m.order < best->order))
        best = &m;
    }
    if (best != nullptr) {
      land(r, best->header, std::span<const std::byte>(best->data, best->len));
      best->used = false;
      return hd;
    }
    r.posted = true;
    return hd;
  }

  bool control(std::uint32_t me, const msg_header& hdr) {
    if (hdr.dst >= Tiles) return false;
    tile_state& d = tiles_[hdr.dst];
    if (d.controls == Controls) return false;
    d.control[d.controls] = hdr;
    d.control[d.controls].src = me;
    ++d.controls;
    return true;
  }

  bool take(std::uint32_t me, const msg_header& want, msg_header& out) {
    tile_state& t = tiles_[me];
    for (std::uint32_t i = 0; i < t.controls; ++i) {
      const msg_header& c = t.control[i];
      if (c.kind != want.kind) continue;
      if (want.src != any_tile && c.src != want.src) continue;
      if (want.tag != any_tag && c.tag != want.tag) continue;
      out = c;
      for (std::uint32_t j = i + 1; j < t.controls; ++j)
        t.control[j - 1] = t.control[j];
      --t.controls;
      return true;
    }
    return false;
  }

  tile_state tiles_[Tiles]{};
  buffered_msg msgs_[Messages]{};
  fault fault_{};
  std::byte scratch_[MaxPayload]{};
  std::uint64_t order_{0};
  std::uint32_t dropped_{0};
  msg_header last_drop_{};
};

}  // namespace tessera
