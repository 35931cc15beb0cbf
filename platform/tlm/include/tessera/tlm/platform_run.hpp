// How a platform run is elaborated and run, for every kind of tile: the NICs and the
// fabric around a harness, one SystemC module per tile, SystemC run to the end, and the
// outcome from the harness, the NICs and the engine. The native tiles (tile_module:
// the runtime compiled for the host in an SC_THREAD) are the default; the ISS tiles
// (platform/iss, docs/tiles.md) bring a tile module of their own.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/runtime/routing.hpp"
#include "tessera/tlm/fabric_module.hpp"
#include "tessera/tlm/platform.hpp"
#include "tessera/tlm/sim_control.hpp"
#include "tessera/tlm/tile_nic.hpp"

namespace tessera::tlm_models {

template <typename Harness>
class tile_module : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(tile_module);

  tile_module(const sc_core::sc_module_name& name, std::uint32_t t, Harness& h, tlm_nic& n)
      : sc_core::sc_module(name), t_{t}, h_{&h}, nic_{&n} {
    SC_THREAD(run);
  }

 private:
  void run() {
    while (true) {
      const std::uint64_t now = now_cycles();
      if (const std::uint64_t at = h_->resume_at(t_, now); at > now) {
        sc_core::wait(cycles(at - now));  // stalled (a fault): the NIC runs on
        continue;
      }
      const tile_state s = h_->poll(t_, now);
      if (s == tile_state::failed) {
        stop_once();
        return;
      }
      // Under the reliable protocol a finished tile still acknowledges retransmissions.
      if (s == tile_state::done && h_->proto() != protocol::reliable) return;
      sc_core::wait(nic_->changed());
    }
  }

  std::uint32_t t_;
  Harness* h_;
  tlm_nic* nic_;
};

// The native tiles' module for a harness.
template <typename Harness>
struct native_tiles {
  std::unique_ptr<sc_core::sc_module> operator()(const std::string& name, std::uint32_t t,
                                                 Harness& h, tlm_nic& n) const {
    return std::make_unique<tile_module<Harness>>(name.c_str(), t, h, n);
  }
};

// Elaborates the tiles (one module each, from make_tile), NICs and fabric around a harness
// and runs to the end.
template <typename Harness, typename MakeTile = native_tiles<Harness>>
platform_outcome run_platform(Harness& h, const fabric& f, net::engine& engine,
                              const platform_options& o, MakeTile make_tile = {}) {
  const std::uint32_t p = h.tiles();
  check_thread_count(p, "tiles");
  route_systemc_reports();
  engine.record_links(o.trace_ops);
  fabric_module fab{"fabric", engine, o.wire_scale};
  harness::fault_injector faults{f, o.faults};
  if (!faults.empty()) {
    set_fault_routes(faults, engine, o, f);
    fab.set_faults(&faults);
    h.set_faults(&faults);
  }
  std::vector<std::unique_ptr<tlm_nic>> nics;
  std::vector<std::unique_ptr<sc_core::sc_module>> tiles;
  nics.reserve(p);
  tiles.reserve(p);
  for (std::uint32_t t = 0; t < p; ++t) {
    nics.push_back(std::make_unique<tlm_nic>(("nic_" + std::to_string(t)).c_str(), t, p));
    nics.back()->out.bind(fab.in);
    fab.out.bind(nics.back()->in);
    h.attach(t, *nics.back());
  }
  for (std::uint32_t t = 0; t < p; ++t) {
    tiles.push_back(make_tile("tile_" + std::to_string(t), t, h, *nics[t]));
  }
  const sim_end end = run_simulation(o.max_cycles);
  if (!fab.refused().empty()) throw input_error(fab.refused());
  if (end.how == run_end::cycle_limit) h.stopped_by_limit(end.cycle);

  std::vector<harness::drop_record> drops;
  std::vector<msg_header> unreceived;
  for (const auto& n : nics) {
    drops.insert(drops.end(), n->drops().begin(), n->drops().end());
    for (const harness::message& m : n->endpoint().unreceived())
      unreceived.push_back(m.header);
  }
  platform_outcome out;
  out.run = h.finish(end.cycle, fab.transfers(), drops, unreceived);
  if (std::string why = engine.failure(); !why.empty()) {
    // The model failed (the RTL bridge found a flit lost or damaged): that is the cause.
    out.run.verified = false;
    out.run.nothing_checked = false;
    out.run.failure = std::move(why);
  }
  for (harness::tile_report& t : out.run.tiles)
    t.bytes *= o.wire_scale;
  out.transfers = fab.transfers();
  out.links = engine.links();
  out.contention = engine.contention();
  out.energy = engine.energy();
  out.busy = engine.link_intervals();
  return out;
}

// The harness options of a run: the executor's protocol settings and timers from the
// engine's zero-load times.
inline harness::harness_options harness_for(const fabric& f, const platform_options& o,
                                            std::uint64_t idle_bytes) {
  harness::harness_options ho;
  ho.exec.proto = o.proto;
  // x * s > T exactly when x > floor(T / s): the protocol switch sees wire bytes.
  ho.exec.unforced_threshold = o.unforced_threshold / o.wire_scale;
  ho.exec.prepost = o.prepost;
  ho.exec.send_ahead = o.send_ahead || (o.sw == switching::circuit && o.circuit.presetup);
  ho.exec.idle_cycles = one_hop_cycles(o, idle_bytes * o.wire_scale);
  // Reliable: a message of m bytes alone over the diameter D takes at most D times
  // its one-hop time (pipelined switching takes less), its ack D times the header's;
  // the timer allows twice that round trip (docs/faults.md).
  const std::uint64_t d = std::max<std::uint32_t>(max_hops(f), 1);
  const std::uint64_t header = one_hop_cycles(o, 0);
  constexpr std::uint64_t probe = std::uint64_t{1} << 20;
  const std::uint64_t per_byte = (one_hop_cycles(o, probe) - header + probe - 1) / probe;
  ho.exec.timeout_base = 2 * d * 2 * header;
  ho.exec.timeout_per_byte = 2 * d * per_byte * o.wire_scale;
  ho.exec.max_retries = o.max_retries;
  ho.memory_limit = o.memory_limit;
  ho.model = o.model_name();
  ho.samples_payload = true;  // every platform model takes --payload-bytes
  ho.trace_ops = o.trace_ops;
  return ho;
}

}  // namespace tessera::tlm_models
