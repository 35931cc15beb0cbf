#include "tessera/tlm/tile_nic.hpp"

#include <cstring>

namespace tessera::tlm_models {

tlm_nic::tlm_nic(const sc_core::sc_module_name& name, std::uint32_t tile, std::uint32_t tiles)
    : sc_core::sc_module(name), out("out"), in("in"), tile_{tile}, tiles_{tiles}, ep_{tile} {
  out.register_nb_transport_bw(this, &tlm_nic::nb_transport_bw);
  in.register_nb_transport_fw(this, &tlm_nic::nb_transport_fw);
  SC_METHOD(on_delay);
  sensitive << delay_event_;
  dont_initialize();
}

tlm_nic::~tlm_nic() = default;

void tlm_nic::send(const msg_header& h, std::span<const std::byte> payload, nic_handle handle) {
  outgoing* o;
  if (!spare_.empty()) {
    o = spare_.back();
    spare_.pop_back();
  } else {
    pool_.push_back(std::make_unique<outgoing>());
    o = pool_.back().get();
    o->ext = new msg_extension;
    o->ext->slot = static_cast<std::uint32_t>(pool_.size() - 1);
    o->gp.set_extension(o->ext);
  }
  o->payload.assign(payload.begin(), payload.end());
  o->handle = handle;
  o->ext->header = h;
  o->ext->header.src = tile_;
  o->ext->id = (std::uint64_t{tile_} << 40) | next_id_++;
  tlm::tlm_generic_payload& gp = o->gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(h.dst);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(o->payload.data()));
  gp.set_data_length(static_cast<unsigned int>(o->payload.size()));
  gp.set_streaming_width(static_cast<unsigned int>(o->payload.size()));
  gp.set_byte_enable_ptr(nullptr);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(gp, phase, delay);
}

nic_handle tlm_nic::post_send(const msg_header& h, std::span<const std::byte> payload) {
  if (h.dst >= tiles_) return no_handle;
  const nic_handle hd = ep_.new_send();
  send(h, payload, hd);
  return hd;
}

nic_handle tlm_nic::post_recv(std::uint32_t src, std::span<std::byte> buffer) {
  if (src >= tiles_) return no_handle;
  return ep_.post_recv(src, buffer);
}

nic_handle tlm_nic::post_delay(std::uint64_t n) {
  const nic_handle hd = ep_.new_delay();
  const std::uint64_t due = now_cycles() + n;
  delays_.emplace(due, ep_.delay_token(hd));
  delay_event_.notify(cycles(due - now_cycles()));
  return hd;
}

void tlm_nic::on_delay() {
  const std::uint64_t now = now_cycles();
  while (!delays_.empty() && delays_.begin()->first <= now) {
    ep_.complete_delay(delays_.begin()->second);
    delays_.erase(delays_.begin());
    wake();
  }
  if (!delays_.empty()) delay_event_.notify(cycles(delays_.begin()->first - now));
}

bool tlm_nic::post_control(const msg_header& h) {
  if (h.dst >= tiles_) return false;
  msg_header c = h;
  c.bytes = 0;
  send(c, {}, no_handle);
  return true;
}

bool tlm_nic::take_control(const msg_header& want, msg_header& out_header) {
  return ep_.take_control(want, out_header);
}

tlm::tlm_sync_enum tlm_nic::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                            sc_core::sc_time& delay) {
  (void)delay;
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;  // END_REQ needs nothing
  msg_extension* ext = nullptr;
  gp.get_extension(ext);
  outgoing& o = *pool_[ext->slot];
  if (o.handle != no_handle) ep_.complete(o.handle);
  o.handle = no_handle;
  spare_.push_back(&o);
  wake();
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum tlm_nic::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                            sc_core::sc_time& delay) {
  (void)delay;
  msg_extension* ext = nullptr;
  gp.get_extension(ext);
  if (sink_ != nullptr) {
    sink_(sink_ctx_, ext->header, now_cycles());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    phase = tlm::END_REQ;
    return tlm::TLM_COMPLETED;
  }
  harness::message m;
  m.header = ext->header;
  const std::byte* data = reinterpret_cast<const std::byte*>(gp.get_data_ptr());
  m.payload.assign(data, data + gp.get_data_length());
  const msg_header h = m.header;
  if (ep_.arrive(std::move(m)) == harness::arrival::dropped)
    drops_.push_back(harness::drop_record{h, now_cycles()});
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  wake();
  phase = tlm::END_REQ;
  return tlm::TLM_COMPLETED;
}

}  // namespace tessera::tlm_models
