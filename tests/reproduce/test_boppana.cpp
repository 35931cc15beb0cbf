// `reproduce boppana` (Boppana, Raghavendra, "Optimal and Practical Routing Methods for
// a Massive Data Movement Operation on Hypercubes"): the rows' paper values are the
// paper's formulas, evaluated here from §3.2-3.3 and Table 1, and every row passes.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "find_row.hpp"
#include "tessera/reproduce/reproduce.hpp"

using namespace tessera::reproduce;
using tessera::test::find_row;

TEST_CASE("reproduce boppana: T_aap, eta, T_aap' and Table 1 as the paper states them",
          "[reproduce]") {
  const paper_report r = run("boppana", options{});
  INFO(r.failed() << " rows failed");
  CHECK(r.pass());
  // T_aap = sum over phases i of (xi + (n-i) tau + (n-i) + k - 1) C(n, i), added up here
  // phase by phase (not the closed form), with the preset's xi 154 and tau 23, k = 100.
  for (int n = 1; n <= 7; ++n) {
    double sum = 0;
    double choose = 1;  // C(n, i)
    for (int i = 0; i < n; ++i) {
      sum += (154 + (n - i) * 23 + (n - i) + 100 - 1) * choose;
      choose = choose * (n - i) / (i + 1);
    }
    const row* x =
        find_row(r, "§3.2, T_aap", "AAP, n = " + std::to_string(n) + ", k = 100, xi 154, tau 23");
    INFO("n = " << n);
    REQUIRE(x != nullptr);
    CHECK(x->paper == sum);
    CHECK(x->simulated == sum);  // the engine is held to the paper's step times exactly
  }
  // §3.2's example: 128 processors, 100-byte messages, eta = 3.37.
  const row* eta = find_row(r, "§3.2, eta at n = 7", "T_aap / k(N-1), n = 7, k = 100");
  REQUIRE(eta != nullptr);
  CHECK(eta->paper == 3.37);
  CHECK(eta->simulated == Approx(3.37).epsilon(0.01));
  // §3.3 on the 2-cube: (k-1)(N-1) + nN/2 + 2(xi + n tau) - tau = 999 x 3 + 4 + 2 x 200 - 23.
  const row* prime = find_row(r, "§3.3, T_aap'", "AAP', n = 2, k = 1000, xi 154, tau 23");
  REQUIRE(prime != nullptr);
  CHECK(prime->paper == 999 * 3 + 4 + 2 * (154 + 2 * 23) - 23);
  CHECK(prime->simulated == prime->paper);
  // Table 1 on the 7-cube: the all-to-all personalized send/receive bound k(N-1) = 12700
  // and bandwidth bound kN/2 = 6400.
  const std::string a2a = "all-to-all personalized (aap), n = 7, k = 100";
  const row* sr = find_row(r, "Table 1, send/receive argument", a2a);
  const row* bw = find_row(r, "Table 1, bandwidth argument", a2a);
  REQUIRE(sr != nullptr);
  REQUIRE(bw != nullptr);
  CHECK(sr->paper == 12700);
  CHECK(bw->paper == 6400);
  CHECK(r.figures.size() == 1);
}
