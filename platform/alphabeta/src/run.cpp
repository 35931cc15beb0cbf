#include "tessera/alphabeta/run.hpp"

#include "tessera/harness/harness.hpp"

namespace tessera::ab {
namespace {

harness::harness_options harness_for(const run_options& opt, std::uint64_t idle_bytes) {
  harness::harness_options ho;
  ho.exec.proto = opt.proto;
  ho.exec.unforced_threshold = opt.unforced_threshold;
  ho.exec.prepost = opt.prepost;
  ho.exec.send_ahead = opt.send_ahead;
  ho.exec.idle_cycles = opt.prm.ts + opt.prm.tw * idle_bytes;  // Bokhari §5: one transmission
  // Reliable: a data message alone takes ts + tw m and its ack ts; the timer allows
  // twice the round trip before it retransmits (docs/faults.md).
  ho.exec.timeout_base = 4 * opt.prm.ts;
  ho.exec.timeout_per_byte = 2 * opt.prm.tw;
  ho.exec.max_retries = opt.max_retries;
  ho.memory_limit = opt.memory_limit;
  ho.trace_ops = opt.trace_ops;
  return ho;
}

// Every tile polled at 0, then after each instant in which its NIC changed; a stalled
// tile is polled when its stall ends instead.
template <typename Harness>
run_outcome drive(Harness& h, const fabric& f, const run_options& opt) {
  const std::uint32_t p = h.tiles();
  network net{p, opt.prm};
  harness::fault_injector faults{f, opt.faults};
  if (!faults.empty()) {
    net.set_faults(&faults);
    h.set_faults(&faults);
  }
  std::vector<ab_nic> nics;
  nics.reserve(p);
  for (std::uint32_t t = 0; t < p; ++t) {
    nics.emplace_back(net, t);
    h.attach(t, nics.back());
  }
  auto poll = [&](std::uint32_t t, std::uint64_t now) {
    const std::uint64_t at = h.resume_at(t, now);
    if (at > now) {
      net.wake_at(t, at);
      return;
    }
    h.poll(t, now);
  };
  for (std::uint32_t t = 0; t < p; ++t)
    poll(t, 0);
  while (!h.failed()) {
    const network::step s = net.advance(opt.max_cycles);
    if (s == network::step::idle) break;
    if (s == network::step::past_limit) {
      if (h.done() == p) break;  // only cancelled timers are left
      h.stopped_by_limit(opt.max_cycles);
      if (opt.transfers != nullptr) *opt.transfers = net.transfers();
      return h.finish(opt.max_cycles, net.transfers(), net.drops(), net.unreceived());
    }
    for (const std::uint32_t t : net.take_touched())
      poll(t, net.now());
  }
  if (opt.transfers != nullptr) *opt.transfers = net.transfers();
  return h.finish(net.now(), net.transfers(), net.drops(), net.unreceived());
}

}  // namespace

run_outcome run_collective(const fw::collective_params& c, const run_options& opt) {
  harness::collective_harness<ab_nic> h{c, harness_for(opt, c.bytes)};
  return drive(h, c.f, opt);
}

run_outcome run_schedule(const fabric& f, const resolved_schedule& s, const run_options& opt) {
  harness::schedule_harness<ab_nic> h{s, harness_for(opt, s.slot)};
  return drive(h, f, opt);
}

}  // namespace tessera::ab
