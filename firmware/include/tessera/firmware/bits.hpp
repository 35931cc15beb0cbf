// Small integer helpers shared by the collectives (freestanding, constexpr).
#pragma once

#include <bit>
#include <cstdint>

namespace tessera::fw {

constexpr bool is_pow2(std::uint32_t x) {
  return x != 0 && std::has_single_bit(x);
}

// Smallest power of two >= x (Thakur's q = 2^ceil(lg p)).
constexpr std::uint32_t ceil_pow2(std::uint32_t x) {
  return std::bit_ceil(x);
}

constexpr std::uint32_t log2_exact(std::uint32_t x) {
  return static_cast<std::uint32_t>(std::countr_zero(x));
}

// (a - b) mod n for a, b < n.
constexpr std::uint32_t sub_mod(std::uint32_t a, std::uint32_t b, std::uint32_t n) {
  return (a + n - b % n) % n;
}

constexpr std::uint64_t binomial(std::uint32_t n, std::uint32_t k) {
  if (k > n) return 0;
  if (k > n - k) k = n - k;
  std::uint64_t r = 1;
  for (std::uint32_t i = 1; i <= k; ++i)
    r = r * (n - k + i) / i;
  return r;
}

// The rank-th k-subset of {0..n-1} in lexicographic order of sorted tuples, as a bit mask.
constexpr std::uint32_t unrank_subset(std::uint32_t n, std::uint32_t k, std::uint64_t rank) {
  std::uint32_t mask = 0;
  std::uint32_t next = 0;
  for (std::uint32_t slot = 0; slot < k; ++slot) {
    for (std::uint32_t x = next; x < n; ++x) {
      const std::uint64_t with_x = binomial(n - x - 1, k - slot - 1);
      if (rank < with_x) {
        mask |= std::uint32_t{1} << x;
        next = x + 1;
        break;
      }
      rank -= with_x;
    }
  }
  return mask;
}

}  // namespace tessera::fw
