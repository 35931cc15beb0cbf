#include "smoke_link.hpp"

#include <utility>

namespace tessera::tlm_models {

smoke_target::smoke_target(sc_core::sc_module_name name, sc_core::sc_time latency)
    : sc_core::sc_module(name), socket("socket"), latency_(latency) {
  socket.register_b_transport(this, &smoke_target::b_transport);
}

void smoke_target::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  // Rejected calls still cost the latency: the target has to decode them too.
  delay += latency_;
  if (trans.get_command() != tlm::TLM_WRITE_COMMAND) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (trans.get_streaming_width() < trans.get_data_length()) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const unsigned char* first = trans.get_data_ptr();
  writes_.push_back(
      {trans.get_address(), std::vector<unsigned char>(first, first + trans.get_data_length())});
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

smoke_initiator::smoke_initiator(sc_core::sc_module_name name, sc_core::sc_time issue_delay,
                                 std::vector<smoke_transfer> transfers)
    : sc_core::sc_module(name),
      socket("socket"),
      issue_delay_(issue_delay),
      transfers_(std::move(transfers)) {
  SC_HAS_PROCESS(smoke_initiator);
  SC_THREAD(run);
}

void smoke_initiator::run() {
  for (smoke_transfer& transfer : transfers_) {
    const auto length = static_cast<unsigned int>(transfer.data.size());
    tlm::tlm_generic_payload trans;
    trans.set_command(transfer.command);
    trans.set_address(transfer.address);
    trans.set_data_ptr(transfer.data.data());
    trans.set_data_length(length);
    trans.set_streaming_width(length);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);

    sc_core::sc_time delay = issue_delay_;
    socket->b_transport(trans, delay);
    // Synchronise after every call so each completion time is exact, not just the last.
    wait(delay);
    completions_.push_back({trans.get_response_status(), sc_core::sc_time_stamp()});
  }
}

smoke_link::smoke_link(sc_core::sc_module_name name, sc_core::sc_time issue_delay,
                       sc_core::sc_time target_latency, std::vector<smoke_transfer> transfers)
    : sc_core::sc_module(name),
      initiator("initiator", issue_delay, std::move(transfers)),
      target("target", target_latency) {
  initiator.socket.bind(target.socket);
}

}  // namespace tessera::tlm_models
