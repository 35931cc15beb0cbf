// A latency histogram of bounded size, so a run's statistics do not grow with its
// length. Values below 2^exact_bits (1024 cycles) have a bin each, so percentiles
// there are exact; above, every power of two [2^m, 2^(m+1)) is cut into 2^sub_bits
// (512) equal bins, each at most 1/512 of the values it holds wide (HdrHistogram's
// layout). At most 28672 bins (224 KiB) cover every uint64 value; bins are allocated
// up to the largest value seen.
//
// Percentiles use the nearest rank: the p-th percentile of n values is the smallest
// value v such that at least ceil(p n / 100) of them are <= v. The histogram answers
// with the top of the bin holding that value, capped at the largest value added: exact
// below 1024, and otherwise at least the true percentile and less than 1/512 (0.2 %)
// above it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::net {

class latency_histogram {
 public:
  static constexpr unsigned exact_bits = 10;
  static constexpr unsigned sub_bits = 9;
  static constexpr std::uint64_t exact_limit = std::uint64_t{1} << exact_bits;
  static constexpr std::size_t max_bins =
      exact_limit + (64 - exact_bits) * (std::size_t{1} << sub_bits);

  struct bin {
    std::uint64_t lo{0};  // smallest value the bin holds
    std::uint64_t hi{0};  // largest
    std::uint64_t count{0};
  };

  void add(std::uint64_t v) {
    const std::size_t i = index(v);
    if (i >= counts_.size()) counts_.resize(i + 1, 0);
    ++counts_[i];
    min_ = count_ == 0 ? v : std::min(min_, v);
    max_ = std::max(max_, v);
    ++count_;
  }

  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] std::uint64_t min() const { return min_; }  // 0 when empty
  [[nodiscard]] std::uint64_t max() const { return max_; }

  // The rank-th smallest value (1-based), up to its bin's resolution; 0 when empty.
  [[nodiscard]] std::uint64_t value_at_rank(std::uint64_t rank) const {
    if (count_ == 0) return 0;
    rank = std::clamp<std::uint64_t>(rank, 1, count_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) return std::min(bin_hi(i), max_);
    }
    return max_;  // unreachable: the counts add up to count_
  }

  // Nearest-rank percentile, percent in 0..100 (0 gives the minimum's bin).
  [[nodiscard]] std::uint64_t percentile(std::uint32_t percent) const {
    const std::uint64_t p = std::min<std::uint32_t>(percent, 100);
    // ceil(p n / 100) without overflowing p n.
    const std::uint64_t rank = p * (count_ / 100) + (p * (count_ % 100) + 99) / 100;
    return value_at_rank(rank);
  }

  // The bins that hold anything, in increasing order.
  [[nodiscard]] std::vector<bin> bins() const {
    std::vector<bin> out;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      if (counts_[i] != 0) out.push_back(bin{bin_lo(i), bin_hi(i), counts_[i]});
    }
    return out;
  }

  [[nodiscard]] static std::size_t index(std::uint64_t v) {
    if (v < exact_limit) return static_cast<std::size_t>(v);
    const auto m = static_cast<unsigned>(std::bit_width(v) - 1);  // exact_bits..63
    const std::uint64_t sub = (v >> (m - sub_bits)) - (std::uint64_t{1} << sub_bits);
    return static_cast<std::size_t>(exact_limit +
                                    (m - exact_bits) * (std::uint64_t{1} << sub_bits) + sub);
  }
  [[nodiscard]] static std::uint64_t bin_lo(std::size_t i) {
    if (i < exact_limit) return i;
    const std::uint64_t k = i - exact_limit;
    const unsigned m = exact_bits + static_cast<unsigned>(k >> sub_bits);
    const std::uint64_t sub = k & ((std::uint64_t{1} << sub_bits) - 1);
    return ((std::uint64_t{1} << sub_bits) + sub) << (m - sub_bits);
  }
  [[nodiscard]] static std::uint64_t bin_hi(std::size_t i) {
    if (i < exact_limit) return i;
    const unsigned m = exact_bits + static_cast<unsigned>((i - exact_limit) >> sub_bits);
    return bin_lo(i) + ((std::uint64_t{1} << (m - sub_bits)) - 1);
  }

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_{0};
  std::uint64_t min_{0};
  std::uint64_t max_{0};
};

}  // namespace tessera::net
