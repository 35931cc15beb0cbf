// Closed-form estimates: the schedules' message sizes and steps must reproduce the
// papers' cost formulas, each derived here from the paper's text.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "tessera/analytic/analysis.hpp"
#include "tessera/analytic/closed_form.hpp"
#include "tessera/schedule/build.hpp"

using namespace tessera;
using fw::a2a_algorithm;

namespace {

double binom(std::uint32_t n, std::uint32_t k) {
  double r = 1;
  for (std::uint32_t i = 1; i <= k; ++i)
    r = r * (n - k + i) / i;
  return r;
}

analytic::analysis run(a2a_algorithm alg, const fabric& f, std::uint64_t bytes,
                       const analytic::model_params& m, analytic::switching sw) {
  return analytic::analyze(build_alltoall(alg, f, bytes), f, sw, m);
}

}  // namespace

TEST_CASE("alpha-beta cost of the all-to-all algorithms is Grama's", "[estimates][grama]") {
  // Grama slides 52, 55, 58, 63, with ts = alpha and tw = beta.
  analytic::model_params m;
  m.alpha = 50;
  m.beta = 2;
  const double ts = 50;
  const double tw = 2;
  const double mb = 16;  // bytes per block
  const auto sw = analytic::switching::store_forward;
  for (std::uint32_t d = 1; d <= 6; ++d) {
    const double p = std::pow(2.0, d);
    const auto f = fabric::hypercube(d);
    // Eq. (7): optimal pairwise, (ts + tw m)(p - 1).
    CHECK(run(a2a_algorithm::pairwise, f, 16, m, sw).est.alphabeta ==
          Approx((ts + tw * mb) * (p - 1)));
    // Eq. (6): standard exchange, (ts + tw m p/2) log p.
    CHECK(run(a2a_algorithm::standard, f, 16, m, sw).est.alphabeta ==
          Approx((ts + tw * mb * p / 2) * d));
  }
  for (std::uint32_t p : {2U, 5U, 8U, 13U}) {
    // Eq. (4): ring, (ts + tw m p/2)(p - 1).
    CHECK(run(a2a_algorithm::ring, fabric::ring(p), 16, m, sw).est.alphabeta ==
          Approx((ts + tw * mb * p / 2) * (p - 1)));
  }
  for (std::uint32_t side : {2U, 3U, 4U, 8U}) {
    // Eq. (5): two-phase mesh on sqrt(p) x sqrt(p), (2 ts + tw m p)(sqrt(p) - 1).
    const double p = side * side;
    CHECK(run(a2a_algorithm::mesh, fabric::mesh(side, side), 16, m, sw).est.alphabeta ==
          Approx((2 * ts + tw * mb * p) * (side - 1)));
  }
}

TEST_CASE("one circuit message costs xi + i tau + i + k - 1", "[estimates][boppana]") {
  // Boppana90 §2, a single transfer 0 -> (2^i - 1) over i hops.
  analytic::model_params m;
  m.xi = 30;
  m.tau = 7;
  m.width = 4;
  for (std::uint32_t i = 1; i <= 6; ++i) {
    schedule s;
    s.tiles = 64;
    s.programs.resize(64);
    const std::uint32_t dst = (1U << i) - 1;
    sched_op snd;
    snd.kind = op_kind::send;
    snd.step = 1;
    snd.to = dst;
    snd.send_bytes = 400;  // k = 100 elements of 4 bytes
    s.programs[0].add(snd, {}, {});
    sched_op rcv;
    rcv.kind = op_kind::recv;
    rcv.step = 1;
    rcv.from = 0;
    rcv.recv_bytes = 400;
    s.programs[dst].add(rcv, {}, {});
    const auto a = analytic::analyze(s, fabric::hypercube(6), analytic::switching::circuit, m);
    CHECK(*a.est.boppana == Approx(30 + i * 7.0 + i + 100 - 1));
  }
}

