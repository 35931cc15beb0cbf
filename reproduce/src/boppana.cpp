// Boppana, Raghavendra, "Optimal and Practical Routing Methods for a Massive Data
// Movement Operation on Hypercubes": the all-to-all personalized communication by AAP
// (§3.2) and AAP' (§3.3) on the circuit-switched hypercube, with the paper's iPSC/860
// constants (the ipsc860-boppana preset), and the lower bounds of Table 1 against the
// simulated operations. Every run is the TLM platform's, its messages checked byte by byte.
#include <cmath>
#include <string>

#include "papers.hpp"
#include "tessera/analytic/closed_form.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/run/run.hpp"

namespace tessera::reproduce {
namespace {

constexpr const char* machine = "ipsc860-boppana";
// The paper's constants (§3.2) and the preset's, in units of 0.425 us.
constexpr double unit_us = 0.425;
constexpr double paper_xi_1 = 152.94;  // xi - 1
constexpr double paper_1_tau = 23.53;  // 1 + tau
constexpr double preset_xi = 154;
constexpr double preset_tau = 23;

}  // namespace

paper_report boppana(const boppana_options& o) {
  paper_report r;
  r.paper = "boppana";
  r.model_name = o.model;
  r.title =
      "Boppana, Raghavendra, \"Optimal and Practical Routing Methods for a Massive Data "
      "Movement Operation on Hypercubes\" (1990): AAP, AAP' and the lower bounds of Table 1";
  r.model =
      o.model + ", circuit switching, preset " + machine + " (0.425 us a unit, xi 154, tau 23)";

  auto simulate = [&](std::uint32_t n, fw::collective coll, const char* alg, std::uint32_t k,
                      bool presetup) -> double {
    run::run_config cfg =
        collective_config("hypercube:" + std::to_string(n), fabric::hypercube(n), coll, alg, k);
    cfg.model = o.model;
    cfg.machine = machine;
    if (presetup) cfg.params = {{"presetup", "1"}};
    return simulate_cycles(std::move(cfg));
  };

  // §3.2: T_aap for n = 1..7 and k = 100 bytes, on the preset's whole-cycle constants
  // (exact) and on the paper's (within what rounding them moves).
  const double k = o.k;
  double aap7 = 0;
  figure fig{.id = "boppana-aap",
             .title = "Boppana, Raghavendra: all-to-all personalized on the iPSC/860",
             .source = "T_aap (k = " + std::to_string(o.k) +
                       ") and T_aap' (k = " + std::to_string(o.k_prime) + "), sections 3.2-3.3",
             .x_label = "n, hypercube dimension",
             .y_label = "time, us",
             .log_y = true};
  series aap_paper{"T_aap, paper's constants", true, {}, "aap"};
  series aap_sim{"AAP, simulated", false, {}, "aap"};
  series prime_paper{"T_aap', paper", true, {}, "prime"};
  series prime_sim{"AAP' with pre-setup, simulated", false, {}, "prime"};
  for (std::uint32_t n = 1; n <= 7; ++n) {
    const double sim = simulate(n, fw::collective::alltoall, "aap", o.k, false);
    if (n == 7) aap7 = sim;
    const std::string what = "AAP, n = " + std::to_string(n) + ", k = " + std::to_string(o.k);
    row exact;
    exact.id = "boppana.aap.n" + std::to_string(n);
    exact.source = "§3.2, T_aap";
    exact.what = what + ", xi 154, tau 23";
    exact.unit = "units";
    exact.paper = analytic::boppana_aap(n, o.k, preset_xi, preset_tau);
    exact.simulated = sim;
    exact.formula = "k(N-1) + (xi-1)(N-1) + (1+tau) n N / 2";
    exact.tol = tolerance::exact(
        "the circuit engine times each vector reversal as xi + i tau + "
        "i + k - 1, the sum the formula adds up");
    r.rows.push_back(exact);
    // With the paper's constants, in microseconds: the rounding moves T by
    // (N-1) x 0.06 + n N / 2 x 0.47 units, the tolerance.
    const double N = std::pow(2.0, n);
    const double paper = analytic::boppana_aap(n, o.k, paper_xi_1 + 1, paper_1_tau - 1);
    const double moved =
        (N - 1) * (preset_xi - 1 - paper_xi_1) + n * N / 2 * (1 + preset_tau - paper_1_tau);
    row us;
    us.id = "boppana.aap-us.n" + std::to_string(n);
    us.source = "§3.2, T_aap on the iPSC/860";
    us.what = what + ", xi - 1 = 152.94, 1 + tau = 23.53";
    us.unit = "us";
    us.paper = paper * unit_us;
    us.simulated = sim * unit_us;
    us.formula = "(k(N-1) + 152.94 (N-1) + 23.53 n N / 2) x 0.425 us";
    us.tol = tolerance::relative(
        moved / paper, "rounding xi and tau to whole cycles adds (N-1) 0.06 + n N 0.47 / 2 units");
    r.rows.push_back(us);
    aap_paper.points.emplace_back(n, paper * unit_us);
    aap_sim.points.emplace_back(n, sim * unit_us);
  }
  {
    // §3.2: eta = T_aap / T_min = 3.37 for n = 7, k = 100 on the iPSC/860.
    row eta;
    eta.id = "boppana.eta.n7";
    eta.source = "§3.2, eta at n = 7";
    eta.what = "T_aap / k(N-1), n = 7, k = " + std::to_string(o.k);
    eta.unit = "";
    eta.paper = 3.37;
    eta.simulated = aap7 / (k * 127);
    // The paper's 3.37 is its formula at 3.359 with its own constants (rounded up by
    // 0.011); the preset's rounding adds 0.51 %. Together, 0.9 %.
    eta.tol = tolerance::relative(
        0.009,
        "the paper's 3.37 is 0.3 % above its formula's 3.359, and rounding xi and tau "
        "to whole cycles adds 0.51 %");
    eta.formula = "1 + (xi-1)/k + (1+tau) n N / (2 k (N-1))";
    r.rows.push_back(eta);
  }

  // §3.3: AAP' with paths set up in advance, for k > xi + (n-1) tau (the paper's
  // condition): k = 1000 > 154 + 6 x 23.
  for (std::uint32_t n = 2; n <= 7; ++n) {
    const double sim = simulate(n, fw::collective::alltoall, "aap-prime", o.k_prime, true);
    const double plain = simulate(n, fw::collective::alltoall, "aap-prime", o.k_prime, false);
    row x;
    x.id = "boppana.aap-prime.n" + std::to_string(n);
    x.source = "§3.3, T_aap'";
    x.what = "AAP', n = " + std::to_string(n) + ", k = " + std::to_string(o.k_prime) +
             ", xi 154, tau 23";
    x.unit = "units";
    x.paper = analytic::boppana_aap_prime(n, o.k_prime, preset_xi, preset_tau);
    x.simulated = sim;
    x.formula = "(k-1)(N-1) + n N / 2 + 2 (xi + n tau) - tau";
    prime_paper.points.emplace_back(n, x.paper * unit_us);
    prime_sim.points.emplace_back(n, sim * unit_us);
    if (n == 2) {
      x.tol = tolerance::exact(
          "every path after the second is set up while the previous step "
          "streams, as the paper assumes");
    } else {
      x.tol = tolerance::at_least(
          "for n >= 3 consecutive steps share dimensions in every order, so some set-ups "
          "cannot overlap (docs/tlm.md): the paper's figure is a floor");
    }
    r.rows.push_back(x);
    row c;
    c.id = "boppana.aap-prime-saves.n" + std::to_string(n);
    c.source = "§3.3, AAP' saves set-up time";
    c.what = "AAP' with pre-setup below AAP, n = " + std::to_string(n) +
             ", k = " + std::to_string(o.k_prime);
    c.paper = 1;
    c.simulated = sim < plain ? 1 : 0;
    c.tol = tolerance::claim(
        "the paper: overlapping set-up with transmission reduces the "
        "overhead");
    r.rows.push_back(c);
  }

  fig.curves = {aap_sim, aap_paper, prime_sim, prime_paper};
  r.figures.push_back(std::move(fig));

  // Table 1: the lower bounds (send/receive and bandwidth arguments) against the
  // simulated operations, k = 100 bytes, units of one byte's time.
  struct op {
    const char* name;
    fw::collective coll;
    const char* alg;
  };
  const op ops[] = {{"one-to-all broadcast", fw::collective::bcast, "binomial"},
                    {"one-to-all personalized", fw::collective::scatter, "binomial"},
                    {"all-to-all broadcast", fw::collective::allgather, "hypercube"},
                    {"all-to-all personalized", fw::collective::alltoall, "aap"}};
  for (const std::uint32_t n : {3U, 7U}) {
    const double N = std::pow(2.0, n);
    for (const op& x : ops) {
      const double sim = simulate(n, x.coll, x.alg, o.k, false);
      double send_receive = 0;
      double bandwidth = 0;
      switch (x.coll) {
        case fw::collective::bcast:
          send_receive = k;
          bandwidth = k / n;
          break;
        case fw::collective::scatter:
          send_receive = k * (N - 1);
          bandwidth = k / 2;
          break;
        case fw::collective::allgather:
          send_receive = k * (N - 1);
          bandwidth = k * (N - 1) / n;
          break;
        default:
          send_receive = k * (N - 1);
          bandwidth = k * N / 2;
          break;
      }
      const std::string what = std::string(x.name) + " (" + x.alg + "), n = " + std::to_string(n) +
                               ", k = " + std::to_string(o.k);
      for (const auto& [arg, bound] :
           {std::pair{"send/receive", send_receive}, std::pair{"bandwidth", bandwidth}}) {
        row b;
        b.id = "boppana.table1." + id_part(x.name) + "." + id_part(arg) + ".n" + std::to_string(n);
        b.source = std::string("Table 1, ") + arg + " argument";
        b.what = what;
        b.unit = "units";
        b.paper = bound;
        b.simulated = sim;
        b.tol = tolerance::at_least("no routing can beat a lower bound");
        r.rows.push_back(b);
      }
    }
  }
  return r;
}

}  // namespace tessera::reproduce
