// Each engine's parameter ranges are declared once (the *_range tables beside the
// parameters) and read by two checks: the engine's validate(), for a caller of the C++
// API, and the registry's --param rows, for the command line. Here every count parameter
// of the circuit, store-and-forward and wormhole engines is set just past each end of
// the range the docs give for it (written out below, not read from the tables): both
// checks refuse it in the same words, and the bounds themselves are accepted.
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/net/wormhole_engine.hpp"

using namespace tessera;
using namespace tessera::net;

namespace {

constexpr std::uint64_t p20 = std::uint64_t{1} << 20;
constexpr std::uint64_t p30 = std::uint64_t{1} << 30;
constexpr std::uint64_t p40 = std::uint64_t{1} << 40;
constexpr std::uint64_t tera = 1'000'000'000'000;

template <typename Params>
struct range_case {
  std::string key;
  std::function<void(Params&, std::uint64_t)> set;
  std::uint64_t min;
  std::uint64_t max;
  std::string range;  // as the message writes it
};

template <typename Params>
std::string api_refusal(const Params& p) {
  try {
    validate(p);
  } catch (const input_error& e) {
    return e.what();
  }
  return "accepted";
}

std::string cli_refusal(switching sw, const std::string& key, std::uint64_t v) {
  models::engine_params p;
  try {
    models::set_param(p, sw, key, std::to_string(v));
  } catch (const input_error& e) {
    return e.what();
  }
  return "accepted";
}

template <typename Params>
void check_ranges_of(const std::string& owner, switching sw,
                     const std::vector<range_case<Params>>& cases, const Params& base = {}) {
  for (const range_case<Params>& c : cases) {
    INFO(owner << " " << c.key);
    std::vector<std::uint64_t> outside{c.max + 1};
    if (c.min > 0) outside.push_back(c.min - 1);
    for (const std::uint64_t v : outside) {
      Params p = base;
      c.set(p, v);
      const std::string want =
          owner + ": " + c.key + " " + std::to_string(v) + " is out of range " + c.range;
      CHECK(api_refusal(p) == want);
      CHECK(cli_refusal(sw, c.key, v) == want);
    }
    for (const std::uint64_t v : {c.min, c.max}) {
      Params p = base;
      c.set(p, v);
      CHECK(api_refusal(p) == "accepted");
      CHECK(cli_refusal(sw, c.key, v) == "accepted");
    }
  }
}

}  // namespace

TEST_CASE("circuit parameters: validate() and --param refuse alike at both ends", "[ranges]") {
  using P = circuit_params;
  // xi_held may not exceed xi: the base has the largest xi, so xi_held's own range shows.
  P base;
  base.xi = p40;
  check_ranges_of<P>(
      "circuit", switching::circuit,
      {
          {"xi", [](P& p, std::uint64_t v) { p.xi = v; }, 0, p40, "0..2^40"},
          {"xi_held", [](P& p, std::uint64_t v) { p.xi_held = v; }, 0, p40, "0..2^40"},
          {"tau", [](P& p, std::uint64_t v) { p.tau = v; }, 0, p40, "0..2^40"},
          {"width", [](P& p, std::uint64_t v) { p.width = static_cast<std::uint32_t>(v); }, 1, 4096,
           "1..4096"},
          {"control_xi", [](P& p, std::uint64_t v) { p.control_xi = v; }, 0, p40, "0..2^40"},
          {"retry", [](P& p, std::uint64_t v) { p.retry = v; }, 1, p40, "1..2^40"},
          {"duplex_window", [](P& p, std::uint64_t v) { p.duplex.duplex_window = v; }, 0, p40,
           "0..2^40"},
      },
      base);
  // The relation between two of them is validate()'s alone.
  P held;
  held.xi = 10;
  held.xi_held = 11;
  CHECK(api_refusal(held) == "circuit xi_held 11 exceeds xi 10");
}

TEST_CASE("store-and-forward parameters: validate() and --param refuse alike", "[ranges]") {
  using P = torus_params;
  check_ranges_of<P>(
      "store-forward", switching::store_forward,
      {
          {"beta", [](P& p, std::uint64_t v) { p.beta = v; }, 0, p40, "0..2^40"},
          {"tau", [](P& p, std::uint64_t v) { p.tau = v; }, 0, p20, "0..2^20"},
          {"packet_bytes", [](P& p, std::uint64_t v) { p.packet_bytes = v; }, 0, p30, "0..2^30"},
          {"buffers", [](P& p, std::uint64_t v) { p.buffers = static_cast<std::uint32_t>(v); }, 0,
           65536, "0..65536"},
      });
  // One buffer cannot hold both dateline classes (Bermond92 §2.3's node, the RTL's
  // Buffers >= 2).
  P one;
  one.buffers = 1;
  CHECK(api_refusal(one) == "torus: buffers 1 is out of range 2..65536 (0: unlimited)");
}

TEST_CASE("wormhole parameters: validate() and --param refuse alike at both ends", "[ranges]") {
  using P = wormhole_params;
  auto u32 = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  check_ranges_of<P>(
      "wormhole", switching::wormhole,
      {
          {"width", [&](P& p, std::uint64_t v) { p.width = u32(v); }, 1, 4096, "1..4096"},
          {"buffer", [&](P& p, std::uint64_t v) { p.buffer = u32(v); }, 1, 65536, "1..65536"},
          {"router_delay", [&](P& p, std::uint64_t v) { p.router_delay = u32(v); }, 0, 1'000'000,
           "0..1000000"},
          {"alpha", [](P& p, std::uint64_t v) { p.alpha = v; }, 0, tera, "0..1000000000000"},
          {"packet_bytes", [](P& p, std::uint64_t v) { p.packet_bytes = v; }, 0, p30, "0..2^30"},
          {"inject_gap", [&](P& p, std::uint64_t v) { p.inject_gap = u32(v); }, 1, 1024, "1..1024"},
          {"vcs", [&](P& p, std::uint64_t v) { p.vcs = u32(v); }, 1, 16, "1..16"},
          {"credit_delay", [&](P& p, std::uint64_t v) { p.credit_delay = u32(v); }, 0, 16, "0..16"},
          {"duplex_window", [](P& p, std::uint64_t v) { p.duplex.duplex_window = v; }, 0, tera,
           "0..1000000000000"},
          {"eager_bytes", [](P& p, std::uint64_t v) { p.eager_bytes = v; }, 0, p40, "0..2^40"},
          {"alpha_eager", [](P& p, std::uint64_t v) { p.alpha_eager = v; }, 0, tera,
           "0..1000000000000"},
          {"eager_copy", [](P& p, std::uint64_t v) { p.eager_copy = v; }, 0, 1'000'000,
           "0..1000000"},
      });
}
