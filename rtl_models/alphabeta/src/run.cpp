#include "tessera/alphabeta/run.hpp"

#include "tessera/nic/harness.hpp"

namespace tessera::ab {
namespace {

nic::harness_options harness_for(const run_options& opt, std::uint64_t idle_bytes) {
  nic::harness_options ho;
  ho.exec.proto = opt.proto;
  ho.exec.unforced_threshold = opt.unforced_threshold;
  ho.exec.prepost = opt.prepost;
  ho.exec.send_ahead = opt.send_ahead;
  ho.exec.idle_cycles = opt.prm.ts + opt.prm.tw * idle_bytes;  // Bokhari §5: one transmission
  ho.memory_limit = opt.memory_limit;
  return ho;
}

// Every tile polled at 0, then after each instant in which its NIC changed.
template <typename Harness>
run_outcome drive(Harness& h, const run_options& opt) {
  const std::uint32_t p = h.tiles();
  network net{p, opt.prm};
  std::vector<ab_nic> nics;
  nics.reserve(p);
  for (std::uint32_t t = 0; t < p; ++t) {
    nics.emplace_back(net, t);
    h.attach(t, nics.back());
  }
  for (std::uint32_t t = 0; t < p; ++t)
    h.poll(t, 0);
  while (!h.failed() && net.advance()) {
    for (const std::uint32_t t : net.take_touched())
      h.poll(t, net.now());
  }
  return h.finish(net.now(), net.transfers(), net.drops(), net.unreceived());
}

}  // namespace

run_outcome run_collective(const fw::collective_params& c, const run_options& opt) {
  nic::collective_harness<ab_nic> h{c, harness_for(opt, c.bytes)};
  return drive(h, opt);
}

run_outcome run_schedule(const nic::prepared_schedule& s, const run_options& opt) {
  nic::schedule_harness<ab_nic> h{s, harness_for(opt, s.slot)};
  return drive(h, opt);
}

}  // namespace tessera::ab
