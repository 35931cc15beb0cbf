// The pipelined broadcast on edge-disjoint spanning trees (Bermond92 §2.1):
// every tree family delivers every packet to every tile exactly once, and each
// tile's op stream forwards a packet only after it holds it. Data is checked byte by
// byte on the host alpha-beta model; the timing is held to the paper on the TLM torus
// (tests/cli/test_cli_edst.cpp).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tessera/alphabeta/run.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/firmware/textbook.hpp"

namespace fw = tessera::fw;

namespace {

const std::vector<fw::tb_algorithm> edst_algorithms{
    fw::tb_algorithm::edst_single, fw::tb_algorithm::edst_saad_schultz,
    fw::tb_algorithm::edst_simmen, fw::tb_algorithm::edst_3d2, fw::tb_algorithm::edst_optimal};

fw::collective_params params(const char* spec, fw::tb_algorithm alg, std::uint32_t root,
                             std::uint32_t bytes, std::uint32_t q) {
  fw::collective_params c;
  c.f = tessera::parse_fabric(spec).value;
  c.coll = fw::collective::bcast;
  c.alg = alg;
  c.root = root;
  c.bytes = bytes;
  c.packets = q;
  return c;
}

}  // namespace

TEST_CASE("every edst family delivers every packet to every tile once", "[firmware][edst]") {
  for (const char* spec : {"torus:4x4", "torus:5x7", "torus:6x6", "torus:9x9"}) {
    for (const auto alg : edst_algorithms) {
      fw::collective_params c = params(spec, alg, 0, 1000, 1);
      fw::tree_family fam{};
      REQUIRE(fw::is_edst(c, fam));
      if (fw::tree_support(fam, c.f, 0) != fw::tree_error::none) continue;  // 5x7 optimal
      const std::uint32_t p = c.f.tiles();
      const std::uint32_t d = fw::info(fam).trees;
      for (const std::uint32_t root : {0U, p / 2 + 1}) {
        for (const std::uint32_t q : {1U, 3U, 7U}) {
          c.root = root;
          c.packets = q;
          const auto r = tessera::ab::run_collective(c, {});
          INFO(spec << ' ' << fw::info(fam).bcast_name << " root " << root << " q " << q << ": "
                    << r.failure);
          CHECK(r.verified);
          // 1000 bytes split over d trees and q packets: (p - 1) d q messages, one
          // per tile and block, and every byte of the message once per tile.
          CHECK(r.data_messages == std::uint64_t{p - 1} * d * q);
          std::uint64_t bytes = 0;
          for (const auto& t : r.tiles)
            bytes += t.bytes;
          CHECK(bytes == std::uint64_t{p - 1} * 1000);
        }
      }
    }
  }
}

TEST_CASE("an edst tile forwards a packet only after receiving it, to each child once",
          "[firmware][edst]") {
  for (const auto alg : edst_algorithms) {
    const fw::collective_params c = params("torus:6x6", alg, 7, 600, 4);
    fw::tree_family fam{};
    REQUIRE(fw::is_edst(c, fam));
    const std::uint32_t p = c.f.tiles();
    // Who sends each block to whom, over all tiles' streams.
    std::map<std::uint32_t, std::set<std::pair<std::uint32_t, std::uint32_t>>> sends;
    std::map<std::uint32_t, std::uint32_t> received;  // (tile * 1000 + block) -> count
    for (std::uint32_t t = 0; t < p; ++t) {
      fw::collective_program prog{c, tessera::tile_id{t}};
      std::vector<tessera::block_id> s(prog.max_blocks()), r(prog.max_blocks());
      std::set<std::uint32_t> held;
      if (t == c.root) {
        fw::layout{c}.initial(t, [&](const fw::block_desc& b) { held.insert(b.id); });
      }
      tessera::op o;
      while (prog.next(o, s, r)) {
        INFO(fw::info(fam).bcast_name << " tile " << t);
        if (o.kind == tessera::op_kind::recv) {
          REQUIRE(o.recv_count == 1);
          CHECK(held.insert(r[0].value()).second);  // never received twice
          ++received[t * 1000 + r[0].value()];
        } else {
          REQUIRE(o.kind == tessera::op_kind::send);
          CHECK((o.flags & tessera::op_flag::async) != 0);
          CHECK(held.count(s[0].value()) == 1);  // forwarded only once held
          CHECK(sends[s[0].value()].insert({t, o.to}).second);
        }
      }
      // Every tile ends with all d q blocks.
      CHECK(held.size() == fw::info(fam).trees * c.packets);
    }
    // Every non-root tile receives each block exactly once, and from a neighbour.
    for (const auto& [block, edges] : sends) {
      CHECK(edges.size() == p - 1);
      std::set<std::uint32_t> to;
      for (const auto& e : edges) {
        to.insert(e.second);
        CHECK(fw::port_towards(c.f, e.first, e.second) != fw::no_parent);
      }
      CHECK(to.size() == p - 1);
      CHECK(to.count(c.root) == 0);
    }
  }
}
