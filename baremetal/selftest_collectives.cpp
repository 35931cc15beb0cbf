// Collectives executed on the tile itself: eight tiles in one image, each running the
// tile runtime's executor over the in-memory NIC, every byte checked at the end.
#include "selftest.hpp"
#include "selftest_tests.hpp"
#include "tessera/firmware/local_run.hpp"

namespace tessera::selftest {
namespace {

using machine = fw::local_machine<8, 16, 32, 8>;
machine the_machine;  // eight tiles' memory and NICs, statically allocated

machine& get() {
  return the_machine;
}

fabric named(std::string_view spec) {
  return parse_fabric(spec).value;
}

const char* status_text(fw::local_status s) {
  switch (s) {
    case fw::local_status::verified:
      return "verified";
    case fw::local_status::too_big:
      return "too big for the image";
    case fw::local_status::tile_fault:
      return "tile fault";
    case fw::local_status::stuck:
      return "stuck";
    case fw::local_status::mismatch:
      return "byte mismatch";
  }
  return "?";
}

bool run_one(const fw::collective_params& c, std::string_view fab, std::string_view alg) {
  const fw::local_result r = get().run(c, executor_config{});
  const bool ok = r.status == fw::local_status::verified;
  // A line prints when its statement ends, so each outcome is one statement.
  if (r.status == fw::local_status::tile_fault || r.status == fw::local_status::mismatch) {
    check(ok) << fab << ' ' << fw::info(c.coll).name << ' ' << alg << ": " << status_text(r.status)
              << " at tile " << r.tile << " (" << tile_error_text(r.fault.code) << ", block "
              << (r.status == fw::local_status::mismatch ? r.bad.block : r.fault.block) << ")";
  } else {
    check(ok) << fab << ' ' << fw::info(c.coll).name << ' ' << alg << ": " << status_text(r.status);
  }
  return ok;
}

}  // namespace

bool collectives_verify_on_8_tiles() {
  bool all = true;
  for (std::string_view fs : {"hypercube:3", "ring:8", "mesh:2x4"}) {
    const fabric f = named(fs);
    for (const auto& a : fw::tb_algorithms) {
      if (!fw::fabric_meets(a.needs, f)) continue;
      fw::collective_params c;
      c.coll = a.coll;
      c.alg = a.alg;
      c.f = f;
      c.bytes = 16;
      c.root = 5;
      c.shift = 3;
      all = run_one(c, fs, a.name) && all;
    }
    for (auto alg : {fw::a2a_algorithm::pairwise, fw::a2a_algorithm::ring,
                     fw::a2a_algorithm::standard, fw::a2a_algorithm::mesh}) {
      if (!fw::a2a_supported(alg, f)) continue;
      fw::collective_params c;
      c.coll = fw::collective::alltoall;
      c.a2a = alg;
      c.f = f;
      c.bytes = 16;
      all = run_one(c, fs, fw::info(alg).name) && all;
    }
  }
  return all;
}

bool forced_message_before_receive_is_lost() {
  // Bokhari §2.1: naive complete exchange sends before it receives; FORCED drops it.
  fw::collective_params c;
  c.coll = fw::collective::alltoall;
  c.a2a = fw::a2a_algorithm::naive;
  c.f = named("hypercube:3");
  c.bytes = 16;
  executor_config cfg;
  cfg.proto = protocol::forced;
  const fw::local_result forced = get().run(c, cfg);
  const bool lost = forced.status == fw::local_status::stuck && forced.dropped > 0;
  check(lost) << "naive alltoall under FORCED: " << status_text(forced.status) << ", "
              << forced.dropped << " messages dropped";
  cfg.proto = protocol::raw;
  const fw::local_result raw = get().run(c, cfg);
  const bool ok = raw.status == fw::local_status::verified;
  check(ok) << "the same under raw: " << status_text(raw.status);
  return lost && ok;
}

bool reliable_protocol_survives_loss_and_damage() {
  // docs/faults.md: the reliable protocol numbers, checksums and acknowledges every
  // data message; a lost or damaged one is sent again, and the run still verifies.
  fw::collective_params c;
  c.coll = fw::collective::alltoall;
  c.a2a = fw::a2a_algorithm::pairwise;
  c.f = named("hypercube:3");
  c.bytes = 16;
  executor_config cfg;
  cfg.proto = protocol::reliable;
  machine& m = get();
  // The in-memory NIC has no clock: a timer has run out whenever the sender looks, so
  // a sender may send again before its receiver acknowledged; every message is still
  // acknowledged and every copy after the first is rejected as a duplicate.
  const fw::local_result clean = m.run(c, cfg);
  const bool clean_ok = clean.status == fw::local_status::verified &&
                        clean.reliable.acks_sent == 56 + clean.reliable.rejected_duplicate &&
                        clean.reliable.rejected_duplicate == clean.reliable.retransmissions;
  check(clean_ok) << "pairwise alltoall on hypercube:3 under reliable: "
                  << status_text(clean.status) << ", " << clean.reliable.acks_sent << " acks, "
                  << clean.reliable.retransmissions << " early retransmissions, "
                  << clean.reliable.rejected_duplicate << " duplicates";
  bool all = clean_ok;
  using kind = machine::fabric_type::fault_kind;
  for (const kind k : {kind::drop, kind::corrupt}) {
    const fw::local_result r = m.run_with_fault(c, cfg, k, 2, 3, 1);
    const bool ok = m.fault_acted() && r.status == fw::local_status::verified &&
                    r.reliable.retransmissions >= 1 &&
                    r.reliable.rejected_damaged == (k == kind::drop ? 0U : 1U);
    check(ok) << (k == kind::drop ? "dropped" : "damaged")
              << " first message 2->3: " << status_text(r.status) << ", "
              << r.reliable.retransmissions << " retransmissions, " << r.reliable.rejected_damaged
              << " rejected as damaged";
    all = all && ok;
    // The same fault without the protocol is not survived.
    const fw::local_result raw = m.run_with_fault(c, executor_config{}, k, 2, 3, 1);
    const bool lost = raw.status != fw::local_status::verified;
    check(lost) << "  and under raw: " << status_text(raw.status);
    all = all && lost;
  }
  return all;
}

bool damaged_block_is_detected() {
  fw::collective_params c;
  c.coll = fw::collective::allgather;
  c.alg = fw::tb_algorithm::ring;
  c.f = named("ring:8");
  c.bytes = 16;
  machine& m = get();
  const bool ran = m.run(c, executor_config{}).status == fw::local_status::verified;
  m.store(6).find(2)[9] ^= std::byte{0x40};
  const fw::mismatch bad = fw::verify_tile(c, 6, m.store(6));
  const bool caught =
      bad.kind == fw::mismatch_kind::bytes && bad.tile == 6 && bad.block == 2 && bad.offset == 9;
  check(ran && caught) << "a flipped bit in tile 6, block 2, byte 9 is reported as tile "
                       << bad.tile << ", block " << bad.block << ", byte " << bad.offset;
  return ran && caught;
}

}  // namespace tessera::selftest
