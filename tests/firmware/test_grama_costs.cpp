// Alpha-beta cycles of every collective against the closed forms of Grama et al.,
// Grama: eq. (1) slide 21, the all-gather costs of
// slide 34 and eq. (2), eq. (3) slide 45, eqs. (4)-(7) slides 52-63, the shift costs
// of slides 65-67 and eq. (10) slide 70. Each expected value is computed here from
// the formula, never taken from a run.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <string>

#include "tessera/alphabeta/run.hpp"
#include "tessera/firmware/collective.hpp"

using namespace tessera;
using fw::collective;
using fw::tb_algorithm;

namespace {

constexpr std::uint64_t ts = 37;
constexpr std::uint64_t tw = 3;

fabric fab(const std::string& s) {
  const auto r = parse_fabric(s);
  REQUIRE(r.ok());
  return r.value;
}

ab::run_outcome run(collective coll, tb_algorithm alg, const fabric& f, std::uint32_t m,
                    std::uint32_t root = 0, std::uint32_t q = 1) {
  fw::collective_params c;
  c.coll = coll;
  c.alg = alg;
  c.f = f;
  c.bytes = m;
  c.root = root;
  c.shift = q;
  c.type = elem_type::u32;
  ab::run_options opt;
  opt.prm = {ts, tw};
  ab::run_outcome o = ab::run_collective(c, opt);
  INFO(o.failure);
  REQUIRE(o.verified);
  return o;
}

std::uint64_t a2a_cycles(fw::a2a_algorithm alg, const fabric& f, std::uint32_t m) {
  fw::collective_params c;
  c.coll = collective::alltoall;
  c.a2a = alg;
  c.f = f;
  c.bytes = m;
  ab::run_options opt;
  opt.prm = {ts, tw};
  const ab::run_outcome o = ab::run_collective(c, opt);
  INFO(o.failure);
  REQUIRE(o.verified);
  return o.cycles;
}

std::uint64_t lg(std::uint64_t p) {
  return static_cast<std::uint64_t>(std::countr_zero(p));
}

}  // namespace

TEST_CASE("hypercube broadcast, reduce, all-reduce and prefix take (ts + tw m) log p") {
  for (std::uint32_t d = 1; d <= 6; ++d) {
    const fabric f = fabric::hypercube(d);
    const std::uint64_t p = f.tiles();
    for (std::uint32_t m : {4U, 64U, 1000U}) {
      const std::uint64_t want = (ts + tw * m) * lg(p);  // eq. (1)
      for (std::uint32_t root : {0U, static_cast<std::uint32_t>(p - 1)}) {
        CHECK(run(collective::bcast, tb_algorithm::binomial, f, m, root).cycles == want);
        CHECK(run(collective::reduce, tb_algorithm::binomial, f, m, root).cycles == want);
      }
      CHECK(run(collective::allreduce, tb_algorithm::recursive_doubling, f, m).cycles == want);
      CHECK(run(collective::prefix, tb_algorithm::hypercube, f, m).cycles == want);
    }
  }
}

TEST_CASE("all-gather and its dual reduce-scatter match slide 34 on ring, mesh and hypercube") {
  for (std::uint32_t m : {4U, 96U}) {
    for (std::uint64_t p : {2U, 5U, 8U, 64U}) {
      const fabric f = fab("ring:" + std::to_string(p));
      const std::uint64_t want = (ts + tw * m) * (p - 1);
      CHECK(run(collective::allgather, tb_algorithm::ring, f, m).cycles == want);
      CHECK(run(collective::reduce_scatter, tb_algorithm::ring, f, m).cycles == want);
    }
    for (std::uint64_t s : {2U, 3U, 4U, 8U}) {
      const fabric f = fabric::mesh(static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(s));
      const std::uint64_t p = s * s;
      const std::uint64_t want = 2 * ts * (s - 1) + tw * m * (p - 1);
      CHECK(run(collective::allgather, tb_algorithm::mesh, f, m).cycles == want);
      CHECK(run(collective::reduce_scatter, tb_algorithm::mesh, f, m).cycles == want);
    }
    for (std::uint32_t d = 1; d <= 6; ++d) {
      const fabric f = fabric::hypercube(d);
      const std::uint64_t p = f.tiles();
      const std::uint64_t want = ts * d + tw * m * (p - 1);  // eq. (2)
      const ab::run_outcome o = run(collective::allgather, tb_algorithm::hypercube, f, m);
      CHECK(o.cycles == want);
      CHECK(run(collective::reduce_scatter, tb_algorithm::hypercube, f, m).cycles == want);
      // Slide 34's sum term by term: step i moves 2^(i-1) messages of m.
      REQUIRE(o.steps.size() == d);
      for (std::uint32_t i = 1; i <= d; ++i) {
        CHECK(o.steps[i - 1].step == i);
        CHECK(o.steps[i - 1].end - o.steps[i - 1].start ==
              ts + (std::uint64_t{1} << (i - 1)) * tw * m);
      }
    }
  }
}

