// harness::count_work, the size guard's count of a run's work: every tile's ops, and the blocks
// their messages carry (an op counts the larger of what it sends and receives). The
// expected counts come from each algorithm's definition (Grama, "Basic Communication
// Operations"), not from the walk.
#include <catch2/catch.hpp>

#include "tessera/harness/harness.hpp"

namespace {

using tessera::fabric;
namespace fw = tessera::fw;

fw::collective_params params(fw::collective coll, fw::tb_algorithm alg, const fabric& f) {
  fw::collective_params c;
  c.coll = coll;
  c.alg = alg;
  c.f = f;
  c.bytes = 64;
  return c;
}

}  // namespace

TEST_CASE("count_work: a binomial broadcast is p - 1 messages of one block", "[work]") {
  // Grama slide 21: log p steps, each tile receives once, p - 1 messages in all; each is
  // a send op on one tile and a receive op on another.
  for (const std::uint32_t d : {3U, 10U, 14U}) {
    const std::uint64_t p = std::uint64_t{1} << d;
    const auto w = tessera::harness::count_work(
        params(fw::collective::bcast, fw::tb_algorithm::binomial, fabric::hypercube(d)));
    CHECK(w.ops == 2 * (p - 1));
    CHECK(w.block_moves == 2 * (p - 1));
  }
}

TEST_CASE("count_work: the hypercube all-gather doubles its message each step", "[work]") {
  // Slides 30-34: step j (0-based) exchanges 2^j blocks with the neighbour across
  // dimension j, so a tile runs d exchanges and receives p - 1 blocks.
  for (const std::uint32_t d : {2U, 6U, 12U}) {
    const std::uint64_t p = std::uint64_t{1} << d;
    const auto w = tessera::harness::count_work(
        params(fw::collective::allgather, fw::tb_algorithm::hypercube, fabric::hypercube(d)));
    CHECK(w.ops == p * d);
    CHECK(w.block_moves == p * (p - 1));
  }
}

TEST_CASE("count_work stops once a limit is passed", "[work]") {
  // The ring all-gather on 65536 tiles: p - 1 steps of one block each, 4.3e9 ops in all.
  const fabric ring = fabric::ring(65536);
  const auto w = tessera::harness::count_work(
      params(fw::collective::allgather, fw::tb_algorithm::ring, ring), 1000, UINT64_MAX);
  CHECK(w.ops == 1001);
}
