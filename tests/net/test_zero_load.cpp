// The registry's zero-load formulas (tessera models; the TLM platform's one-hop cost)
// against the engines they describe: a lone message on a free fabric is delivered at
// exactly the formula's cycle. The engines are themselves held to the papers' costs and
// to the flit reference in the other files here; this file keeps the registry's copy of
// each formula from drifting from its engine (for example when an engine gains a
// parameter, as the wormhole engine's credit_delay).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "tessera/models/registry.hpp"
#include "tessera/net/replay.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/routing.hpp"

using namespace tessera;
using namespace tessera::net;

namespace {

cycle_t lone_delivery(const fabric& f, const models::engine_params& p, std::uint32_t dst,
                      std::uint64_t bytes) {
  const auto e = models::engine(models::switching::wormhole).make(f, p);
  const auto r = replay(*e, {{xfer{1, 0, dst, bytes, false, 0}, 0}});
  REQUIRE(r.size() == 1);
  REQUIRE(r[0].started == 0);
  return r[0].delivered;
}

}  // namespace

TEST_CASE("registry: the wormhole zero-load formula is the engine's lone message",
          "[wormhole][registry]") {
  const fabric f = fabric::mesh(1, 6);
  const models::engine_info& info = models::engine(models::switching::wormhole);
  models::engine_params p;
  p.wormhole.width = 1;
  // Credit delays below, at and above B, NIC pacing and VC shares, so every branch of
  // the formula is taken: plain rows, body bunching, and credit loops on row 0 and on
  // the link rows.
  for (std::uint32_t d : {0U, 1U, 3U, 6U}) {
    for (std::uint32_t r : {0U, 1U, 3U}) {
      for (std::uint32_t b : {1U, 2U, 4U}) {
        for (std::uint32_t g : {1U, 2U}) {
          for (std::uint32_t s : {1U, 2U, 3U}) {
            for (const vc_share share : {vc_share::round_robin, vc_share::fixed}) {
              for (std::uint64_t bytes : {1ULL, 5ULL, 23ULL}) {
                for (std::uint32_t dst : {1U, 5U}) {
                  p.wormhole.router_delay = r;
                  p.wormhole.buffer = b;
                  p.wormhole.credit_delay = d;
                  p.wormhole.inject_gap = g;
                  p.wormhole.vcs = s;
                  p.wormhole.share = share;
                  p.wormhole.alpha = 7;
                  INFO("d " << d << " r " << r << " B " << b << " g " << g << " vcs " << s
                            << (share == vc_share::fixed ? " fixed" : " round-robin") << " bytes "
                            << bytes << " hops " << dst);
                  CHECK(lone_delivery(f, p, dst, bytes) == info.zero_load(p, bytes, dst));
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("registry: the wormhole zero-load formula holds for deeper router pipelines",
          "[wormhole][registry]") {
  // pipeline p > 1 runs on the flit engine (held to the reference in
  // test_wormhole_routing.cpp): a flit spends p cycles a router, a head r more, and a FIFO
  // slot turns round in p + d cycles, against 1 + d with p = 1.
  const fabric f = fabric::mesh(1, 6);
  const models::engine_info& info = models::engine(models::switching::wormhole);
  models::engine_params p;
  p.wormhole.width = 1;
  for (std::uint32_t pipe : {2U, 3U, 5U}) {
    for (std::uint32_t d : {0U, 1U, 4U}) {
      for (std::uint32_t r : {0U, 2U}) {
        for (std::uint32_t b : {1U, 3U, 8U}) {
          for (std::uint32_t g : {1U, 3U}) {
            for (std::uint64_t bytes : {1ULL, 6ULL, 29ULL}) {
              for (std::uint32_t dst : {1U, 5U}) {
                p.wormhole.pipeline = pipe;
                p.wormhole.router_delay = r;
                p.wormhole.buffer = b;
                p.wormhole.credit_delay = d;
                p.wormhole.inject_gap = g;
                p.wormhole.vcs = 2;
                p.wormhole.alpha = 3;
                INFO("p " << pipe << " d " << d << " r " << r << " B " << b << " g " << g
                          << " bytes " << bytes << " hops " << dst);
                CHECK(lone_delivery(f, p, dst, bytes) == info.zero_load(p, bytes, dst));
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("registry: the torus zero-load formula is the engine's lone message",
          "[torus][registry]") {
  // Bermond's h (beta + tau L) for one packet, the pipeline of equal packets and a
  // shorter last one, with unlimited buffers and with the RTL's 4 and 6. With 2 or 3
  // buffers a class can have one buffer, and then a packet waits for the one ahead of
  // it to leave (at the destination: to be ejected, L + 1 cycles): not zero load.
  const fabric f = fabric::torus(4, 4);
  const models::engine_info& info = models::engine(models::switching::store_forward);
  models::engine_params p;
  p.torus.beta = 9;
  p.torus.tau = 2;
  for (std::uint32_t buffers : {0U, 4U, 6U}) {
    for (std::uint64_t packet : {0ULL, 4ULL, 16ULL}) {
      for (std::uint64_t bytes : {1ULL, 16ULL, 37ULL}) {
        for (std::uint32_t dst : {1U, 5U, 10U}) {
          p.torus.buffers = buffers;
          p.torus.packet_bytes = packet;
          const std::uint32_t h = distance(f, tile_id{0}, tile_id{dst});
          const auto e = info.make(f, p);
          const auto r = replay(*e, {{xfer{1, 0, dst, bytes, false, 0}, 0}});
          REQUIRE(r.size() == 1);
          INFO("buffers " << buffers << " packet_bytes " << packet << " bytes " << bytes << " to "
                          << dst << " (" << h << " hops)");
          CHECK(r[0].delivered == info.zero_load(p, bytes, h));
        }
      }
    }
  }
}

TEST_CASE("registry: the wormhole zero-load formula covers the eager protocol",
          "[wormhole][registry]") {
  // wormhole_engine.hpp: a message of at most eager_bytes starts after alpha_eager and
  // is delivered after its receiver's copy, eager_copy cycles per 1024 bytes (rounded
  // up); a longer one keeps alpha and has no copy.
  const fabric f = fabric::mesh(1, 6);
  const models::engine_info& info = models::engine(models::switching::wormhole);
  models::engine_params p;
  p.wormhole.width = 1;
  p.wormhole.alpha = 40;
  p.wormhole.alpha_eager = 9;
  p.wormhole.eager_bytes = 16;
  p.wormhole.eager_copy = 700;
  for (std::uint32_t g : {1U, 2U}) {
    for (std::uint64_t bytes : {1ULL, 5ULL, 16ULL, 17ULL, 40ULL}) {
      for (std::uint32_t dst : {1U, 5U}) {
        p.wormhole.inject_gap = g;
        INFO("g " << g << " bytes " << bytes << " hops " << dst);
        CHECK(lone_delivery(f, p, dst, bytes) == info.zero_load(p, bytes, dst));
      }
    }
  }
}
