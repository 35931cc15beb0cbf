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
