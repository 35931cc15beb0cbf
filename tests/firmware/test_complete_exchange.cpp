// Every complete-exchange algorithm delivers every block exactly once, on every
// fabric size it is defined for, including non-power-of-two meshes.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/schedule/build.hpp"
#include "tessera/schedule/check.hpp"

using namespace tessera;
using fw::a2a_algorithm;

namespace {

std::string name(const fabric& f) {
  if (f.kind == fabric_kind::hypercube) return "hypercube:" + std::to_string(f.dim);
  if (f.kind == fabric_kind::ring) return "ring:" + std::to_string(f.cols);
  return std::string(kind_name(f.kind)) + ":" + std::to_string(f.rows) + "x" +
         std::to_string(f.cols);
}

const std::vector<fabric>& fabrics() {
  static const std::vector<fabric> all = [] {
    std::vector<fabric> v;
    for (std::uint32_t d = 1; d <= 7; ++d)
      v.push_back(fabric::hypercube(d));
    for (auto [r, c] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{2, 2},
                                                                            {4, 4},
                                                                            {8, 8},
                                                                            {4, 8},
                                                                            {16, 8},
                                                                            {1, 8},
                                                                            {4, 5},
                                                                            {6, 8},
                                                                            {16, 9},
                                                                            {3, 3},
                                                                            {5, 5},
                                                                            {3, 7},
                                                                            {1, 6}}) {
      v.push_back(fabric::mesh(r, c));
    }
    v.push_back(fabric::torus(4, 4));
    v.push_back(fabric::torus(3, 5));
    v.push_back(fabric::ring(5));
    v.push_back(fabric::ring(8));
    v.push_back(fabric::ring(12));
    return v;
  }();
  return all;
}

}  // namespace

TEST_CASE("every algorithm delivers every block exactly once", "[a2a][delivery]") {
  for (const auto& info : fw::a2a_algorithms) {
    for (const auto& f : fabrics()) {
      if (!fw::a2a_supported(info.alg, f)) continue;
      INFO(std::string(info.name) << " on " << name(f));
      const auto s = build_alltoall(info.alg, f, 16);
      const auto r = check_schedule(s);
      for (const auto& e : r.errors)
        UNSCOPED_INFO(e);
      REQUIRE(r.ok());
      // Each ordered pair's block arrives at its destination exactly once.
      CHECK(r.block_receipts >= std::uint64_t{f.tiles()} * (f.tiles() - 1));
    }
  }
}

TEST_CASE("PEX-GEN, PEX-GEN-SHIFT and GEN on Thakur's non-power-of-two meshes", "[a2a][delivery]") {
  // Thakur93 Tables 3, 4 and 6 use 4x5, 6x8, 16x9 (and larger).
  for (auto [r, c] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 5}, {6, 8}, {16, 9}, {16, 14}}) {
    const auto f = fabric::mesh(r, c);
    for (auto alg : {a2a_algorithm::pex_gen, a2a_algorithm::pex_gen_shift, a2a_algorithm::gen}) {
      INFO(fw::info(alg).name << " on mesh " << r << "x" << c);
      REQUIRE(fw::a2a_supported(alg, f));
      const auto res = check_schedule(build_alltoall(alg, f, 1024));
      REQUIRE(res.ok());
      CHECK(res.messages == std::uint64_t{f.tiles()} * (f.tiles() - 1));
    }
  }
}

TEST_CASE("algorithms refuse fabrics they are not defined on", "[a2a]") {
  const auto m45 = fabric::mesh(4, 5);
  CHECK_FALSE(fw::a2a_supported(a2a_algorithm::pex, m45));
  CHECK_FALSE(fw::a2a_supported(a2a_algorithm::pairwise, m45));
  CHECK_FALSE(fw::a2a_supported(a2a_algorithm::standard, m45));
  CHECK_FALSE(fw::a2a_supported(a2a_algorithm::aap, m45));
  CHECK(fw::a2a_supported(a2a_algorithm::pex_gen, m45));
  CHECK(fw::a2a_supported(a2a_algorithm::gen, m45));
  CHECK_FALSE(fw::a2a_supported(a2a_algorithm::stable, fabric::mesh(3, 3)));
  CHECK_FALSE(fw::a2a_supported(a2a_algorithm::mesh, fabric::hypercube(4)));
  CHECK(fw::a2a_supported(a2a_algorithm::mesh, fabric::torus(3, 5)));
}