TEST_CASE("AAP on a circuit hypercube costs Boppana's T_aap", "[estimates][boppana]") {
  // §3.2: T_aap = sum_i C(n,i) (xi + (n-i) tau + (n-i) + k - 1)
  //             = k(N-1) + (xi-1)(N-1) + (1+tau)/2 n N.
  analytic::model_params m;
  m.xi = 154;
  m.tau = 23;
  for (std::uint32_t n = 1; n <= 7; ++n) {
    const std::uint64_t k = 100;
    double sum = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      sum += binom(n, i) * (m.xi + (n - i) * m.tau + (n - i) + static_cast<double>(k) - 1);
    }
    const double big_n = std::pow(2.0, n);
    const double closed = static_cast<double>(k) * (big_n - 1) + (m.xi - 1) * (big_n - 1) +
                          (1 + m.tau) / 2 * n * big_n;
    CHECK(sum == Approx(closed));
    const auto a =
        run(a2a_algorithm::aap, fabric::hypercube(n), k, m, analytic::switching::circuit);
    CHECK(*a.est.boppana == Approx(sum));
    CHECK(*a.est.boppana_paper == Approx(closed));
  }
}

TEST_CASE("Boppana's T_aap' closed form matches its first line", "[estimates][boppana]") {
  // §3.3: T_aap' = xi + n tau + xi + (n-1) tau + sum_i (n - i + k - 1) C(n,i)
  //              = (k-1)(N-1) + nN/2 + 2(xi + n tau) - tau.
  for (std::uint32_t n = 2; n <= 7; ++n) {
    const double xi = 154;
    const double tau = 23;
    const std::uint64_t k = 512;
    double sum = 2 * xi + n * tau + (n - 1) * tau;
    for (std::uint32_t i = 0; i < n; ++i) {
      sum += (n - i + static_cast<double>(k) - 1) * binom(n, i);
    }
    CHECK(analytic::boppana_aap_prime(n, k, xi, tau) == Approx(sum));
  }
}

TEST_CASE("Thakur's estimate sums alpha + L max(beta, f beta_sat) over rounds",
          "[estimates][thakur]") {
  // §2 with gamma = 1 (beta = 2 beta_sat): contention below 3 messages costs nothing.
  analytic::model_params m;
  m.alpha = 1000;
  m.beta = 1;
  const double beta_sat = 0.5;
  const auto a =
      run(a2a_algorithm::pex, fabric::mesh(16, 32), 4096, m, analytic::switching::wormhole);
  double expect = 0;
  double expect_paper = 0;
  for (std::size_t k = 0; k < a.per_round.size(); ++k) {
    const double f = a.per_round[k].max_link_load;
    const double fp = a.paper_f[k];
    expect += 1000 + 4096 * std::max(1.0, f * beta_sat);
    expect_paper += 1000 + 4096 * std::max(1.0, fp * beta_sat);
  }
  CHECK(a.est.thakur == Approx(expect));
  CHECK(*a.est.thakur_paper == Approx(expect_paper));
  CHECK(analytic::thakur_step(10, 100, 1, 0.5, 2) == Approx(110));
  CHECK(analytic::thakur_step(10, 100, 1, 0.5, 8) == Approx(410));
}

TEST_CASE("closed-form f(i) values by hand", "[estimates][thakur]") {
  // PEX, c = 32: i = 16 -> m = 16 -> 16; i = 3 -> m = 3 -> 4; i = 65 -> m = max(1, 2) -> 2.
  CHECK(analytic::thakur_f_pex(16, 32) == 16);
  CHECK(analytic::thakur_f_pex(3, 32) == 4);
  CHECK(analytic::thakur_f_pex(65, 32) == 2);
  // GEN, c = 4, p = 16: i = 6 -> min(2, 2) + min(1, 2) = 3; i = 13 -> min(1,3) + min(3,0) = 1.
  CHECK(analytic::thakur_f_gen(6, 4, 16) == 3);
  CHECK(analytic::thakur_f_gen(13, 4, 16) == 1);
}