TEST_CASE("hypercube scatter and gather take ts log p + tw m (p - 1)") {
  for (std::uint32_t d = 1; d <= 6; ++d) {
    const fabric f = fabric::hypercube(d);
    const std::uint64_t p = f.tiles();
    for (std::uint32_t m : {8U, 100U}) {
      const std::uint64_t want = ts * d + tw * m * (p - 1);  // eq. (3)
      for (std::uint32_t root :
           {0U, static_cast<std::uint32_t>(p / 2 + 1) % static_cast<std::uint32_t>(p)}) {
        CHECK(run(collective::scatter, tb_algorithm::binomial, f, m, root).cycles == want);
        CHECK(run(collective::gather, tb_algorithm::binomial, f, m, root).cycles == want);
      }
    }
  }
}

TEST_CASE("all-to-all personalized matches eqs. (4) to (7)") {
  for (std::uint32_t m : {8U, 64U}) {
    for (std::uint64_t p : {2U, 6U, 8U, 17U, 64U}) {
      const fabric f = fab("ring:" + std::to_string(p));
      // (ts + tw m p/2)(p - 1), kept in integers: ts(p-1) + tw m p(p-1)/2.
      CHECK(a2a_cycles(fw::a2a_algorithm::ring, f, m) == ts * (p - 1) + tw * m * p * (p - 1) / 2);
    }
    for (std::uint64_t s : {2U, 3U, 4U, 8U}) {
      const fabric f = fabric::mesh(static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(s));
      const std::uint64_t p = s * s;
      CHECK(a2a_cycles(fw::a2a_algorithm::mesh, f, m) == (2 * ts + tw * m * p) * (s - 1));
    }
    for (std::uint32_t d = 1; d <= 6; ++d) {
      const fabric f = fabric::hypercube(d);
      const std::uint64_t p = f.tiles();
      CHECK(a2a_cycles(fw::a2a_algorithm::standard, f, m) == (ts + tw * m * p / 2) * d);
      CHECK(a2a_cycles(fw::a2a_algorithm::pairwise, f, m) == (ts + tw * m) * (p - 1));
    }
  }
}

TEST_CASE("circular shift: ring hops, mesh with the compensating step, powers of two") {
  const std::uint32_t m = 40;
  const std::uint64_t msg = ts + tw * m;
  for (std::uint32_t p : {5U, 8U, 12U}) {
    const fabric f = fab("ring:" + std::to_string(p));
    for (std::uint32_t q = 1; q < p; ++q) {
      // Slide 65: min(q, p - q) neighbour communications.
      CHECK(run(collective::shift, tb_algorithm::ring, f, m, 0, q).cycles ==
            msg * std::min(q, p - q));
      CHECK(run(collective::shift, tb_algorithm::direct, f, m, 0, q).cycles == msg);  // eq. (9)
    }
  }
  for (std::uint32_t d = 1; d <= 5; ++d) {
    const fabric f = fabric::hypercube(d);
    for (std::uint32_t q = 1; q < f.tiles(); ++q) {
      // Slide 67: one phase per power of two in q.
      CHECK(run(collective::shift, tb_algorithm::powers_of_two, f, m, 0, q).cycles ==
            msg * static_cast<std::uint64_t>(std::popcount(q)));
    }
  }
  for (std::uint32_t s : {3U, 4U, 5U}) {
    const fabric f = fabric::mesh(s, s);
    const std::uint32_t p = s * s;
    for (std::uint32_t q = 1; q < p; ++q) {
      // Slide 66: row shift by q mod s, one compensating column step if it wrapped,
      // then a column shift by q div s, each hop by hop the shorter way.
      const std::uint32_t qc = q % s;
      const std::uint32_t qr = q / s;
      const std::uint64_t hops = std::min(qc, s - qc) + (qc != 0 ? 1U : 0U) + std::min(qr, s - qr);
      const std::uint64_t cycles = run(collective::shift, tb_algorithm::mesh, f, m, 0, q).cycles;
      CHECK(cycles == msg * hops);
      CHECK(cycles <= msg * (s + 1));  // slide 65's bound (ts + tw m)(sqrt p + 1)
    }
  }
}

