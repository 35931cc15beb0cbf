// Per-round link contention of PEX and GEN on XY-routed meshes against an
// independent count of messages per directed link, and Thakur's closed-form f(i)
// (Thakur93 §3.1, §3.4) as an upper bound.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <vector>

#include "tessera/analytic/analysis.hpp"
#include "tessera/analytic/closed_form.hpp"
#include "tessera/schedule/build.hpp"

using namespace tessera;
using fw::a2a_algorithm;

namespace {

// Largest number of messages on one directed link when every tile s sends to
// dest(s) with XY routing on an r x c mesh. Links are counted per (row, col, dir).
template <typename Dest>
std::uint32_t xy_max_load(std::uint32_t r, std::uint32_t c, Dest dest) {
  std::vector<std::uint32_t> count(std::size_t{r} * c * 4, 0);
  auto hit = [&](std::uint32_t row, std::uint32_t col, std::uint32_t dir) {
    ++count[(std::size_t{row} * c + col) * 4 + dir];
  };
  for (std::uint32_t s = 0; s < r * c; ++s) {
    const std::uint32_t d = dest(s);
    std::uint32_t row = s / c;
    std::uint32_t col = s % c;
    while (col < d % c)
      hit(row, col++, 0);
    while (col > d % c)
      hit(row, col--, 1);
    while (row < d / c)
      hit(row++, col, 2);
    while (row > d / c)
      hit(row--, col, 3);
  }
  return *std::max_element(count.begin(), count.end());
}

analytic::analysis wormhole(a2a_algorithm alg, std::uint32_t r, std::uint32_t c) {
  const auto f = fabric::mesh(r, c);
  return analytic::analyze(build_alltoall(alg, f, 1024), f, analytic::switching::wormhole, {});
}

}  // namespace

TEST_CASE("PEX per-round max link load equals an independent XY count", "[mesh][thakur]") {
  for (auto [r, c] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {4, 4}, {8, 8}, {16, 8}, {4, 16}, {16, 32}}) {
    INFO("mesh " << r << "x" << c);
    const auto a = wormhole(a2a_algorithm::pex, r, c);
    REQUIRE(a.rounds == r * c - 1);
    for (const auto& round : a.per_round) {
      const std::uint32_t i = round.step;
      REQUIRE(round.transfers == r * c);
      REQUIRE(round.max_link_load == xy_max_load(r, c, [&](std::uint32_t s) { return s ^ i; }));
    }
  }
}

TEST_CASE("PEX on the 16x32 Delta peaks at max(r, c)/2 = 16", "[mesh][thakur]") {
  // §3.1: "the maximum number of messages contending for a link at any step is
  // limited by max(r, c)/2".
  const auto a = wormhole(a2a_algorithm::pex, 16, 32);
  CHECK(a.max_link_load == 16);
  CHECK(a.steps == 511);
}

TEST_CASE("Thakur's PEX f(i) bounds the exact load, which is 2^floor(lg m)", "[mesh][thakur]") {
  // The paper's f(i) = 2^ceil(lg m), m = max(mod(i, c), i / c). A pairwise XOR with
  // k on a line of power-of-two length loads one link with 2^floor(lg k) messages:
  // the highest set bit of k decides how many cross the middle of each aligned block.
  // So the paper is exact when m is a power of two and twice the truth otherwise
  // (docs/analysis.md lists the rounds).
  for (auto [r, c] :
       std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, 4}, {8, 8}, {16, 8}, {16, 32}}) {
    const auto a = wormhole(a2a_algorithm::pex, r, c);
    REQUIRE(a.paper_f.size() == a.per_round.size());
    for (std::size_t k = 0; k < a.per_round.size(); ++k) {
      const std::uint32_t i = a.per_round[k].step;
      const std::uint32_t m = std::max(i % c, i / c);
      CHECK(a.paper_f[k] == analytic::thakur_f_pex(i, c));
      CHECK(a.per_round[k].max_link_load <= a.paper_f[k]);
      CHECK(a.per_round[k].max_link_load == std::bit_floor(m));
    }
  }
}

