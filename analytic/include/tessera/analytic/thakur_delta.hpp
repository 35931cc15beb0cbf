// Thakur93 Tables 2-6: complete exchange
// measured on the Intel Touchstone Delta, and the `delta` machine fit.
//
// The paper's model (§2): a step costs alpha + L max(beta, f beta_sat) with
// beta = 2^gamma beta_sat and gamma = 1 on the Delta. With f(i) the exact largest
// number of messages on one directed link in step i (XY routes), an algorithm's time
// for L-byte blocks is
//     T(L) = S alpha + L beta W,   S = steps,   W = sum_i max(1, f(i) / 2).
// alpha and beta are fitted by least squares on the 4 x 4 column of Table 2 (PEX);
// every other cell of Tables 2-6 is then a prediction.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/firmware/complete_exchange.hpp"

namespace tessera::analytic {

struct thakur_table {
  std::uint32_t number;  // 2..6
  fw::a2a_algorithm alg;
  std::array<std::array<std::uint32_t, 2>, 5> meshes;  // rows x cols per column
  std::array<std::uint32_t, 5> bytes;                  // L per row
  std::array<std::array<double, 5>, 5> seconds;        // [row][column]
};

// The five tables as printed.
const std::array<thakur_table, 5>& thakur_tables();

// S and W of an algorithm on an R x C mesh, from the exact per-step link loads.
struct step_weights {
  std::uint32_t steps{0};
  double w{0};
};
step_weights thakur_weights(fw::a2a_algorithm alg, std::uint32_t rows, std::uint32_t cols);

struct delta_fit {
  double alpha_s{0};  // start-up per step, seconds
  double beta_s{0};   // seconds per byte on an uncontended link
  double rms_s{0};    // residual of the fit over its five points
};

// The a and b that minimise sum over i of (x_i a + y_i b - t_i)^2 (the 2 x 2 normal
// equations); the fits of the delta model, closed-form here and on the platform.
struct two_term_fit {
  double a{0};
  double b{0};
};
two_term_fit least_squares(std::span<const double> x, std::span<const double> y,
                           std::span<const double> t);

// Least squares of T = S alpha + L beta W over Table 2's 4 x 4 column.
delta_fit fit_delta();

struct thakur_row {
  std::uint32_t table{0};
  std::string_view algorithm;
  std::uint32_t rows{0};
  std::uint32_t cols{0};
  std::uint32_t bytes{0};
  double paper_s{0};
  double model_s{0};
  double deviation{0};  // (model - paper) / paper
  bool fitted{false};   // one of the five cells the fit used
};

std::vector<thakur_row> thakur_reproduction(const delta_fit& fit);

}  // namespace tessera::analytic
