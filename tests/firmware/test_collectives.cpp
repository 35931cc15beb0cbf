// Every collective and algorithm runs for real on the alpha-beta network and every
// tile's final bytes are checked against payload.hpp's independent definition.
// Algorithms: Grama.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tessera/alphabeta/run.hpp"
#include "tessera/firmware/collective.hpp"

using namespace tessera;
using fw::collective;
using fw::tb_algorithm;

namespace {

fabric fab(const std::string& s) {
  const auto r = parse_fabric(s);
  REQUIRE(r.error == fabric_parse_error::none);
  return r.value;
}

ab::run_outcome run(fw::collective_params c) {
  ab::run_options opt;
  opt.prm = {10, 1};
  return ab::run_collective(c, opt);
}

void check(const fw::collective_params& c, const std::string& what) {
  const ab::run_outcome o = run(c);
  INFO(what << ": " << o.failure);
  CHECK(o.completed);
  CHECK(o.verified);
}

const std::vector<std::string> fabrics = {
    "ring:2",   "ring:5",    "ring:8",   "ring:13",     "mesh:1x4",    "mesh:3x3",    "mesh:4x4",
    "mesh:2x5", "torus:4x4", "mesh:8x8", "hypercube:1", "hypercube:3", "hypercube:6", "ring:64"};

}  // namespace

TEST_CASE("every textbook collective delivers every byte on every fabric and root") {
  for (const auto& fs : fabrics) {
    const fabric f = fab(fs);
    const std::uint32_t p = f.tiles();
    for (const auto& a : fw::tb_algorithms) {
      if (!fw::fabric_meets(a.needs, f)) continue;
      if (a.coll == collective::shift && p < 2) continue;
      const bool rooted = fw::info(a.coll).rooted;
      std::vector<std::uint32_t> roots{0};
      if (rooted && p > 1) roots = {0, p - 1, p / 2 + (p > 2 ? 1 : 0) - 1};
      for (const std::uint32_t root : roots) {
        fw::collective_params c;
        c.coll = a.coll;
        c.alg = a.alg;
        c.f = f;
        c.root = root;
        c.bytes = 24;
        c.type = elem_type::i32;
        c.rop = reduce_op::sum;
        c.shift = p > 1 ? (p / 2 + 1) % p : 0;
        if (c.coll == collective::shift && c.shift == 0) c.shift = 1;
        check(c, fs + " " + std::string(fw::info(a.coll).name) + " " + std::string(a.name) +
                     " root " + std::to_string(root));
      }
    }
  }
}

TEST_CASE("every complete-exchange algorithm delivers every byte") {
  for (const auto& fs :
       {"hypercube:3", "hypercube:6", "mesh:4x4", "mesh:3x5", "ring:6", "ring:7"}) {
    const fabric f = fab(fs);
    for (const auto& a : fw::a2a_algorithms) {
      if (!fw::a2a_supported(a.alg, f)) continue;
      fw::collective_params c;
      c.coll = collective::alltoall;
      c.a2a = a.alg;
      c.f = f;
      c.bytes = 16;
      check(c, std::string(fs) + " alltoall " + std::string(a.name));
    }
  }
}

TEST_CASE("reductions verify for every element type and operator") {
  for (const auto& fs : {"hypercube:3", "ring:5", "mesh:2x3"}) {
    const fabric f = fab(fs);
    for (const auto& ti : elem_types) {
      for (std::size_t oi = 0; oi < reduce_op_names.size(); ++oi) {
        const auto rop = static_cast<reduce_op>(oi);
        if (!reduce_supported(ti.type, rop)) continue;
        for (const auto& a : fw::tb_algorithms) {
          if (!fw::info(a.coll).reduction || !fw::fabric_meets(a.needs, f)) continue;
          fw::collective_params c;
          c.coll = a.coll;
          c.alg = a.alg;
          c.f = f;
          c.root = 1;
          c.bytes = 3 * ti.bytes;
          c.type = ti.type;
          c.rop = rop;
          check(c, std::string(fs) + " " + std::string(fw::info(a.coll).name) + " " +
                       std::string(a.name) + " " + std::string(ti.name) + " " +
                       std::string(reduce_op_name(rop)));
        }
      }
    }
  }
}
