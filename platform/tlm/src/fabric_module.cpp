#include "tessera/tlm/fabric_module.hpp"

#include <span>

#include "tessera/common/errors.hpp"
#include "tessera/tlm/sim_control.hpp"

namespace tessera::tlm_models {

fabric_module::fabric_module(const sc_core::sc_module_name& name, net::engine& engine,
                             std::uint64_t wire_scale)
    : sc_core::sc_module(name), in("in"), out("out"), engine_{engine}, wire_scale_{wire_scale} {
  in.register_nb_transport_fw(this, &fabric_module::nb_transport_fw);
  out.register_nb_transport_bw(this, &fabric_module::nb_transport_bw);
  engine_.set_listener(this);
  SC_METHOD(step);
  sensitive << wake_;
  dont_initialize();
}

tlm::tlm_sync_enum fabric_module::nb_transport_fw(int port, tlm::tlm_generic_payload& gp,
                                                  tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  (void)port;
  (void)delay;
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  msg_extension* ext = nullptr;
  gp.get_extension(ext);
  const msg_header& h = ext->header;
  net::xfer x;
  x.id = ext->id;
  x.src = h.src;
  x.dst = h.dst;
  x.control = h.kind != msg_kind::data;
  x.program = h.kind == msg_kind::pair;
  x.bytes = x.control ? 0 : h.bytes * wire_scale_;
  const std::uint64_t now = now_cycles();
  if (faults_ != nullptr && !faults_->admit(h, x.id, now)) {
    undeliverable_.push_back(&gp);
    wake_.notify(sc_core::SC_ZERO_TIME);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  pending_[x.id] = pending{&gp, 0, now};
  try {
    engine_.inject(x, now);
  } catch (const input_error& e) {
    // A message the model cannot carry (the RTL bridge: longer than its NI takes) is bad
    // input, not a fault of the run: stop, and let the caller report it (exit 2).
    pending_.erase(x.id);
    if (refused_.empty()) refused_ = e.what();
    stop_once();
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  dirty_ = true;
  wake_.notify(sc_core::SC_ZERO_TIME);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

tlm::tlm_sync_enum fabric_module::nb_transport_bw(int port, tlm::tlm_generic_payload& gp,
                                                  tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  (void)port;
  (void)gp;
  (void)phase;
  (void)delay;
  return tlm::TLM_COMPLETED;  // NICs complete deliveries at once
}

void fabric_module::started(std::uint64_t id, net::cycle_t t) {
  pending_.at(id).start = t;
}

void fabric_module::complete_send(tlm::tlm_generic_payload& gp) {
  msg_extension* ext = nullptr;
  gp.get_extension(ext);
  sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  in[static_cast<int>(ext->header.src)]->nb_transport_bw(gp, phase, zero);
}

void fabric_module::delivered(std::uint64_t id, net::cycle_t t) {
  const auto it = pending_.find(id);
  tlm::tlm_generic_payload& gp = *it->second.gp;
  msg_extension* ext = nullptr;
  gp.get_extension(ext);
  const msg_header h = ext->header;
  msg_header charged = h;
  if (h.kind == msg_kind::data) charged.bytes = h.bytes * wire_scale_;
  if (keep_log_) log_.push_back(harness::transfer_record{charged, it->second.start, t});
  const std::uint64_t admitted = it->second.admitted;
  pending_.erase(it);
  last_ = t;
  const std::span<std::byte> payload{reinterpret_cast<std::byte*>(gp.get_data_ptr()),
                                     gp.get_data_length()};
  if (faults_ == nullptr || faults_->deliver(h, id, payload, admitted, t)) {
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    out[static_cast<int>(h.dst)]->nb_transport_fw(gp, phase, zero);
  }
  complete_send(gp);
}

void fabric_module::step() {
  if (!undeliverable_.empty()) {
    std::vector<tlm::tlm_generic_payload*> done;
    done.swap(undeliverable_);
    for (tlm::tlm_generic_payload* gp : done)
      complete_send(*gp);
  }
  // Let every tile finish reacting at this time before the engine decides anything.
  if (sc_core::sc_pending_activity_at_current_time()) {
    next_trigger(sc_core::SC_ZERO_TIME);
    return;
  }
  const std::uint64_t now = now_cycles();
  if (engine_.next_event() == now) {
    engine_.fire(now);
    dirty_ = true;
    next_trigger(sc_core::SC_ZERO_TIME);
    return;
  }
  if (dirty_) {
    dirty_ = false;
    engine_.arbitrate(now);
    next_trigger(sc_core::SC_ZERO_TIME);
    return;
  }
  const net::cycle_t next = engine_.next_event();
  if (next == net::never) {
    next_trigger(wake_);
  } else {
    next_trigger(cycles(next - now), wake_);
  }
}

}  // namespace tessera::tlm_models
