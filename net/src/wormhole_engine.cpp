// The wormhole mesh engine. docs/wormhole.md states the router model, derives the
// closed form used here and argues the scheduling invariants; the comments below point
// at its sections rather than repeat them.
//
// A packet is a "worm". Its path is channels 0..h+1: the injection channel, the h XY
// links, the ejection channel. Channel k ends in a B-flit input buffer ("buffer k") for
// k <= h. The engine decides only header crossings t0[k] (by events and arbitration);
// every other flit time is a query, flit_time(), answered by the closed form from t0[]
// and, for the first flits behind another packet in a buffer, that packet's own times.
// A query can be unknown (a header it needs has not moved yet); the caller then waits
// on the worm that is missing and is retried when that worm makes progress.
//
// With inject_gap g > 1 the injection row of the max-plus graph weighs g per flit, so
// flit times go through the paced injection row T0(f) (docs/wormhole.md, "Paced
// injection"). With vcs V > 1 each channel has V VCs, each with its own buffer chain, and
// each VC carries at most one flit every V cycles on a link or the ejection (a fixed
// share of the physical channel), so those rows weigh s = V per flit (docs/wormhole.md,
// "Virtual channels"). Plain and general queries are separate functions so that the
// plain model stays as cheap as it was.
#include "tessera/net/wormhole_engine.hpp"

#include "tessera/common/errors.hpp"
#include "tessera/net/flit_engine.hpp"
#include "wormhole/arbitration.hpp"
#include "wormhole/half_duplex.hpp"
#include "wormhole/impl.hpp"
#include "wormhole/nic.hpp"
#include "wormhole/progress.hpp"
#include "wormhole/queries.hpp"

namespace tessera::net {

std::uint64_t packet_flits(std::uint64_t payload, std::uint32_t width) {
  const std::uint64_t n = payload / width + (payload % width != 0 ? 1 : 0);
  return std::max<std::uint64_t>(1, n);
}

void wormhole_engine::impl::fire(cycle_t now) {
  now_ = now;
  if (pool.size() >= collect_at) collect();
  event e;
  while (events.pop_due(now, e)) {
    switch (e.kind) {
      case ev_kind::free:
        ch[e.id].free_mask |= std::uint32_t{1} << e.vc;
        if (ch[e.id].nreq > 0) touch(e.id);
        break;
      case ev_kind::touch:
        ch[e.id].retouch = false;
        if (ch[e.id].nreq > 0) touch(e.id);
        break;
      case ev_kind::ready:
        request(*e.w, now);
        break;
      case ev_kind::nic:
        start_next(e.id, now);
        break;
      case ev_kind::deliver: {
        message& m = msgs[e.id];
        const std::uint64_t id = m.x.id;
        if (m.receiving && !m.copied) receive_done(m.x.dst, e.id, now);
        if (m.copy != 0 && !m.copied) {
          m.copied = true;  // the NIC is done; the copy out of the system buffer follows
          events.push(now + m.copy, {ev_kind::deliver, 0, e.id, nullptr});
          break;
        }
        m.live = false;
        m.current = nullptr;
        free_msgs.push_back(e.id);
        --live_msgs;
        if (owner.listener_ != nullptr) owner.listener_->delivered(id, now);
        break;
      }
    }
    drain_retry();
  }
}

wormhole_engine::wormhole_engine(const fabric& f, const wormhole_params& p) {
  wormhole_detail::check_setup(f, p);
  if (f.kind != fabric_kind::mesh) {
    throw input_error(
        "wormhole: the closed form models meshes only; make_wormhole_engine "
        "gives the flit engine for " +
        wormhole_detail::fabric_spec(f));
  }
  if (p.vcs > 1 && p.share != vc_share::fixed) {
    throw input_error("wormhole: the closed form shares " + std::to_string(p.vcs) +
                      " VCs in fixed shares only (vc_share=fixed); make_wormhole_engine "
                      "gives the flit engine for round robin");
  }
  if (p.pipeline != 1) {
    throw input_error(
        "wormhole: the closed form's router takes one cycle a flit (pipeline "
        "1); make_wormhole_engine gives the flit engine for deeper pipelines");
  }
  if (p.routing != mesh_routing::xy && p.routing != mesh_routing::yx) {
    throw input_error(
        "wormhole: the closed form routes in dimension order only (xy, yx); "
        "make_wormhole_engine gives the flit engine for the other routings");
  }
  impl_ = std::make_unique<impl>(*this, f, p);
}

std::unique_ptr<engine> make_wormhole_engine(const fabric& f, const wormhole_params& p) {
  const bool dimension_order = p.routing == mesh_routing::xy || p.routing == mesh_routing::yx;
  if (p.engine == wormhole_model::automatic && f.kind == fabric_kind::mesh && dimension_order &&
      p.pipeline == 1 && (p.vcs == 1 || p.share == vc_share::fixed))
    return std::make_unique<wormhole_engine>(f, p);
  return std::make_unique<flit_engine>(f, p);
}

wormhole_engine::~wormhole_engine() = default;

void wormhole_engine::inject(const xfer& x, cycle_t now) {
  impl_->inject(x, now);
}
void wormhole_engine::arbitrate(cycle_t now) {
  impl_->arbitrate(now);
}
cycle_t wormhole_engine::next_event() const {
  return impl_->events.next();
}
void wormhole_engine::fire(cycle_t now) {
  impl_->fire(now);
}
bool wormhole_engine::idle() const {
  return impl_->live_msgs == 0 && impl_->events.empty() && impl_->active.empty();
}
std::vector<link_stat> wormhole_engine::links() const {
  return impl_->links();
}

energy_counts wormhole_engine::energy() const {
  return channel_energy(energy_rule::wormhole, impl_->tiles, impl_->p.width, impl_->links());
}
contention_stat wormhole_engine::contention() const {
  return impl_->cont;
}
std::vector<std::string> wormhole_engine::stuck() const {
  return impl_->stuck();
}
const wormhole_params& wormhole_engine::params() const {
  return impl_->p;
}

}  // namespace tessera::net
