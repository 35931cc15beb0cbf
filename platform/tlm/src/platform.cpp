#include "tessera/tlm/platform.hpp"

#include <algorithm>
#include <string>

#include "tessera/common/errors.hpp"
#include "tessera/net/jitter_engine.hpp"
#include "tessera/runtime/routing.hpp"
#include "tessera/tlm/platform_run.hpp"

namespace tessera::tlm_models {

void set_fault_routes(harness::fault_injector& faults, const net::engine& engine,
                      const platform_options& o, const fabric& f) {
  if (const auto* torus = dynamic_cast<const net::torus_engine*>(&engine)) {
    faults.set_route([torus](std::uint32_t s, std::uint32_t d, std::vector<std::uint32_t>& out) {
      torus->route(s, d, out);
    });
    return;
  }
  if (o.sw == switching::wormhole && o.wormhole.routing == net::mesh_routing::yx) {
    faults.set_route([f](std::uint32_t s, std::uint32_t d, std::vector<std::uint32_t>& out) {
      for_each_hop(
          f, tile_id{s}, tile_id{d}, [&](link_id l) { out.push_back(l.value()); }, dim_order::yx);
    });
  }
}

namespace {

std::unique_ptr<net::engine> make_model(const fabric& f, const platform_options& o) {
  const models::engine_info& eng = models::engine(o.sw);
  if (!o.forwarding.empty() && eng.set_routes == nullptr)
    throw input_error("forwarding tables (--routes) apply to store-forward switching");
  if (o.model == nullptr) {
    std::unique_ptr<net::engine> e = eng.make(f, o);
    if (!o.forwarding.empty()) eng.set_routes(*e, o.forwarding);
    return e;
  }
  if (!o.forwarding.empty() && o.model->make_engine != nullptr)
    throw input_error("forwarding tables (--routes) are not supported by --model " +
                      std::string(o.model->name));
  std::unique_ptr<net::engine> e = models::make_engine(*o.model, o.sw, f, o);
  if (!o.forwarding.empty()) eng.set_routes(*e, o.forwarding);
  return e;
}

}  // namespace

std::unique_ptr<net::engine> make_engine(const fabric& f, const platform_options& o) {
  std::unique_ptr<net::engine> e = make_model(f, o);
  if (o.jitter == 0) return e;
  return std::make_unique<net::jitter_engine>(std::move(e), f.tiles(), o.jitter, o.jitter_seed,
                                              o.jitter_percent);
}

std::uint64_t one_hop_cycles(const platform_options& o, std::uint64_t bytes) {
  return models::engine(o.sw).zero_load(o, bytes, 1);
}

platform_outcome run_collective(const fw::collective_params& c, const platform_options& o) {
  std::unique_ptr<net::engine> engine = make_engine(c.f, o);  // validates the parameters
  harness::collective_harness<tlm_nic> h{c, harness_for(c.f, o, c.bytes)};
  return run_platform(h, c.f, *engine, o);
}

platform_outcome run_schedule(const fabric& f, const resolved_schedule& s,
                              const platform_options& o) {
  if (f.tiles() != s.sched.tiles) {
    throw input_error("the schedule is for " + std::to_string(s.sched.tiles) +
                      " tiles, the fabric has " + std::to_string(f.tiles()));
  }
  std::unique_ptr<net::engine> engine = make_engine(f, o);
  harness::schedule_harness<tlm_nic> h{s, harness_for(f, o, s.slot)};
  return run_platform(h, f, *engine, o);
}

}  // namespace tessera::tlm_models
