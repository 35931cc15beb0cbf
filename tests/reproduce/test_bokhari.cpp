// `reproduce bokhari` (Bokhari, "Complete Exchange on the iPSC-860"): the message times
// of §2.2 evaluated here, every row within its tolerance, and the edge-contention
// experiment's "more than seven times" (§2.3); the rows of §6 recomputed here from the
// figures' points, and one point from runs of its own.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tessera/common/isolated.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/reproduce/reproduce.hpp"
#include "tessera/run/run.hpp"

using namespace tessera::reproduce;

TEST_CASE("reproduce bokhari: Figure 2's times and Figure 4's contention", "[reproduce]") {
  options o;
  o.bokhari.message_bytes = {0, 400, 1000};
  o.bokhari.contention_bytes = {1000};
  o.bokhari.implementations = false;  // section 6 has a test of its own
  const paper_report r = run("bokhari", o);
  INFO(r.failed() << " rows failed");
  CHECK(r.pass());
  // The model line gives the ipsc860 preset's numbers as the preset has them: the
  // half-duplex window is 350 cycles (docs/reproduction.md, section 6), not a copy.
  const auto preset = tessera::run::find_machine_preset("ipsc860");
  CHECK(preset.param("duplex_window") == "350");
  CHECK(r.model.find("half duplex within 350 cycles") != std::string::npos);
  CHECK(r.model.find("xi " + preset.param("xi") + ", tau " + preset.param("tau")) !=
        std::string::npos);
  std::size_t forced = 0;
  std::size_t unforced = 0;
  for (const row& x : r.rows) {
    if (x.what == "FORCED, d = 7, m = 1000") {
      CHECK(x.paper == Approx(95 + 0.394 * 1000 + 10.3 * 7));  // 561.1 us
      ++forced;
    }
    if (x.what == "UNFORCED, d = 3, m = 400") {
      CHECK(x.paper == Approx(164 + 0.398 * 400 + 29.9 * 3));  // 412.9 us
      ++unforced;
    }
    if (x.source == "§2.2, FORCED (Figure 2)") {
      // Whole cycles of 0.394 us cannot be closer than a few tenths of a microsecond.
      CHECK(x.tol.value < 0.5);
    }
    if (x.what == "8 contending 1000-byte messages / 1 message") {
      CHECK(x.paper == 7);
      CHECK(x.simulated > 7);
    }
  }
  CHECK(forced == 1);
  CHECK(unforced == 1);
  // The charts of §4 on the d-cubes, n = 2^d: naive 3n/2 - 2 steps (10 on the 3-cube, as
  // Figure 6 shows), linear and pairwise n - 1, stable n.
  for (const row& x : r.rows) {
    if (x.what == "naive, n = 8") CHECK(x.paper == 10);
    if (x.what == "naive, n = 128") CHECK(x.paper == 3 * 128 / 2 - 2);
    if (x.what == "stable, n = 64") CHECK(x.paper == 64);
  }
  // 7 distances x 3 sizes FORCED, 7 x 2 UNFORCED (m > 100), 7 claims and the ratio; the
  // charts: 4 step counts for each of 7 cubes, 2 contention-free claims each, and the
  // stability claim from the 2-cube on.
  CHECK(r.rows.size() == 21 + 14 + 7 + 1 + 7 * 4 + 7 * 2 + 6);
  CHECK(r.figures.size() == 2);
}

