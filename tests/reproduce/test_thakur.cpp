// `reproduce thakur` (Thakur, Choudhary, Fox, "Complete Exchange on a Wormhole Routed
// Mesh"): the rows follow from the cells (each table's mean error, the PEX-GEN
// ranking, the paper's comparisons), the figures hold the printed tables, and the
// contention figure's exact loads and f(i) are recomputed here from XY routes and the
// paper's expressions.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "find_row.hpp"
#include "tessera/common/isolated.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/reproduce/reproduce.hpp"
#include "tessera/run/run.hpp"

using namespace tessera::reproduce;

namespace {

// The largest number of messages on one directed link when every tile x sends to
// partner(x) on an r x c mesh with XY routes (X, the column, first), tiles row-major.
template <typename F>
std::uint32_t xy_max_load(std::uint32_t r, std::uint32_t c, F partner) {
  std::map<std::tuple<std::uint32_t, std::uint32_t>, std::uint32_t> load;
  std::uint32_t worst = 0;
  for (std::uint32_t x = 0; x < r * c; ++x) {
    const std::uint32_t y = partner(x);
    if (y == x) continue;
    std::uint32_t at = x;
    auto hop = [&](std::uint32_t next) {
      worst = std::max(worst, ++load[{at, next}]);
      at = next;
    };
    while (at % c != y % c)
      hop(at % c < y % c ? at + 1 : at - 1);
    while (at / c != y / c)
      hop(at / c < y / c ? at + c : at - c);
  }
  return worst;
}

}  // namespace

TEST_CASE("reproduce thakur: the rows follow from the cells", "[reproduce]") {
  options o;
  o.thakur.model = "analytic";  // the rows are built alike on either model
  const paper_report r = run("thakur", o);
  const auto& cells = r.extra.at("cells");
  REQUIRE(cells.size() == 125);
  std::map<std::tuple<int, std::string, int>, double> paper, sim;  // (table, mesh, bytes)
  for (const auto& c : cells) {
    const auto key =
        std::make_tuple(c["table"].get<int>(), c["mesh"].get<std::string>(), c["bytes"].get<int>());
    paper[key] = c["paper"];
    sim[key] = c["simulated"];
  }
  // Printed values, read off Table 2 and Table 5.
  CHECK(paper.at({2, "16x32", 16384}) == 13.61);
  CHECK(paper.at({5, "8x8", 16384}) == 0.576);

  // The ranking row: PEX (Table 2) against GEN (Table 5), 5 meshes x 3 sizes.
  int right = 0;
  for (const char* m : {"4x4", "8x8", "16x8", "16x16", "16x32"}) {
    for (const int b : {4096, 8192, 16384}) {
      right +=
          (paper.at({2, m, b}) < paper.at({5, m, b})) == (sim.at({2, m, b}) < sim.at({5, m, b}))
              ? 1
              : 0;
    }
  }
  const row* rank = tessera::test::find_row(
      r, "Tables 2 and 5",
      "cells of 4 KB and more on the power-of-two meshes where PEX and GEN rank as measured (of "
      "15)");
  REQUIRE(rank != nullptr);
  CHECK(rank->paper == 15);
  CHECK(rank->simulated == right);
  CHECK(rank->pass() == (right >= 13));

  // A comparison row for every pair the measurement separates (more than one printed
  // unit apart), holding when the model orders the pair the same way.
  const row* gen8 = tessera::test::find_row(
      r, "§4-5: PEX against GEN on power-of-two meshes",
      "GEN on 8x8 faster than PEX on 8x8, 256 B (measured 0.016 against 0.022 s)");
  REQUIRE(gen8 != nullptr);
  CHECK(gen8->simulated == (sim.at({5, "8x8", 256}) < sim.at({2, "8x8", 256}) ? 1 : 0));
  // 4 x 4 at 256 B: both printed as 0.004 s, so no row.
  for (const row& x : r.rows)
    CHECK(x.what.find("on 4x4, 256 B") == std::string::npos);
  const row* shift = tessera::test::find_row(
      r, "§4-5: PEX-GEN-SHIFT against GEN on other meshes",
      "PEX-GEN-SHIFT on 16x30 faster than GEN on 16x30, 16 KB (measured 15.74 against 15.94 s)");
  REQUIRE(shift != nullptr);
  CHECK(shift->simulated == (sim.at({4, "16x30", 16384}) < sim.at({6, "16x30", 16384}) ? 1 : 0));

  // The tables' figures hold the printed values as the paper's series.
  const figure* t3 = nullptr;
  const figure* contention = nullptr;
  for (const figure& f : r.figures) {
    if (f.id == "thakur-table3") t3 = &f;
    if (f.id == "thakur-contention") contention = &f;
  }
  REQUIRE(t3 != nullptr);
  CHECK(t3->log_x);
  CHECK(t3->log_y);
  REQUIRE(t3->curves.size() == 10);  // five meshes, measured and simulated
  for (const series& s : t3->curves) {
    if (s.name != "16x9, measured") continue;
    CHECK(s.paper);
    REQUIRE(s.points.size() == 5);
    CHECK(s.points[4].first == 16384);
    CHECK(s.points[4].second == 2.403);
  }

  // f(i) on 8 x 8: the exact loads from XY routes, and the paper's expressions (§3.1,
  // §3.4) evaluated here.
  REQUIRE(contention != nullptr);
  std::map<std::string, std::vector<std::pair<double, double>>> cs;
  for (const series& s : contention->curves)
    cs[s.name] = s.points;
  REQUIRE(cs.at("PEX, exact (XY routes)").size() == 63);
  REQUIRE(cs.at("GEN, exact (XY routes)").size() == 63);
  for (std::uint32_t i = 1; i <= 63; ++i) {
    const auto k = static_cast<std::size_t>(i - 1);
    CHECK(cs.at("PEX, exact (XY routes)")[k].second ==
          xy_max_load(8, 8, [&](std::uint32_t x) { return x ^ i; }));
    CHECK(cs.at("GEN, exact (XY routes)")[k].second ==
          xy_max_load(8, 8, [&](std::uint32_t x) { return (x + i) % 64; }));
    const std::uint32_t m = std::max(i % 8, i / 8);
    std::uint32_t pow = 1;
    while (pow < m)
      pow *= 2;
    CHECK(cs.at("PEX, Thakur's f(i)")[k].second == pow);
    const std::uint32_t gen = std::min(i % 8, 8 - i % 8) + std::min(i / 8, (64 - i) / 8);
    CHECK(cs.at("GEN, Thakur's f(i)")[k].second == gen);
  }
}

