// The wormhole engines' paced injection (inject_gap) and virtual channels (vcs) against
// the closed forms of docs/wormhole.md ("Paced injection", "Virtual channels") and against
// the flit-by-flit reference: the flit engine exactly against the real router
// (link_share::round_robin, vc_share=round-robin), the closed form exactly against the
// fixed shares (link_share::fixed, vc_share=fixed) and within the derived bounds of the
// real router.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "wormhole_test_util.hpp"

using namespace tessera;
using namespace tessera::net;
using namespace wormhole_test;

TEST_CASE("paced injection: a lone packet takes 1 + max(g(F-1) + h + 1 + lag, (h+1)(r+1) + F - 1)",
          "[wormhole]") {
  // docs/wormhole.md, "Paced injection". The (h+1)(r+1) + (F-1)g + 1 holds for
  // r = 0 (and 1 + d <= gB) only: body flits pay no router delay, so with r > 0 the tail
  // catches up with the header's r per hop while the NIC is still pacing (the reference
  // decides).
  const fabric f = fabric::mesh(4, 4);
  const std::vector<std::uint32_t> dsts{0, 1, 3, 7, 15};  // 0, 1, 3, 4, 6 hops
  for (std::uint32_t d : {0U, 1U, 2U}) {
    for (std::uint32_t gap : {2U, 3U, 5U}) {
      for (std::uint32_t r : {0U, 1U, 3U}) {
        for (std::uint32_t b : {1U, 2U, 4U}) {
          for (std::uint64_t flits : {1ULL, 2ULL, 5ULL, 9ULL, 40ULL}) {
            for (std::uint32_t dst : dsts) {
              const wormhole_params p{
                  .width = 4, .router_delay = r, .buffer = b, .inject_gap = gap, .credit_delay = d};
              const std::uint32_t h = hops(f, 0, dst);
              const auto t = require_agreement(f, p, {{0, dst, flits * 4, 0}});
              INFO(describe(p) << " F " << flits << " h " << h);
              CHECK(t[0].delivered == paced_zero_load(h, p, flits, 1));
              if (r == 0 && 1 + d <= gap * b)
                CHECK(t[0].delivered == (h + 1) * (r + 1) + (flits - 1) * gap + 1);
            }
          }
        }
      }
    }
  }
  // r = 1, g = 2, h = 3, F = 9, d = 1: the tail leaves the NIC at 16 and crosses 4
  // channels; the formula would say 4 x 2 + 8 x 2 + 1 = 25.
  const wormhole_params p{.width = 4, .router_delay = 1, .buffer = 4, .inject_gap = 2};
  CHECK(require_agreement(f, p, {{0, 3, 36, 0}})[0].delivered == 21);
}

TEST_CASE("paced injection with a slow credit loop: B flits per 1 + d cycles at the NIC",
          "[wormhole]") {
  // B = 1, g = 2, d = 3, derived flit by flit on a 1x2 mesh (h = 1, r = 0). Flit 0
  // crosses the injection channel, link 0->1 and the ejection at 0, 1, 2. Flit f >= 1
  // crosses the injection channel d cycles after flit f-1 left the local FIFO (over
  // link 0->1), and link 0->1 d cycles after flit f-1 left router 1's FIFO (over the
  // ejection): flit f at 4f, 4f + 1, 4f + 2, 1 + d = 4 cycles per flit where the NIC's
  // pace alone would take g = 2. F flits are delivered at (F-1)(1+d) + 3.
  const fabric f = fabric::mesh(1, 2);
  for (std::uint64_t flits : {1ULL, 2ULL, 3ULL, 6ULL}) {
    const wormhole_params p{
        .width = 4, .router_delay = 0, .buffer = 1, .inject_gap = 2, .credit_delay = 3};
    const auto t = require_agreement(f, p, {{0, 1, flits * 4, 0}});
    INFO("F " << flits);
    CHECK(t[0].delivered == (flits - 1) * (1 + 3) + 3);
    CHECK(t[0].delivered == paced_zero_load(1, p, flits, 1));
  }
}