namespace {

const figure& find_figure(const paper_report& r, const std::string& id) {
  for (const figure& f : r.figures)
    if (f.id == id) return f;
  FAIL("no figure " << id);
  throw 0;
}

// A figure's series by name as a map block -> time.
std::map<double, double> curve(const figure& f, const std::string& name) {
  for (const series& s : f.curves) {
    if (s.name == name) return {s.points.begin(), s.points.end()};
  }
  FAIL("no series " << name << " in " << f.id);
  throw 0;
}

// linear on the d-cube with `block` bytes and jitter seed `seed`, in us, run here
// (a child process: SystemC elaborates once per process).
double linear_us(std::uint32_t d, std::uint32_t block, std::uint32_t seed) {
  const tessera::isolated_result child = tessera::run_isolated_process([&]() -> std::string {
    tessera::run::run_config cfg;
    cfg.model = "tlm";
    cfg.machine = "ipsc860";
    cfg.fabric_spec = "hypercube:" + std::to_string(d);
    cfg.c.f = tessera::fabric::hypercube(d);
    cfg.c.coll = tessera::fw::collective::alltoall;
    cfg.c.bytes = block;
    cfg.algorithm = "linear";
    REQUIRE(tessera::fw::parse_a2a_algorithm("linear", cfg.c.a2a));
    cfg.proto = tessera::protocol::forced;
    cfg.prepost = true;
    cfg.params = {{"jitter", "25"}, {"jitter_seed", std::to_string(seed)}};
    const auto res = tessera::run::run(cfg);
    return res->verified() ? res->json()["time_us"].dump() : "unverified";
  });
  REQUIRE(child.ok());
  REQUIRE(child.text != "unverified");
  return std::stod(child.text);
}

}  // namespace

