// Closed-form formulas from the papers, written as the papers give them.
#pragma once

#include <bit>
#include <cstdint>

namespace tessera::analytic {

// Thakur93 §3.1: the paper's maximum number of messages
// contending for a link at step i of PEX on a mesh with c columns:
//   f(i) = 2^ceil(lg max(mod(i, c), i / c))      (i / c is integer division)
constexpr std::uint32_t thakur_f_pex(std::uint32_t i, std::uint32_t c) {
  const std::uint32_t m = i % c > i / c ? i % c : i / c;
  return std::bit_ceil(m);
}

// Thakur §3.4: f(i) of GEN on an r x c mesh of p tiles:
//   f(i) = min[mod(i, c), c - mod(i, c)] + min[i / c, (p - i) / c]
constexpr std::uint32_t thakur_f_gen(std::uint32_t i, std::uint32_t c, std::uint32_t p) {
  const std::uint32_t a = i % c;
  const std::uint32_t x = a < c - a ? a : c - a;
  const std::uint32_t y = i / c < (p - i) / c ? i / c : (p - i) / c;
  return x + y;
}

// Thakur §2: time of one step, T = alpha + L max(beta, f beta_sat).
constexpr double thakur_step(double alpha, double bytes, double beta, double beta_sat,
                             std::uint32_t f) {
  const double contended = f * beta_sat;
  return alpha + bytes * (beta > contended ? beta : contended);
}

// Boppana90 §2: a k-element message over i hops on a
// circuit-switched hypercube takes xi + i tau + i + k - 1 time units.
constexpr double boppana_message(double xi, double tau, std::uint32_t hops, std::uint64_t k) {
  return xi + hops * tau + hops + static_cast<double>(k) - 1.0;
}

// Boppana §3.2: T_aap = k(N-1) + (xi-1)(N-1) + (1+tau)/2 n N.
constexpr double boppana_aap(std::uint32_t n, std::uint64_t k, double xi, double tau) {
  const double big_n = static_cast<double>(std::uint64_t{1} << n);
  return static_cast<double>(k) * (big_n - 1) + (xi - 1) * (big_n - 1) + (1 + tau) / 2 * n * big_n;
}

// Boppana §3.3: T_aap' = (k-1)(N-1) + nN/2 + 2(xi + n tau) - tau, assuming the path
// set-up of every step after the second overlaps the previous step's transmission.
constexpr double boppana_aap_prime(std::uint32_t n, std::uint64_t k, double xi, double tau) {
  const double big_n = static_cast<double>(std::uint64_t{1} << n);
  return (static_cast<double>(k) - 1) * (big_n - 1) + n * big_n / 2 + 2 * (xi + n * tau) - tau;
}

}  // namespace tessera::analytic