TEST_CASE("algorithm names round-trip", "[a2a]") {
  for (const auto& info : fw::a2a_algorithms) {
    a2a_algorithm a{};
    REQUIRE(fw::parse_a2a_algorithm(info.name, a));
    CHECK(a == info.alg);
    CHECK(&fw::info(a) == &info);
  }
  a2a_algorithm a{};
  CHECK_FALSE(fw::parse_a2a_algorithm("PEX", a));
}

namespace {
// Counts the ops of one tile at compile time: the generators are freestanding.
constexpr std::uint32_t ops_of(a2a_algorithm alg, fabric f, std::uint32_t me) {
  fw::a2a_generator g(alg, f, tile_id{me});
  std::array<block_id, 64> send{};
  std::array<block_id, 64> recv{};
  op o;
  std::uint32_t n = 0;
  while (g.next(o, send, recv))
    ++n;
  return n;
}
}  // namespace

// p - 1 exchanges for pairwise; 2 log p ops (exchange + shuffle) for standard;
// n slots for stable; 2(p - 1) for naive (sends, then receives).
static_assert(ops_of(a2a_algorithm::pairwise, fabric::hypercube(3), 5) == 7);
static_assert(ops_of(a2a_algorithm::standard, fabric::hypercube(4), 9) == 8);
static_assert(ops_of(a2a_algorithm::stable, fabric::hypercube(3), 2) == 8);
static_assert(ops_of(a2a_algorithm::naive, fabric::mesh(3, 3), 4) == 16);
static_assert(ops_of(a2a_algorithm::pex_gen, fabric::mesh(4, 5), 19) == 19);

TEST_CASE("pair_sync: every exchange is preceded by a pair_sync with its peer in its step",
          "[a2a]") {
  // Bokhari §5: pairwise_F and standard_F exchange two zero-byte messages before each
  // exchange. The synchronized stream is the plain one with a pair_sync inserted before
  // each exchange, and nothing else changes.
  const std::vector<std::pair<a2a_algorithm, fabric>> cases{
      {a2a_algorithm::pairwise, fabric::hypercube(3)},
      {a2a_algorithm::standard, fabric::hypercube(4)},
      {a2a_algorithm::pex, fabric::mesh(4, 4)},
      {a2a_algorithm::pex_gen, fabric::mesh(4, 5)},
      {a2a_algorithm::pex_gen_shift, fabric::mesh(4, 5)},
      {a2a_algorithm::aap, fabric::hypercube(3)},
      {a2a_algorithm::aap_prime, fabric::hypercube(3)}};
  for (const auto& [alg, f] : cases) {
    REQUIRE(fw::a2a_has_exchanges(alg));
    for (std::uint32_t me = 0; me < f.tiles(); ++me) {
      INFO(fw::info(alg).name << " tile " << me);
      fw::a2a_generator plain(alg, f, tile_id{me});
      fw::a2a_generator synced(alg, f, tile_id{me}, true);
      std::vector<block_id> s1(plain.max_blocks()), r1(plain.max_blocks());
      std::vector<block_id> s2(plain.max_blocks()), r2(plain.max_blocks());
      op a;
      op b;
      std::uint32_t exchanges = 0;
      while (plain.next(a, s1, r1)) {
        REQUIRE(synced.next(b, s2, r2));
        if (a.kind == op_kind::exchange) {
          ++exchanges;
          CHECK(b.kind == op_kind::pair_sync);
          CHECK(b.to == a.to);
          CHECK(b.step == a.step);
          CHECK(b.send_count == 0);
          CHECK(b.recv_count == 0);
          REQUIRE(synced.next(b, s2, r2));
        }
        CHECK(b.kind == a.kind);
        CHECK(b.step == a.step);
        CHECK(b.to == a.to);
        CHECK(b.from == a.from);
        REQUIRE(b.send_count == a.send_count);
        REQUIRE(b.recv_count == a.recv_count);
        for (std::uint32_t i = 0; i < a.send_count; ++i)
          CHECK(s2[i] == s1[i]);
        for (std::uint32_t i = 0; i < a.recv_count; ++i)
          CHECK(r2[i] == r1[i]);
      }
      CHECK_FALSE(synced.next(b, s2, r2));
      CHECK(exchanges > 0);
    }
  }
  CHECK_FALSE(fw::a2a_has_exchanges(a2a_algorithm::linear));
  CHECK_FALSE(fw::a2a_has_exchanges(a2a_algorithm::stable));
  CHECK_FALSE(fw::a2a_has_exchanges(a2a_algorithm::naive));
}
