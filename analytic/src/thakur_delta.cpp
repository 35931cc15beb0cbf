#include "tessera/analytic/thakur_delta.hpp"

#include <algorithm>
#include <cmath>

#include "tessera/analytic/link_load.hpp"
#include "tessera/analytic/transfers.hpp"
#include "tessera/schedule/build.hpp"

namespace tessera::analytic {

const std::array<thakur_table, 5>& thakur_tables() {
  using A = fw::a2a_algorithm;
  static const std::array<thakur_table, 5> tables{{
      {2,
       A::pex,
       {{{4, 4}, {8, 8}, {16, 8}, {16, 16}, {16, 32}}},
       {256, 1024, 4096, 8192, 16384},
       {{{0.004, 0.022, 0.045, 0.094, 0.203},
         {0.008, 0.064, 0.120, 0.290, 0.860},
         {0.023, 0.114, 0.355, 0.999, 3.218},
         {0.034, 0.228, 0.692, 2.068, 6.794},
         {0.064, 0.441, 1.413, 4.145, 13.61}}}},
      {3,
       A::pex_gen,
       {{{4, 5}, {6, 8}, {16, 9}, {16, 14}, {16, 30}}},
       {256, 1024, 4096, 8192, 16384},
       {{{0.008, 0.019, 0.085, 0.092, 0.211},
         {0.017, 0.038, 0.191, 0.270, 0.899},
         {0.037, 0.091, 0.576, 0.977, 3.588},
         {0.073, 0.174, 1.188, 2.007, 7.616},
         {0.138, 0.333, 2.403, 4.056, 15.82}}}},
      {4,
       A::pex_gen_shift,
       {{{4, 5}, {6, 8}, {16, 9}, {16, 14}, {16, 30}}},
       {256, 1024, 4096, 8192, 16384},
       {{{0.008, 0.019, 0.085, 0.092, 0.211},
         {0.017, 0.038, 0.188, 0.263, 0.894},
         {0.036, 0.091, 0.543, 0.933, 3.526},
         {0.071, 0.170, 1.111, 1.948, 7.515},
         {0.129, 0.333, 2.242, 3.844, 15.74}}}},
      {5,
       A::gen,
       {{{4, 4}, {8, 8}, {16, 8}, {16, 16}, {16, 32}}},
       {256, 1024, 4096, 8192, 16384},
       {{{0.004, 0.016, 0.042, 0.089, 0.283},
         {0.008, 0.042, 0.123, 0.346, 1.217},
         {0.018, 0.145, 0.461, 1.220, 3.944},
         {0.037, 0.290, 0.933, 2.511, 8.007},
         {0.069, 0.576, 1.947, 5.052, 16.15}}}},
      {6,
       A::gen,
       {{{4, 5}, {6, 8}, {16, 9}, {16, 14}, {16, 30}}},
       {256, 1024, 4096, 8192, 16384},
       {{{0.004, 0.015, 0.046, 0.074, 0.246},
         {0.009, 0.027, 0.146, 0.285, 1.069},
         {0.025, 0.083, 0.527, 0.998, 3.706},
         {0.052, 0.186, 1.071, 2.011, 7.752},
         {0.098, 0.369, 2.182, 4.005, 15.94}}}},
  }};
  return tables;
}

step_weights thakur_weights(fw::a2a_algorithm alg, std::uint32_t rows, std::uint32_t cols) {
  const fabric f = fabric::mesh(rows, cols);
  const schedule s = build_alltoall(alg, f, 1);
  step_weights w;
  for (const round_load& r : round_loads(f, extract_transfers(s))) {
    ++w.steps;
    // gamma = 1: beta = 2 beta_sat, so max(beta, f beta_sat) = beta max(1, f / 2).
    w.w += std::max(1.0, r.max_link_load / 2.0);
  }
  return w;
}

two_term_fit least_squares(std::span<const double> x, std::span<const double> y,
                           std::span<const double> t) {
  double sxx = 0, sxy = 0, syy = 0, sxt = 0, syt = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
    syy += y[i] * y[i];
    sxt += x[i] * t[i];
    syt += y[i] * t[i];
  }
  const double det = sxx * syy - sxy * sxy;
  return {(sxt * syy - syt * sxy) / det, (syt * sxx - sxt * sxy) / det};
}

delta_fit fit_delta() {
  const thakur_table& t2 = thakur_tables()[0];
  const step_weights w = thakur_weights(t2.alg, t2.meshes[0][0], t2.meshes[0][1]);
  // T = S alpha + (L W) beta over the five cells.
  std::array<double, 5> x{}, y{}, t{};
  for (std::size_t row = 0; row < 5; ++row) {
    x[row] = w.steps;
    y[row] = t2.bytes[row] * w.w;
    t[row] = t2.seconds[row][0];
  }
  const two_term_fit f = least_squares(x, y, t);
  delta_fit fit;
  fit.alpha_s = f.a;
  fit.beta_s = f.b;
  double ss = 0;
  for (std::size_t row = 0; row < 5; ++row) {
    const double model = w.steps * fit.alpha_s + t2.bytes[row] * w.w * fit.beta_s;
    ss += (model - t2.seconds[row][0]) * (model - t2.seconds[row][0]);
  }
  fit.rms_s = std::sqrt(ss / 5);
  return fit;
}

std::vector<thakur_row> thakur_reproduction(const delta_fit& fit) {
  std::vector<thakur_row> rows;
  for (const thakur_table& t : thakur_tables()) {
    for (std::size_t col = 0; col < 5; ++col) {
      const std::uint32_t r = t.meshes[col][0];
      const std::uint32_t c = t.meshes[col][1];
      const step_weights w = thakur_weights(t.alg, r, c);
      for (std::size_t row = 0; row < 5; ++row) {
        thakur_row out;
        out.table = t.number;
        out.algorithm = fw::info(t.alg).name;
        out.rows = r;
        out.cols = c;
        out.bytes = t.bytes[row];
        out.paper_s = t.seconds[row][col];
        out.model_s = w.steps * fit.alpha_s + t.bytes[row] * w.w * fit.beta_s;
        out.deviation = (out.model_s - out.paper_s) / out.paper_s;
        out.fitted = t.number == 2 && col == 0;
        rows.push_back(out);
      }
    }
  }
  return rows;
}

}  // namespace tessera::analytic
