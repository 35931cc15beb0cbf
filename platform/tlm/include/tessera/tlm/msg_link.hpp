// The message link between a tile's NIC and the fabric, on TLM-2.0 sockets.
//
// A message is one tlm_generic_payload: a write whose data pointer is the payload
// (directory + blocks, as the runtime packed it) and whose msg_extension carries the
// runtime header. The base protocol's phases are used as follows:
//   NIC -> fabric   nb_transport_fw BEGIN_REQ   the tile posted the message; the
//                                               fabric answers TLM_UPDATED/END_REQ
//                                               (queued at the source).
//   fabric -> NIC   nb_transport_fw BEGIN_REQ   on the destination's socket: the tail
//                                               arrived; the NIC copies the message
//                                               and answers TLM_COMPLETED.
//   fabric -> NIC   nb_transport_bw BEGIN_RESP  on the source's socket: delivered, the
//                                               send is complete; answered
//                                               TLM_COMPLETED. The source NIC owns the
//                                               payload and recycles it then.
// All calls carry zero annotated delay: the fabric calls at the simulated time of
// the event, so there is nothing to annotate.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

#include "tessera/runtime/message.hpp"

namespace tessera::tlm_models {

struct msg_extension : tlm::tlm_extension<msg_extension> {
  msg_header header{};
  std::uint64_t id{0};    // unique per run: source tile in the high bits, a count below
  std::uint32_t slot{0};  // the source NIC's own index for the payload

  [[nodiscard]] tlm::tlm_extension_base* clone() const override { return new msg_extension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const msg_extension&>(other);
  }
};

// One fabric cycle in SystemC time. The fabric and the NICs count in cycles; a
// machine preset turns cycles into microseconds in the report.
inline const sc_core::sc_time& cycle_time() {
  static const sc_core::sc_time t{1, sc_core::SC_NS};
  return t;
}

inline std::uint64_t now_cycles() {
  return sc_core::sc_time_stamp().value() / cycle_time().value();
}

inline sc_core::sc_time cycles(std::uint64_t n) {
  return sc_core::sc_time::from_value(n * cycle_time().value());
}

}  // namespace tessera::tlm_models