TEST_CASE("reproduce bokhari: section 6 rows follow from the figures' points", "[reproduce]") {
  options o;
  o.bokhari.message_bytes = {1000};
  o.bokhari.contention_bytes = {1000};
  o.bokhari.d_max = 3;
  o.bokhari.seeds = 2;
  o.bokhari.envelope_seeds = 3;
  o.bokhari.envelope_bytes = {256, 1024};
  o.bokhari.jobs = 2;
  const paper_report r = run("bokhari", o);

  // Figures 11 (d = 1..3), 12 and 13 beside Figures 2 and 4.
  REQUIRE(r.figures.size() == 2 + 3 + 2);
  const char* const six[] = {"linear",     "stable",     "pairwise_F",
                             "standard_F", "pairwise_U", "standard_U"};
  std::map<std::uint32_t, std::map<std::string, std::map<double, double>>> maxima;
  for (std::uint32_t d = 1; d <= 3; ++d) {
    const figure& f = find_figure(r, "bokhari-figure11-d" + std::to_string(d));
    CHECK(f.log_x);
    CHECK(f.log_y);
    REQUIRE(f.curves.size() == 6);
    for (const char* name : six) {
      maxima[d][name] = curve(f, name);
      // 2^0..2^12 bytes; the three the paper stops at 2^7 have 8 points.
      const bool small = std::string(name) == "standard_F" || std::string(name) == "pairwise_U" ||
                         std::string(name) == "standard_U";
      CHECK(maxima[d][name].size() == (small ? 8U : 13U));
    }
  }

  // One point from its own runs: the maximum of seeds 1 and 2.
  CHECK(maxima[2]["linear"][4096] ==
        Approx(std::max(linear_us(2, 4096, 1), linear_us(2, 4096, 2))));

  auto best = [&](std::uint32_t d, double block) {
    std::string b;
    double t = INFINITY;
    for (const char* name : six) {
      const auto& c = maxima[d][name];
      const auto it = c.find(block);
      if (it != c.end() && it->second < t) {
        t = it->second;
        b = name;
      }
    }
    return b;
  };
  auto claim = [&](const std::string& what) {
    for (const row& x : r.rows) {
      if (x.what.rfind(what, 0) == 0) return x.simulated;
    }
    FAIL("no row " << what);
    return -1.0;
  };
  CHECK(claim("d = 1, 1-byte blocks: pairwise_U is the fastest") == (best(1, 1) == "pairwise_U"));
  CHECK(claim("d = 1, 4096-byte blocks: linear is the fastest") == (best(1, 4096) == "linear"));
  for (std::uint32_t d = 2; d <= 3; ++d) {
    CHECK(claim("d = " + std::to_string(d) + ", 4096-byte blocks: pairwise_F is the fastest") ==
          (best(d, 4096) == "pairwise_F"));
  }
  CHECK(claim("d = 3, 1-byte blocks: standard_U is the fastest") == (best(3, 1) == "standard_U"));
  for (std::uint32_t d = 1; d <= 3; ++d) {
    const std::string cube = "d = " + std::to_string(d);
    CHECK(claim(cube + ", 1-byte blocks: standard_U faster than standard_F") ==
          (maxima[d]["standard_U"][1] < maxima[d]["standard_F"][1]));
    // The jump ratios: the rise per byte across the 100-byte threshold over the rise per
    // byte just before (§6.1).
    auto& pu = maxima[d]["pairwise_U"];
    CHECK(claim(cube + ": pairwise_U's rise from 64 to 128") ==
          Approx(((pu[128] - pu[64]) / 64) / ((pu[64] - pu[32]) / 32)));
    const double a = std::pow(2.0, 7 - d);
    auto& su = maxima[d]["standard_U"];
    CHECK(claim(cube + ": standard_U's rise from " + std::to_string(static_cast<int>(a))) ==
          Approx(((su[2 * a] - su[a]) / a) / ((su[a] - su[a / 2]) / (a / 2))));
    double lsum = 0;
    for (double b = 1; b < 100; b *= 2)
      lsum += std::log(maxima[d]["pairwise_F"][b] / pu[b]);
    CHECK(claim(cube + ": pairwise_F / pairwise_U") == Approx(std::exp(lsum / 7)));
  }

  // Figures 12 and 13: the envelopes' rows from their curves.
  const figure& f12 = find_figure(r, "bokhari-figure12");
  const figure& f13 = find_figure(r, "bokhari-figure13");
  CHECK(f12.curves.size() == 9);
  CHECK(f13.curves.size() == 6);
  auto env = [&](const figure& f, const std::string& name, const char* what, double b) {
    return curve(f, name + " " + what).at(b);
  };
  const std::string nosync = "pairwise_F without pairwise sync";
  for (const double b : {256.0, 1024.0}) {
    const std::string at =
        "d = 3, 3 runs, " + std::to_string(static_cast<int>(b)) + "-byte blocks: ";
    auto spread = [&](const std::string& name) {
      return (env(f12, name, "maximum", b) - env(f12, name, "minimum", b)) /
             env(f12, name, "minimum", b);
    };
    CHECK(claim(at + "pairwise_F's spread") ==
          (spread("pairwise_F") < spread("linear") && spread("pairwise_F") < spread("stable")));
    CHECK(claim(at + "stable's maximum") ==
          (env(f12, "stable", "maximum", b) < env(f12, "linear", "maximum", b)));
    CHECK(claim(at + "stable's average") ==
          (env(f12, "stable", "average", b) < env(f12, "linear", "average", b)));
    CHECK(claim(at + "pairwise_F's band") ==
          (env(f13, "pairwise_F", "maximum", b) - env(f13, "pairwise_F", "minimum", b) <
           env(f13, nosync, "maximum", b) - env(f13, nosync, "minimum", b)));
    // An envelope's average lies between its extremes.
    for (const char* name : {"linear", "stable", "pairwise_F"}) {
      CHECK(env(f12, name, "minimum", b) <= env(f12, name, "average", b));
      CHECK(env(f12, name, "average", b) <= env(f12, name, "maximum", b));
    }
  }
  // Section 6's rows on 3 cubes: the d = 1 hull (3), pairwise_F at 4 KB (2),
  // standard_U at 1 B (1), standard_U against standard_F (3), the jumps (6), the
  // pairwise_U speed-up (3), and 4 claims for each envelope block and the band's growth.
  std::size_t s6 = 0;
  for (const row& x : r.rows)
    s6 += x.source.rfind("§6", 0) == 0 ? 1U : 0U;
  CHECK(s6 == 3 + 2 + 1 + 3 + 6 + 3 + 4 * 2 + 1);
}