TEST_CASE("broadcast as scatter then all-gather takes 2 (ts log p + tw (p - 1) m / p)") {
  for (std::uint32_t d = 1; d <= 6; ++d) {
    const fabric f = fabric::hypercube(d);
    const std::uint64_t p = f.tiles();
    const std::uint32_t m = 64 * 5;  // a multiple of every p here, so pieces are equal
    const std::uint64_t want = 2 * (ts * d + tw * (p - 1) * m / p);  // eq. (10)
    CHECK(run(collective::bcast, tb_algorithm::scatter_allgather, f, m).cycles == want);
    CHECK(run(collective::bcast, tb_algorithm::scatter_allgather, f, m, 3 % f.tiles()).cycles ==
          want);
  }
  // Against the binomial broadcast's (ts + tw m) log p: with m a multiple of p it wins
  // once tw m (log p - 2 (p - 1) / p) > ts log p, i.e. m > 18.6 for ts = 37, tw = 3,
  // p = 64. Below that it still pays 2 ts log p of start-ups, which alone exceed the
  // binomial broadcast for m = 2: 444 > (37 + 6) * 6 = 258.
  const fabric f = fabric::hypercube(6);
  for (std::uint32_t m : {64U, 6400U}) {
    CHECK(run(collective::bcast, tb_algorithm::scatter_allgather, f, m).cycles <
          run(collective::bcast, tb_algorithm::binomial, f, m).cycles);
  }
  const std::uint64_t sa = run(collective::bcast, tb_algorithm::scatter_allgather, f, 2).cycles;
  CHECK(sa >= 2 * ts * 6);
  CHECK(sa > run(collective::bcast, tb_algorithm::binomial, f, 2).cycles);
}

TEST_CASE("mesh broadcast and reduce: a row then the columns, log C + log R steps") {
  for (std::uint32_t s : {2U, 4U, 8U}) {
    const fabric f = fabric::mesh(s, s);
    const std::uint64_t want = (ts + tw * 24) * 2 * lg(s);  // slide 12: equals (1) for p = s^2
    for (std::uint32_t root : {0U, s * s - 1, s + 1}) {
      CHECK(run(collective::bcast, tb_algorithm::mesh, f, 24, root).cycles == want);
      CHECK(run(collective::reduce, tb_algorithm::mesh, f, 24, root).cycles == want);
    }
  }
}

TEST_CASE("reduce and allreduce through reduce-scatter take 2 (ts log p + tw (p - 1) m / p)") {
  // Slide 70: reduce = all-to-all reduction + gather; slide 71: allreduce =
  // all-to-all reduction + all-to-all broadcast. On a hypercube each phase costs
  // ts log p + tw (p - 1) m / p (eqs. 2 and 3 with messages of m / p).
  for (std::uint32_t d = 1; d <= 6; ++d) {
    const fabric f = fabric::hypercube(d);
    const std::uint64_t p = f.tiles();
    const std::uint32_t m = 4 * 64 * 3;  // u32 elements, a multiple of every p here
    const std::uint64_t want = 2 * (ts * d + tw * (p - 1) * (m / p));
    CHECK(run(collective::allreduce, tb_algorithm::rs_allgather, f, m).cycles == want);
    for (std::uint32_t root : {0U, static_cast<std::uint32_t>(p - 1)})
      CHECK(run(collective::reduce, tb_algorithm::rs_gather, f, m, root).cycles == want);
  }
}
