// Operating-system jitter in front of an engine (net/jitter_engine.hpp), the variability
// behind Bokhari's envelopes ("Complete Exchange on the iPSC-860" §6, Figures 12-13).
// Expected values come from the distribution's definition and from the alpha-beta
// engine's ts + tw m (Grama, "Basic Communication Operations", slide 4).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "tessera/net/alphabeta_engine.hpp"
#include "tessera/net/jitter_engine.hpp"
#include "tessera/net/replay.hpp"

#include "timed_msg.hpp"

namespace net = tessera::net;

using tessera::test::msg;

TEST_CASE("jitter: the delays are exponential with the given mean", "[jitter]") {
  // floor of an exponential with mean m: P(D >= k) = exp(-k / m), E[D] = 1/(e^{1/m} - 1),
  // about m - 1/2. Over 200,000 draws (fixed: the draws are a hash of seed, tile and
  // number) the sample mean is within 1 % and the tail fractions within 0.005.
  const std::uint64_t mean = 400;
  const int n = 200000;
  double sum = 0;
  int over_mean = 0;
  int over_3mean = 0;
  for (int i = 0; i < n; ++i) {
    const net::cycle_t d = net::jitter_delay(7, static_cast<std::uint32_t>(i % 64),
                                             static_cast<std::uint64_t>(i / 64), mean);
    sum += static_cast<double>(d);
    if (d >= mean) ++over_mean;
    if (d >= 3 * mean) ++over_3mean;
  }
  const double expected = 1.0 / std::expm1(1.0 / static_cast<double>(mean));
  CHECK(std::fabs(sum / n - expected) < 0.01 * expected);
  CHECK(std::fabs(over_mean / static_cast<double>(n) - std::exp(-1.0)) < 0.005);
  CHECK(std::fabs(over_3mean / static_cast<double>(n) - std::exp(-3.0)) < 0.005);
  // Same inputs, same draw; another seed, another draw; mean 0, no delay.
  CHECK(net::jitter_delay(7, 3, 5, mean) == net::jitter_delay(7, 3, 5, mean));
  CHECK(net::jitter_delay(7, 3, 5, mean) != net::jitter_delay(8, 3, 5, mean));
  CHECK(net::jitter_delay(7, 3, 5, 0) == 0);
}

TEST_CASE("jitter: a message starts its draw later, and a tile's messages keep their order",
          "[jitter]") {
  const std::uint64_t mean = 50;
  const std::uint64_t seed = 3;
  auto e = std::make_unique<net::alphabeta_engine>(4, net::alphabeta_params{10, 1});
  net::jitter_engine j{std::move(e), 4, mean, seed};
  const auto r = net::replay(j, {msg(1, 0, 1, 20, 5), msg(2, 0, 2, 0, 6), msg(3, 3, 2, 8, 0)});
  const net::cycle_t d0 = net::jitter_delay(seed, 0, 0, mean);
  const net::cycle_t d1 = net::jitter_delay(seed, 0, 1, mean);
  const net::cycle_t d3 = net::jitter_delay(seed, 3, 0, mean);
  // Tile 0's first message reaches the NIC at 5 + d0 and takes ts + tw m = 10 + 20.
  CHECK(r[0].started == 5 + d0);
  CHECK(r[0].delivered == 5 + d0 + 30);
  // Its second is released at max(6 + d1, 5 + d0), and the NIC is busy until the
  // first is delivered.
  const net::cycle_t released = std::max<net::cycle_t>(6 + d1, 5 + d0);
  CHECK(r[1].started == std::max<net::cycle_t>(released, 5 + d0 + 30));
  CHECK(r[2].started == d3);
  CHECK(r[2].delivered == d3 + 10 + 8);
  CHECK(j.idle());
  CHECK(j.total_delay() == d0 + d1 + d3);
}

TEST_CASE("jitter: jitter_percent hits that share of messages, the rest go at once", "[jitter]") {
  // Rare large delays (an interrupt, a timer tick) rather than every message: with 5 %
  // of 100,000 messages hit the share is within 0.3 points, and a message not hit has
  // no delay in the engine.
  int hits = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i)
    if (net::jitter_hit(9, static_cast<std::uint32_t>(i % 32), static_cast<std::uint64_t>(i / 32),
                        5))
      ++hits;
  CHECK(std::fabs(hits / static_cast<double>(n) - 0.05) < 0.003);
  CHECK(net::jitter_hit(9, 1, 2, 100));
  // Whether a message is hit does not depend on its delay's draw: both come from the
  // same (seed, tile, number), through independent hashes.
  auto e = std::make_unique<net::alphabeta_engine>(2, net::alphabeta_params{10, 1});
  net::jitter_engine j{std::move(e), 2, 500, 9, 5};
  std::vector<net::timed_xfer> msgs;
  for (std::uint64_t i = 0; i < 40; ++i)
    msgs.push_back(msg(i + 1, 0, 1, 0, i * 2000));
  const auto r = net::replay(j, msgs);
  net::cycle_t expected_total = 0;
  net::cycle_t released = 0;
  net::cycle_t nic_free = 0;
  for (std::uint64_t i = 0; i < 40; ++i) {
    const bool hit = net::jitter_hit(9, 0, i, 5);
    const net::cycle_t d = hit ? net::jitter_delay(9, 0, i, 500) : 0;
    expected_total += d;
    // Released after its delay and not before the tile's previous message; started
    // when the NIC is free (a zero-byte message holds it ts = 10 cycles).
    released = std::max(i * 2000 + d, released);
    CHECK(r[i].started == std::max(released, nic_free));
    nic_free = r[i].started + 10;
  }
  CHECK(j.total_delay() == expected_total);
}