TEST_CASE("GEN per-round max link load equals an independent XY count", "[mesh][thakur]") {
  for (auto [r, c] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {4, 4}, {8, 8}, {4, 5}, {6, 8}, {16, 9}, {16, 32}}) {
    INFO("mesh " << r << "x" << c);
    const std::uint32_t p = r * c;
    const auto a = wormhole(a2a_algorithm::gen, r, c);
    REQUIRE(a.rounds == p - 1);
    for (const auto& round : a.per_round) {
      const std::uint32_t i = round.step;
      REQUIRE(round.max_link_load ==
              xy_max_load(r, c, [&](std::uint32_t s) { return (s + i) % p; }));
    }
  }
}

TEST_CASE("Thakur's GEN f(i) is an upper bound, exact unless i mixes rows and columns",
          "[mesh][thakur]") {
  // f(i) = min[mod(i,c), c - mod(i,c)] + min[i/c, (p-i)/c]. It is exact when i < c
  // (a shift within rows, carried messages move one row) and when c divides i (a
  // pure column shift); otherwise it may add the two parts where the exact maximum
  // is smaller. Example on 4x4: i = 6 has exact 2, formula 3.
  for (auto [r, c] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {4, 4}, {8, 8}, {4, 5}, {6, 8}, {16, 9}, {16, 32}}) {
    const std::uint32_t p = r * c;
    const auto a = wormhole(a2a_algorithm::gen, r, c);
    for (std::size_t k = 0; k < a.per_round.size(); ++k) {
      const std::uint32_t i = a.per_round[k].step;
      CHECK(a.paper_f[k] == analytic::thakur_f_gen(i, c, p));
      CHECK(a.per_round[k].max_link_load <= a.paper_f[k]);
      if (i < c || i % c == 0) CHECK(a.per_round[k].max_link_load == a.paper_f[k]);
    }
  }
  const auto a44 = wormhole(a2a_algorithm::gen, 4, 4);
  CHECK(a44.per_round[5].max_link_load == 2);
  CHECK(a44.paper_f[5] == 3);
}

TEST_CASE("PEX-GEN and PEX-GEN-SHIFT take q - 1 rounds, contention bounded by PEX",
          "[mesh][thakur]") {
  // §3.2-3.3: "the maximum contention in each step is upper bounded by that in the
  // PEX algorithm" -- here PEX on the enclosing power-of-two tile count, run on the
  // same mesh rows so the XOR pattern is comparable only when c is a power of two.
  for (auto [r, c] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{{6, 8}, {12, 8}}) {
    const std::uint32_t p = r * c;
    const std::uint32_t q = std::bit_ceil(p);
    for (auto alg : {a2a_algorithm::pex_gen, a2a_algorithm::pex_gen_shift}) {
      const auto a = wormhole(alg, r, c);
      CHECK(a.rounds == q - 1);
      for (const auto& round : a.per_round) {
        CHECK(round.max_link_load <= analytic::thakur_f_pex(round.step, c));
      }
    }
  }
}

TEST_CASE("pairwise on a hypercube has link load 1 in every round", "[mesh]") {
  // Grama slide 59: "none of the bidirectional links carry more than one message in
  // the same direction".
  const auto f = fabric::hypercube(6);
  const auto a = analytic::analyze(build_alltoall(a2a_algorithm::pairwise, f, 8), f,
                                   analytic::switching::wormhole, {});
  for (const auto& round : a.per_round)
    CHECK(round.max_link_load == 1);
}

TEST_CASE("on a power-of-two mesh PEX-GEN and PEX-GEN-SHIFT are PEX", "[mesh][thakur]") {
  // q = p and shift = (q - p)/2 = 0: Figs. 2 and 4 reduce to Fig. 1.
  const auto pex = wormhole(a2a_algorithm::pex, 8, 8);
  for (auto alg : {a2a_algorithm::pex_gen, a2a_algorithm::pex_gen_shift}) {
    const auto a = wormhole(alg, 8, 8);
    REQUIRE(a.per_round.size() == pex.per_round.size());
    CHECK(a.paper_f == pex.paper_f);
    for (std::size_t k = 0; k < a.per_round.size(); ++k) {
      CHECK(a.per_round[k].max_link_load == pex.per_round[k].max_link_load);
    }
  }
}
