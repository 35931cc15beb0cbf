// The streaming latency histogram against percentiles computed from the sorted values
// themselves (nearest rank: the smallest value with at least ceil(p n / 100) values at
// or below it), and its bin layout against its stated resolution.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "tessera/net/latency_histogram.hpp"

namespace net = tessera::net;

namespace {

// The reference: sort and index.
std::uint64_t nearest_rank(std::vector<std::uint64_t> v, std::uint32_t percent) {
  std::sort(v.begin(), v.end());
  const double exact = static_cast<double>(percent) * static_cast<double>(v.size()) / 100.0;
  auto rank = static_cast<std::size_t>(exact);
  if (static_cast<double>(rank) < exact) ++rank;  // ceil
  rank = std::max<std::size_t>(rank, 1);
  return v[rank - 1];
}

net::latency_histogram fill(const std::vector<std::uint64_t>& v) {
  net::latency_histogram h;
  for (const std::uint64_t x : v)
    h.add(x);
  return h;
}

}  // namespace

TEST_CASE("latency histogram: hand-counted percentiles of 1..100", "[histogram]") {
  std::vector<std::uint64_t> v;
  for (std::uint64_t i = 100; i >= 1; --i)
    v.push_back(i);  // order must not matter
  const net::latency_histogram h = fill(v);
  CHECK(h.count() == 100);
  CHECK(h.min() == 1);
  CHECK(h.max() == 100);
  CHECK(h.percentile(0) == 1);
  CHECK(h.percentile(1) == 1);
  CHECK(h.percentile(50) == 50);
  CHECK(h.percentile(90) == 90);
  CHECK(h.percentile(99) == 99);
  CHECK(h.percentile(100) == 100);
}

TEST_CASE("latency histogram: a rare long latency shows only in the top percentiles",
          "[histogram]") {
  // Nine packets of 5 cycles and one of 1000: p90 is the 9th value (5), p99 the 10th.
  const net::latency_histogram h = fill({5, 5, 5, 1000, 5, 5, 5, 5, 5, 5});
  CHECK(h.percentile(50) == 5);
  CHECK(h.percentile(90) == 5);
  CHECK(h.percentile(91) == 1000);
  CHECK(h.percentile(99) == 1000);
  const auto bins = h.bins();
  REQUIRE(bins.size() == 2);
  CHECK(bins[0].lo == 5);
  CHECK(bins[0].hi == 5);
  CHECK(bins[0].count == 9);
  CHECK(bins[1].lo == 1000);
  CHECK(bins[1].count == 1);
}

TEST_CASE("latency histogram: empty and zero", "[histogram]") {
  net::latency_histogram h;
  CHECK(h.count() == 0);
  CHECK(h.percentile(50) == 0);
  CHECK(h.bins().empty());
  h.add(0);
  CHECK(h.count() == 1);
  CHECK(h.min() == 0);
  CHECK(h.max() == 0);
  CHECK(h.percentile(99) == 0);
}

TEST_CASE("latency histogram: bins tile every uint64 value at the stated resolution",
          "[histogram]") {
  using H = net::latency_histogram;
  // One bin per value below 1024.
  for (std::uint64_t v = 0; v < 1024; ++v) {
    CHECK(H::index(v) == v);
    CHECK(H::bin_lo(v) == v);
    CHECK(H::bin_hi(v) == v);
  }
  // 1024..2047 in bins of 2, 2048..4095 in bins of 4, ...
  CHECK(H::index(1024) == 1024);
  CHECK(H::index(1025) == 1024);
  CHECK(H::index(1026) == 1025);
  CHECK(H::bin_lo(H::index(2047)) == 2046);
  CHECK(H::bin_lo(H::index(2048)) == 2048);
  CHECK(H::bin_hi(H::index(2048)) == 2051);
  // Above 1024: contiguous, each bin at most 1/512 of its smallest value wide, and the
  // last bin ends at the largest uint64.
  std::size_t bad = 0;
  for (std::size_t i = 1024; i + 1 < H::max_bins; ++i) {
    const std::uint64_t lo = H::bin_lo(i);
    const std::uint64_t hi = H::bin_hi(i);
    if (H::bin_lo(i + 1) != hi + 1) ++bad;
    if (H::index(lo) != i || H::index(hi) != i) ++bad;
    if ((hi - lo + 1) * 512 > lo) ++bad;
  }
  CHECK(bad == 0);
  CHECK(H::bin_hi(H::max_bins - 1) == std::numeric_limits<std::uint64_t>::max());
  CHECK(H::index(std::numeric_limits<std::uint64_t>::max()) == H::max_bins - 1);
  CHECK(H::max_bins == 1024 + 54 * 512);
}

TEST_CASE("latency histogram: percentiles of random latencies against sorting", "[histogram]") {
  // Exponential latencies around 300 cycles with a heavy tail to millions: percentiles
  // below 1024 must be exact, above at least the true value and less than 1/512 over.
  std::mt19937_64 rng{7};
  std::exponential_distribution<double> body{1.0 / 300.0};
  std::uniform_int_distribution<std::uint64_t> tail{1024, 5'000'000};
  std::vector<std::uint64_t> v;
  for (int i = 0; i < 20000; ++i)
    v.push_back(i % 10 == 0 ? tail(rng) : static_cast<std::uint64_t>(body(rng)));
  const net::latency_histogram h = fill(v);
  CHECK(h.count() == v.size());
  CHECK(h.min() == *std::min_element(v.begin(), v.end()));
  CHECK(h.max() == *std::max_element(v.begin(), v.end()));
  int exact_checked = 0;
  int approx_checked = 0;
  for (std::uint32_t p = 0; p <= 100; ++p) {
    const std::uint64_t truth = nearest_rank(v, p);
    const std::uint64_t got = h.percentile(p);
    INFO("p" << p << " truth " << truth << " histogram " << got);
    if (truth < 1024) {
      CHECK(got == truth);
      ++exact_checked;
    } else {
      CHECK(got >= truth);
      CHECK((got - truth) * 512 < truth);
      CHECK(got <= h.max());
      ++approx_checked;
    }
  }
  CHECK(exact_checked > 50);   // the body
  CHECK(approx_checked >= 9);  // the tail: p91 .. p100 at least
  // Bins recount the values.
  std::uint64_t total = 0;
  for (const auto& b : h.bins()) {
    const auto n =
        std::count_if(v.begin(), v.end(), [&](std::uint64_t x) { return x >= b.lo && x <= b.hi; });
    CHECK(b.count == static_cast<std::uint64_t>(n));
    total += b.count;
  }
  CHECK(total == v.size());
}