TEST_CASE("delta: the preset is the platform's fit to Table 2's 4x4 column", "[reproduce]") {
  // Thakur Table 2, PEX on 4 x 4: the platform at alpha = 0 gives X(L) byte cycles.
  // Rendezvous (4, 8, 16 KB): T(L) = 15 alpha + beta_sat X(L), least squares; eager
  // (256 B, 1 KB): 15 (alpha_eager + copy L) more than the wire, through both cells; the
  // protocols change where the two start-ups cross. The preset must hold the fit (every
  // cycle value exactly, beta_sat to 0.1 %); run with it, the eager cells land on the
  // paper's times (the line passes through them) and every cell within 10 %.
  const delta_platform_fit fit = fit_delta_platform(2);
  INFO("fit alpha " << fit.alpha_us << " us = " << fit.alpha_cycles << " cycles, beta_sat "
                    << fit.beta_sat_us << ", eager alpha " << fit.alpha_eager_cycles << " copy "
                    << fit.eager_copy << " up to " << fit.eager_bytes);
  CHECK(fit.eager_bytes >= 1024);
  CHECK(fit.eager_bytes < 4096);
  // The crossover: alpha_eager + copy L = alpha at L = eager_bytes.
  CHECK(std::abs(fit.alpha_eager_us + fit.copy_us_per_byte * static_cast<double>(fit.eager_bytes) -
                 fit.alpha_us) < fit.copy_us_per_byte);
  CHECK(fit.rms_s < 0.002);  // two printed units of the tables
  const std::uint32_t sizes[] = {256, 1024, 4096, 8192, 16384};
  const double paper[] = {0.004, 0.008, 0.023, 0.034, 0.064};
  for (std::size_t i = 0; i < 5; ++i) {
    const std::uint32_t bytes = sizes[i];
    const tessera::isolated_result child = tessera::run_isolated_process([bytes]() -> std::string {
      tessera::run::run_config cfg;
      cfg.model = "tlm";
      cfg.machine = "delta";
      cfg.fabric_spec = "mesh:4x4";
      cfg.c.f = tessera::fabric::mesh(4, 4);
      cfg.c.coll = tessera::fw::collective::alltoall;
      cfg.c.bytes = bytes;
      cfg.algorithm = "pex";
      REQUIRE(tessera::fw::parse_a2a_algorithm("pex", cfg.c.a2a));
      cfg.payload_bytes = 64;
      return tessera::run::run(cfg)->json().dump();
    });
    REQUIRE(child.ok());
    const auto j = nlohmann::json::parse(child.text);
    INFO(bytes << " bytes: " << j["time_us"].get<double>() << " us");
    CHECK(j["verified"].get<bool>());
    CHECK(fit.alpha_cycles == j["params"]["alpha"].get<std::uint64_t>());
    CHECK(fit.alpha_eager_cycles == j["params"]["alpha_eager"].get<std::uint64_t>());
    CHECK(fit.eager_copy == j["params"]["eager_copy"].get<std::uint64_t>());
    CHECK(fit.eager_bytes == j["params"]["eager_bytes"].get<std::uint64_t>());
    const double us = j["machine"]["us_per_cycle"];
    CHECK(std::abs(fit.beta_sat_us - us) / us < 1e-3);
    const double dev = std::abs(j["time_us"].get<double>() * 1e-6 - paper[i]) / paper[i];
    CHECK(dev < (bytes <= fit.eager_bytes ? 0.005 : 0.10));
  }
}
