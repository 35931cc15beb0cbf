// The fabric on the TLM platform: NICs bind to its multi-sockets in tile order, and
// it drives a timing engine (net) with the protocol of engine.hpp. One
// SC_METHOD steps the engine: it waits until the current time is quiet (no process
// runnable, no delta notification pending: every tile has reacted to the last
// deliveries and posted what it will post), then fires the engine's events, lets
// the tiles react, and arbitrates. So ties are settled by the engine's rules and
// never by SystemC's process order. The method sleeps until the engine's next event
// or the next posted message.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

#include "tessera/harness/faults.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/tlm/msg_link.hpp"

namespace tessera::tlm_models {

class fabric_module : public sc_core::sc_module, private net::listener {
 public:
  SC_HAS_PROCESS(fabric_module);

  tlm_utils::multi_passthrough_target_socket<fabric_module> in;      // from each NIC
  tlm_utils::multi_passthrough_initiator_socket<fabric_module> out;  // to each NIC

  // wire_scale: each data byte is charged as this many on the fabric (platform.hpp).
  fabric_module(const sc_core::sc_module_name& name, net::engine& engine,
                std::uint64_t wire_scale = 1);

  // Every message that reached its destination, in delivery order, with the bytes
  // the fabric charged; empty after keep_log(false).
  [[nodiscard]] const std::vector<harness::transfer_record>& transfers() const { return log_; }
  // Off: keep no record per delivered message, so memory does not grow with the run
  // (synthetic traffic streams its own statistics). Set before the run starts.
  void keep_log(bool on) { keep_log_ = on; }
  [[nodiscard]] std::uint64_t in_flight() const { return pending_.size(); }
  [[nodiscard]] std::uint64_t last_activity() const { return last_; }

  // Faults to apply as messages enter and arrive (docs/faults.md); nullptr: none. An
  // undeliverable message never reaches the engine; its send completes (it left the
  // NIC). A lost one crosses the fabric and is not handed to its destination.
  void set_faults(harness::fault_injector* f) { faults_ = f; }

  // Why the engine refused a message (it throws input_error from inject; the run stops
  // there), or empty. The caller turns it back into an input_error after the run.
  [[nodiscard]] const std::string& refused() const { return refused_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void step();
  void started(std::uint64_t id, net::cycle_t t) override;
  void delivered(std::uint64_t id, net::cycle_t t) override;

  struct pending {
    tlm::tlm_generic_payload* gp{nullptr};
    std::uint64_t start{0};
    std::uint64_t admitted{0};
  };
  void complete_send(tlm::tlm_generic_payload& gp);

  net::engine& engine_;
  std::uint64_t wire_scale_;
  std::unordered_map<std::uint64_t, pending> pending_;
  std::vector<harness::transfer_record> log_;
  bool keep_log_{true};
  sc_core::sc_event wake_;
  harness::fault_injector* faults_{nullptr};
  std::vector<tlm::tlm_generic_payload*> undeliverable_;  // completed at the next step
  bool dirty_{false};
  std::uint64_t last_{0};
  std::string refused_;
};

}  // namespace tessera::tlm_models
