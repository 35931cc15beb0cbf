// A tile's NIC on the TLM platform: the tile_nic contract of runtime/nic.hpp for the
// tile's SC_THREAD, over an initiator socket (messages out, send completions back) and
// a target socket (messages in), following msg_link.hpp. Receive matching, FORCED
// drops and the control queue are the shared host endpoint (platform/harness); this
// class only adds the sockets, the payload pool and the sleep/wake of the tile.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include <tlm_utils/passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include "tessera/harness/endpoint.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/runtime/message.hpp"
#include "tessera/runtime/nic.hpp"
#include "tessera/tlm/msg_link.hpp"

namespace tessera::tlm_models {

class tlm_nic : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(tlm_nic);

  tlm_utils::simple_initiator_socket<tlm_nic> out;  // to the fabric
  // A passthrough socket: a simple_target_socket that has no b_transport spawns a thread
  // per socket to convert one, a stack per tile the NIC never uses.
  tlm_utils::passthrough_target_socket<tlm_nic> in;  // from the fabric

  tlm_nic(const sc_core::sc_module_name& name, std::uint32_t tile, std::uint32_t tiles);
  ~tlm_nic() override;

  // ---- tile_nic, called from the tile's thread ----
  nic_handle post_send(const msg_header& h, std::span<const std::byte> payload);
  nic_handle post_recv(std::uint32_t src, std::span<std::byte> buffer);
  nic_handle post_delay(std::uint64_t cycles);
  bool post_control(const msg_header& h);
  bool take_control(const msg_header& want, msg_header& out_header);
  [[nodiscard]] nic_status test(nic_handle h) const { return ep_.test(h); }
  [[nodiscard]] const msg_header& header(nic_handle h) const { return ep_.header(h); }
  void release(nic_handle h) { ep_.release(h); }
  void set_arrival_check(arrival_check fn, void* ctx) { ep_.set_arrival_check(fn, ctx); }
  // Sleeps until the NIC changes (arrival, completion, control message).
  void idle() { sc_core::wait(changed_); }

  // Synthetic traffic: a header-only data message of h.bytes wire bytes, fire and
  // forget, and a sink that takes every arrival instead of the endpoint.
  void post_packet(const msg_header& h) { send(h, {}, no_handle); }
  using sink_fn = void (*)(void* ctx, const msg_header& h, std::uint64_t now);
  void set_sink(sink_fn fn, void* ctx) {
    sink_ = fn;
    sink_ctx_ = ctx;
  }

  [[nodiscard]] const sc_core::sc_event& changed() const { return changed_; }
  // How many times the NIC has changed: a tile that saw every change up to a count it
  // kept has nothing new to look at (an ISS tile's wfi, docs/tiles.md).
  [[nodiscard]] std::uint64_t changes() const { return changes_; }
  [[nodiscard]] std::uint32_t tile() const { return tile_; }
  [[nodiscard]] const std::vector<harness::drop_record>& drops() const { return drops_; }
  [[nodiscard]] const harness::endpoint& endpoint() const { return ep_; }

 private:
  struct outgoing {
    tlm::tlm_generic_payload gp;
    msg_extension* ext{nullptr};  // owned by gp
    std::vector<std::byte> payload;
    nic_handle handle{no_handle};
  };

  void send(const msg_header& h, std::span<const std::byte> payload, nic_handle handle);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void on_delay();
  void wake() {
    ++changes_;
    changed_.notify(sc_core::SC_ZERO_TIME);
  }

  std::uint32_t tile_;
  std::uint32_t tiles_;
  harness::endpoint ep_;
  std::vector<std::unique_ptr<outgoing>> pool_;
  std::vector<outgoing*> spare_;
  std::uint64_t next_id_{0};
  std::multimap<std::uint64_t, std::uint64_t> delays_;  // due cycle -> delay token
  sc_core::sc_event delay_event_;
  sc_core::sc_event changed_;
  std::uint64_t changes_{0};
  std::vector<harness::drop_record> drops_;
  sink_fn sink_{nullptr};
  void* sink_ctx_{nullptr};
};

static_assert(tile_nic<tlm_nic>);

}  // namespace tessera::tlm_models