TEST_CASE("paced injection: P packets take (P-1) g F more than one when B >= r + 1 + d",
          "[wormhole]") {
  // The NIC's stream is paced across packets: packet p+1's header leaves g after packet
  // p's tail, so the NIC sends one flit every g cycles for the whole message; with
  // B >= r + 1 + d nothing downstream holds it back (docs/wormhole.md, "Paced
  // injection").
  const fabric f = fabric::mesh(3, 4);
  for (std::uint32_t d : {0U, 1U, 2U}) {
    for (std::uint32_t gap : {2U, 3U}) {
      for (std::uint32_t r : {0U, 1U, 2U}) {
        for (std::uint32_t extra : {0U, 2U}) {
          for (std::uint64_t packets : {2ULL, 5ULL}) {
            for (std::uint64_t flits : {1ULL, 3ULL, 8ULL}) {
              for (std::uint32_t dst : {3U, 11U}) {
                const wormhole_params p{.width = 4,
                                        .router_delay = r,
                                        .buffer = r + 1 + d + extra,
                                        .alpha = 3,
                                        .packet_bytes = flits * 4,
                                        .inject_gap = gap,
                                        .credit_delay = d};
                const auto t = require_agreement(f, p, {{0, dst, packets * flits * 4, 0}});
                INFO(describe(p) << " P " << packets << " F " << flits << " dst " << dst);
                CHECK(t[0].delivered ==
                      (packets - 1) * gap * flits + paced_zero_load(hops(f, 0, dst), p, flits, 1));
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("paced injection: the next message starts the cycle after the last flit left the NIC",
          "[wormhole]") {
  const fabric f = fabric::mesh(2, 3);
  for (std::uint32_t d : {0U, 1U, 2U}) {
    const wormhole_params p{
        .width = 2, .router_delay = 2, .buffer = 3, .alpha = 7, .inject_gap = 3, .credit_delay = d};
    const auto t = require_agreement(f, p, {{0, 5, 10, 3}, {0, 1, 4, 4}});
    // Five flits, the header at 3 + 7 and then one every 3 cycles: the last at 10 + 12.
    // The credits never bind: flit 3, due at 19, takes the slot the header left at
    // 10 + 1 + r = 13 (back by 13 + d), flit 4, due at 22, the one flit 1 left at 14.
    INFO("d " << d);
    CHECK(t[1].started == 3 + 7 + 4 * 3 + 1);
    CHECK(t[1].delivered == t[1].started + paced_zero_load(hops(f, 0, 1), p, 2, 1));
  }
}

// ---- virtual channels (vcs) ----

TEST_CASE("virtual channels: a lone packet has the whole link, the fixed shares bounded against it",
          "[wormhole]") {
  // Round robin lets a lone packet use the whole link: its time is one VC's, s = 1. The
  // fixed shares give each VC 1/vcs of every link, so its body follows its header at
  // s = vcs cycles per flit. With
  // g >= s the NIC is the slower of the two except while the body catches up with the
  // header's r per hop: at most (h+1) r cycles (docs/wormhole.md, "Virtual channels").
  const fabric f = fabric::mesh(4, 4);
  for (std::uint32_t d : {0U, 1U, 2U}) {
    for (std::uint32_t vcs : {2U, 3U}) {
      for (std::uint32_t gap : {1U, vcs, vcs + 1}) {
        for (std::uint32_t r : {0U, 1U, 3U}) {
          for (std::uint32_t b : {1U, 4U}) {
            for (std::uint64_t flits : {1ULL, 5ULL, 40ULL}) {
              for (std::uint32_t dst : {1U, 7U, 15U}) {
                const wormhole_params p{.width = 4,
                                        .router_delay = r,
                                        .buffer = b,
                                        .inject_gap = gap,
                                        .vcs = vcs,
                                        .share = vc_share::fixed,
                                        .credit_delay = d};
                wormhole_params rr = p;
                rr.share = vc_share::round_robin;
                const std::uint32_t h = hops(f, 0, dst);
                const auto e = require_agreement(f, p, {{0, dst, flits * 4, 0}});
                const auto real = require_agreement(f, rr, {{0, dst, flits * 4, 0}});
                INFO(describe(p) << " F " << flits << " h " << h);
                CHECK(e[0].delivered == paced_zero_load(h, p, flits, vcs));
                CHECK(real[0].delivered == paced_zero_load(h, p, flits, 1));
                CHECK(e[0].delivered >= real[0].delivered);
                if (gap >= vcs) {
                  CHECK(e[0].delivered - real[0].delivered <= (h + 1) * cycle_t{r});
                } else {
                  CHECK(e[0].delivered - real[0].delivered <= (vcs - 1) * (flits - 1));
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("Thakur sharing (vcs 2, gap 2): two messages on a link cost nothing, more share it",
          "[wormhole]") {
  // Thakur et al.: T = alpha + L max(beta, f beta_sat) with beta = 2 beta_sat on the
  // Delta. A NIC that injects at half the link rate (gap 2) and two VCs per link: f = 2
  // messages on one link each keep their own half; f = 4 take twice as long. With one
  // packet per message a VC is held for a whole message, so of f = 3 two run at full
  // speed and the third waits for a VC (about 2x); split into packets, the three share
  // the link (about 3/2, Thakur's 3 beta_sat). Row 1 x 2n, message s -> s + n for s < n:
  // all n cross link n-1 -> n; every message has n hops.
  const std::uint64_t bytes = 4096;  // 1024 flits
  for (std::uint32_t d : {0U, 1U, 2U}) {
    for (std::uint64_t packet_bytes : {0ULL, 64ULL}) {
      for (std::uint32_t n : {2U, 3U, 4U}) {
        const wormhole_params p{.packet_bytes = packet_bytes,
                                .inject_gap = 2,
                                .vcs = 2,
                                .share = vc_share::fixed,
                                .credit_delay = d};
        wormhole_params p_rr = p;
        p_rr.share = vc_share::round_robin;
        const fabric f = fabric::mesh(1, 2 * n);
        std::vector<job> jobs;
        for (std::uint32_t s = 0; s < n; ++s)
          jobs.push_back({s, s + n, bytes, 0});
        const auto e = require_agreement(f, p, jobs);        // the closed form, fixed shares
        const auto real = require_agreement(f, p_rr, jobs);  // the flit engine, round robin
        const auto e_alone = run_engine(f, p, {jobs[0]});
        const auto real_alone = run_reference(f, p, {jobs[0]}, reference::link_share::round_robin);
        // Engine against the real router (docs/wormhole.md, "Virtual channels"): single
        // packets within (h+1)(r + (s-1)B) + (h+2)s per message. With packets, which
        // message the link favours depends on the phase of its round robins (with d 0 and
        // n 4, message 2 ends at 1.5x alone in the real router, at 2x in the engine), so
        // the run is compared: its last delivery within 1% of the time alone.
        const auto bound = (n + 1) * (p.router_delay + (p.vcs - 1) * p.buffer) + (n + 2) * p.vcs;
        std::vector<double> re;
        std::vector<double> rr;
        cycle_t e_last = 0;
        cycle_t real_last = 0;
        for (std::size_t i = 0; i < n; ++i) {
          INFO("n " << n << " packet_bytes " << packet_bytes << " d " << d << " message " << i);
          e_last = std::max(e_last, e[i].delivered);
          real_last = std::max(real_last, real[i].delivered);
          if (packet_bytes == 0) {
            CHECK(std::abs(diff(e[i].delivered, real[i].delivered)) <=
                  static_cast<std::int64_t>(bound));
          }
          re.push_back(static_cast<double>(e[i].delivered) /
                       static_cast<double>(e_alone[0].delivered));
          rr.push_back(static_cast<double>(real[i].delivered) /
                       static_cast<double>(real_alone[0].delivered));
        }
        std::sort(re.begin(), re.end());
        std::sort(rr.begin(), rr.end());
        INFO("n " << n << " packet_bytes " << packet_bytes << " d " << d);
        if (packet_bytes != 0) {
          CHECK(std::abs(diff(e_last, real_last)) <=
                static_cast<std::int64_t>(real_alone[0].delivered / 100));
        }
        for (const auto* x : {&re, &rr}) {
          const std::vector<double>& v = *x;
          if (n == 2) {
            CHECK(v[1] <= 1.01);  // two on a link: as fast as alone
          } else if (n == 3 && packet_bytes == 0) {
            CHECK(v[1] <= 1.01);  // two hold the VCs
            CHECK(v[2] >= 1.95);  // the third waits for one of them
            CHECK(v[2] <= 2.05);
          } else if (n == 3) {
            CHECK(v[0] >= 1.45);  // all three share: 3/2
            CHECK(v[2] <= 1.55);
          } else {
            CHECK(v[3] >= 1.95);  // four: twice as long
            CHECK(v[3] <= 2.05);
          }
        }
        if (n == 2 && packet_bytes == 0) {
          // The engine's two VCs each carry their worm at the NIC's rate: exactly alone.
          CHECK(e[0].delivered == e_alone[0].delivered);
        }
      }
    }
  }
}

TEST_CASE("two worms on the two VCs of a link: neither waits, the link counts both", "[wormhole]") {
  const fabric f = fabric::mesh(1, 4);
  // credit_delay 1: B = 4 > r + 1 + d
  const wormhole_params p{.inject_gap = 2, .vcs = 2, .share = vc_share::fixed};
  wormhole_engine e(f, p);
  const auto r = replay(e, {{xfer{1, 0, 2, 256, false, 0}, 0}, {xfer{2, 1, 3, 256, false, 0}, 0}});
  CHECK(e.contention().blocked == 0);
  bool seen = false;
  for (const link_stat& s : e.links()) {
    if (s.name != "E" || s.from != 1) continue;
    seen = true;
    CHECK(s.messages == 2);
    // 64 flits each at 2 cycles per flit: each holds its VC 2 x 63 + 1 cycles.
    CHECK(s.busy == 2 * (2 * 63 + 1));
  }
  CHECK(seen);
  CHECK(r[0].delivered == paced_zero_load(2, p, 64, 2));
  CHECK(r[1].delivered == paced_zero_load(2, p, 64, 2));
}

// Both ways of sharing VCs: the flit engine against the real router, the closed form
// against the fixed shares.
constexpr std::array<vc_share, 2> both_shares{vc_share::round_robin, vc_share::fixed};

TEST_CASE("randomized traffic with paced NICs and VCs: each engine equals the reference",
          "[wormhole]") {
  const fabric f = fabric::mesh(4, 4);
  for (const vc_share share : both_shares) {
    for (std::uint32_t d : {0U, 1U, 2U}) {
      for (std::uint32_t vcs : {1U, 2U, 3U, 4U}) {
        for (std::uint32_t gap : {1U, 2U, 3U}) {
          for (std::uint32_t seed = 1; seed <= 12; ++seed) {
            const random_case c = random_traffic(seed, gap, vcs, d, share);
            INFO("seed " << seed);
            require_agreement(f, c.p, c.jobs);
          }
        }
      }
    }
  }
}

TEST_CASE("randomized meshes, buffers and long messages: each engine equals the reference",
          "[wormhole]") {
  // Up to 5x5, B up to 80 (per-packet tables and maps in the engine), r up to 4, gap up
  // to 5, vcs up to 4, packets of 1..40 bytes or whole messages up to 300 bytes.
  for (std::uint32_t d : {0U, 1U, 2U}) {
    for (std::uint32_t seed = 1; seed <= 80; ++seed) {
      std::mt19937 rng(seed);
      auto draw = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
      const std::uint32_t rows = 1 + draw(5);
      const std::uint32_t cols = 1 + draw(5);
      const fabric f = fabric::mesh(rows, cols);
      wormhole_params p;
      p.width = 1 + draw(4);
      p.router_delay = draw(5);
      p.buffer = 1 + draw(draw(4) == 0 ? 80 : 8);
      p.alpha = draw(2) * draw(5);
      p.packet_bytes = draw(2) == 0 ? 0 : 1 + draw(40);
      p.inject_gap = 1 + draw(5);
      p.vcs = 1 + draw(4);
      p.share = both_shares[seed % 2];
      p.credit_delay = d;
      std::vector<job> jobs;
      const int n = 10 + static_cast<int>(draw(40));
      for (int i = 0; i < n; ++i)
        jobs.push_back({draw(rows * cols), draw(rows * cols), draw(draw(4) == 0 ? 300 : 40),
                        draw(1 + draw(200)), draw(8) == 0});
      INFO("seed " << seed << " mesh " << rows << "x" << cols);
      require_agreement(f, p, jobs);
    }
  }
}

TEST_CASE("randomized credit delays up to 16: each engine equals the reference", "[wormhole]") {
  // Long credit delays against small buffers: the rows where a credit round trip is
  // slower than B flits (1 + d > sB or gB, "loop" rows) and those where cross terms of
  // buffers the header has passed count (d > s + B - 2); docs/wormhole.md, "Cross terms".
  std::uint32_t loops = 0;
  std::uint32_t low = 0;
  for (std::uint32_t seed = 1; seed <= 120; ++seed) {
    std::mt19937 rng(seed);
    auto draw = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    const std::uint32_t rows = 1 + draw(4);
    const std::uint32_t cols = 1 + draw(5);
    const fabric f = fabric::mesh(rows, cols);
    wormhole_params p;
    p.width = 1 + draw(4);
    p.router_delay = draw(5);
    p.buffer = 1 + draw(6);
    p.alpha = draw(2) * draw(5);
    p.packet_bytes = draw(2) == 0 ? 0 : 1 + draw(40);
    p.inject_gap = 1 + draw(draw(2) == 0 ? 1 : 4);
    p.vcs = 1 + draw(draw(2) == 0 ? 1 : 3);
    p.share = both_shares[seed % 2];
    // A third of the runs aim at d > s + B - 2 with 1 + d <= sB, where there is such a d.
    const std::uint32_t lo = p.vcs + p.buffer - 1;
    const std::uint32_t hi = std::min(p.vcs * p.buffer - 1, 16U);
    p.credit_delay = draw(3) == 0 && lo <= hi ? lo + draw(hi - lo + 1) : 1 + draw(16);
    const std::uint64_t sb = std::uint64_t{p.vcs} * p.buffer;
    if (1 + p.credit_delay > sb) ++loops;
    if (1 + p.credit_delay <= sb && p.credit_delay + 2 > p.vcs + p.buffer) ++low;
    std::vector<job> jobs;
    const int n = 10 + static_cast<int>(draw(50));
    for (int i = 0; i < n; ++i)
      jobs.push_back({draw(rows * cols), draw(rows * cols), draw(draw(4) == 0 ? 200 : 40),
                      draw(1 + draw(200)), draw(8) == 0});
    INFO("seed " << seed << " mesh " << rows << "x" << cols);
    require_agreement(f, p, jobs);
  }
  CAPTURE(loops, low);
  CHECK(loops >= 10);  // the draws cover both cases
  CHECK(low >= 5);
}

TEST_CASE("randomized traffic: the fixed VC shares against the real router, per run",
          "[wormhole]") {
  // Short random messages are the worst case for the fixed shares (docs/wormhole.md,
  // "Virtual channels"): bursts that the real router sends at full rate and, per message,
  // arbitration races that a one-cycle difference turns around. Per run the summed
  // latency stays within [0.9, 1.25 max(1, vcs / gap)] of the real router's.
  const fabric f = fabric::mesh(4, 4);
  for (std::uint32_t d : {0U, 1U}) {
    for (std::uint32_t vcs : {2U, 3U}) {
      for (std::uint32_t gap : {1U, 2U, 3U}) {
        for (std::uint32_t seed = 1; seed <= 8; ++seed) {
          const random_case c = random_traffic(seed, gap, vcs, d, vc_share::fixed);
          const auto e = run_engine(f, c.p, c.jobs);
          const auto real = run_reference(f, c.p, c.jobs, reference::link_share::round_robin);
          double sum_e = 0;
          double sum_real = 0;
          for (std::size_t i = 0; i < c.jobs.size(); ++i) {
            sum_e += static_cast<double>(e[i].delivered - c.jobs[i].at);
            sum_real += static_cast<double>(real[i].delivered - c.jobs[i].at);
          }
          const double ratio = sum_e / sum_real;
          INFO(describe(c.p) << " seed " << seed << " ratio " << ratio);
          CHECK(ratio >= 0.9);
          CHECK(ratio <= 1.25 * std::max(1.0, static_cast<double>(vcs) / gap));
        }
      }
    }
  }
}

TEST_CASE("with one VC the reference's two ways of sharing a link are the same router",
          "[wormhole]") {
  const fabric f = fabric::mesh(4, 4);
  for (std::uint32_t d : {0U, 1U, 2U}) {
    for (std::uint32_t gap : {1U, 3U}) {
      for (std::uint32_t seed = 1; seed <= 6; ++seed) {
        const random_case c = random_traffic(seed, gap, 1, d);
        const auto a = run_reference(f, c.p, c.jobs, reference::link_share::fixed);
        const auto b = run_reference(f, c.p, c.jobs, reference::link_share::round_robin);
        for (std::size_t i = 0; i < a.size(); ++i) {
          CHECK(a[i].started == b[i].started);
          CHECK(a[i].delivered == b[i].delivered);
        }
      }
    }
  }
}

TEST_CASE("bad inject_gap, vcs and credit_delay are input errors naming the value", "[wormhole]") {
  const fabric f = fabric::mesh(4, 4);
  auto message_of = [&](const wormhole_params& p) {
    try {
      (void)make_wormhole_engine(f, p);
    } catch (const input_error& ex) {
      return std::string(ex.what());
    }
    return std::string("no error");
  };
  CHECK(message_of({.vcs = 0}).find("vcs 0 is out of range 1..16") != std::string::npos);
  CHECK(message_of({.vcs = 17}).find("vcs 17") != std::string::npos);
  CHECK(message_of({.inject_gap = 0}).find("inject_gap 0 is out of range 1..1024") !=
        std::string::npos);
  CHECK(message_of({.inject_gap = 1025}).find("inject_gap 1025") != std::string::npos);
  CHECK(message_of({.inject_gap = 1024, .vcs = 16}) == "no error");
  CHECK(message_of({.inject_gap = 1024, .vcs = 16, .share = vc_share::fixed}) == "no error");
  // The half-duplex NIC is the closed form's: with VCs shared round robin it is refused.
  CHECK(message_of({.vcs = 2, .duplex = {.half_duplex = true}}) ==
        "wormhole: param half_duplex 1 with vcs 2 shared round robin is not modelled (the flit "
        "engine's NIC is full duplex); use vcs=1 or vc_share=fixed");
  CHECK(message_of({.vcs = 2, .share = vc_share::fixed, .duplex = {.half_duplex = true}}) ==
        "no error");
  CHECK(message_of({.credit_delay = 17}) == "wormhole: credit_delay 17 is out of range 0..16");
  CHECK(message_of({.credit_delay = 0}) == "no error");
  CHECK(message_of({.credit_delay = 16}) == "no error");
  CHECK(wormhole_params{}.credit_delay == 1);  // the default is the RTL router's
  CHECK(message_of({.duplex = {.duplex_window = 1'000'000'000'001}}) ==
        "wormhole: duplex_window 1000000000001 is out of range 0..1000000000000");
  CHECK(!wormhole_params{}.duplex.half_duplex);  // full duplex unless asked
  CHECK(message_of({.eager_copy = 1'000'001}) ==
        "wormhole: eager_copy 1000001 is out of range 0..1000000");
  CHECK(message_of({.alpha_eager = 1'000'000'000'001}) ==
        "wormhole: alpha_eager 1000000000001 is out of range 0..1000000000000");
  CHECK(wormhole_params{}.eager_bytes == 0);  // one protocol unless asked
  CHECK(!wormhole_params{}.duplex.duplex_hold);
}
