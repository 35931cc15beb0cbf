// The `delta` fit and Tables 2-6 of Thakur, Choudhary, Fox
// (Thakur93), checked against values derived here.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "tessera/analytic/thakur_delta.hpp"

using namespace tessera;
using namespace tessera::analytic;

namespace {

// Exact PEX link load on an r x c mesh at step i (proven against an XY count in
// test_mesh_contention.cpp): 2^floor(lg max(i mod c, i div c)).
double pex_w(std::uint32_t rows, std::uint32_t cols) {
  double w = 0;
  for (std::uint32_t i = 1; i < rows * cols; ++i) {
    const std::uint32_t m = std::max(i % cols, i / cols);
    const double f = std::bit_floor(m);
    w += std::max(1.0, f / 2);  // gamma = 1
  }
  return w;
}

}  // namespace

TEST_CASE("the delta fit is the least-squares line through Table 2's 4x4 column") {
  // PEX on 4x4 never puts more than 2 messages on a link, so with gamma = 1 every
  // step costs alpha + L beta: T = 15 (alpha + L beta). Regress T / 15 on L.
  const double L[5] = {256, 1024, 4096, 8192, 16384};
  const double T[5] = {0.004, 0.008, 0.023, 0.034, 0.064};  // Table 2, 4 x 4
  double ml = 0, mt = 0;
  for (int k = 0; k < 5; ++k) {
    ml += L[k] / 5;
    mt += T[k] / 15 / 5;
  }
  double cov = 0, var = 0;
  for (int k = 0; k < 5; ++k) {
    cov += (L[k] - ml) * (T[k] / 15 - mt);
    var += (L[k] - ml) * (L[k] - ml);
  }
  const double beta = cov / var;
  const double alpha = mt - beta * ml;
  const delta_fit fit = fit_delta();
  CHECK(fit.alpha_s == Approx(alpha).epsilon(1e-9));
  CHECK(fit.beta_s == Approx(beta).epsilon(1e-9));
  CHECK(pex_w(4, 4) == 15.0);
}

TEST_CASE("predictions use the exact per-step link loads of each algorithm") {
  const delta_fit fit = fit_delta();
  const auto rows = thakur_reproduction(fit);
  REQUIRE(rows.size() == 5 * 25);
  int fitted = 0;
  for (const auto& r : rows)
    fitted += r.fitted ? 1 : 0;
  CHECK(fitted == 5);
  for (const auto& r : rows) {
    if (r.table != 2) continue;
    // PEX: S = p - 1 steps, W from the closed-form load.
    const double want =
        (r.rows * r.cols - 1) * fit.alpha_s + r.bytes * pex_w(r.rows, r.cols) * fit.beta_s;
    CHECK(r.model_s == Approx(want).epsilon(1e-12));
    CHECK(r.deviation == Approx((r.model_s - r.paper_s) / r.paper_s));
  }
  // Transcription spot checks against the paper's printed cells.
  CHECK(thakur_tables()[0].seconds[4][4] == 13.61);  // Table 2, 16 KB, 16 x 32
  CHECK(thakur_tables()[1].seconds[2][2] == 0.576);  // Table 3, 4 KB, 16 x 9
  CHECK(thakur_tables()[2].seconds[3][3] == 1.948);  // Table 4, 8 KB, 16 x 14
  CHECK(thakur_tables()[3].seconds[1][4] == 1.217);  // Table 5, 1 KB, 16 x 32
  CHECK(thakur_tables()[4].seconds[0][1] == 0.015);  // Table 6, 256 B, 6 x 8
}
