// Circuit-switched slot schedules against Bokhari91 §3-4.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "tessera/analytic/analysis.hpp"
#include "tessera/schedule/build.hpp"

using namespace tessera;
using fw::a2a_algorithm;

namespace {

analytic::analysis circuit(a2a_algorithm alg, std::uint32_t dim) {
  const auto f = fabric::hypercube(dim);
  return analytic::analyze(build_alltoall(alg, f, 1024), f, analytic::switching::circuit, {});
}

// slot[s][d] of every transfer s -> d.
std::vector<std::vector<std::uint32_t>> slot_table(const analytic::analysis& a, std::uint32_t n) {
  std::vector<std::vector<std::uint32_t>> t(n, std::vector<std::uint32_t>(n, 0));
  for (std::size_t i = 0; i < a.list.all.size(); ++i) {
    t[a.list.all[i].src][a.list.all[i].dst] = a.slots->slot_of[i];
  }
  return t;
}

// Transcribed from Bokhari's charts for n = 8: row s lists the slot of s -> 0..7
// (0 on the diagonal). Fig. 6 (naive), Fig. 7 (linear), Fig. 9 (stable).
const std::vector<std::vector<std::uint32_t>> fig6 = {
    {0, 1, 2, 3, 4, 5, 6, 7},  {1, 0, 3, 4, 5, 6, 7, 8}, {1, 2, 0, 3, 6, 7, 8, 9},
    {2, 3, 4, 0, 7, 8, 9, 10}, {1, 2, 3, 4, 0, 5, 6, 7}, {2, 3, 4, 5, 6, 0, 7, 8},
    {3, 4, 5, 6, 7, 8, 0, 9},  {4, 5, 6, 7, 8, 9, 10, 0}};
const std::vector<std::vector<std::uint32_t>> fig7 = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {7, 0, 1, 2, 3, 4, 5, 6}, {6, 7, 0, 1, 2, 3, 4, 5},
    {5, 6, 7, 0, 1, 2, 3, 4}, {4, 5, 6, 7, 0, 1, 2, 3}, {3, 4, 5, 6, 7, 0, 1, 2},
    {2, 3, 4, 5, 6, 7, 0, 1}, {1, 2, 3, 4, 5, 6, 7, 0}};
const std::vector<std::vector<std::uint32_t>> fig9 = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {6, 0, 8, 1, 2, 3, 4, 5}, {4, 5, 0, 7, 8, 1, 2, 3},
    {2, 3, 4, 0, 6, 7, 8, 1}, {1, 2, 3, 4, 0, 6, 7, 8}, {7, 8, 1, 2, 3, 0, 5, 6},
    {5, 6, 7, 8, 1, 2, 0, 4}, {3, 4, 5, 6, 7, 8, 1, 0}};

// Directed e-cube links of s -> d as (node, dimension), walked here independently.
std::vector<std::pair<std::uint32_t, std::uint32_t>> ecube(std::uint32_t s, std::uint32_t d,
                                                           std::uint32_t dim) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (std::uint32_t b = 0; b < dim; ++b) {
    if (((s ^ d) >> b) & 1U) {
      out.emplace_back(s, b);
      s ^= 1U << b;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("naive takes 3n/2 - 2 slots (Bokhari Fig. 6)", "[slots][bokhari]") {
  for (std::uint32_t dim = 3; dim <= 6; ++dim) {
    const std::uint32_t n = 1U << dim;
    INFO("n = " << n);
    CHECK(circuit(a2a_algorithm::naive, dim).steps == 3 * n / 2 - 2);
  }
}

TEST_CASE("the n = 8 charts of Figs. 6, 7 and 9 are reproduced slot for slot", "[slots][bokhari]") {
  CHECK(slot_table(circuit(a2a_algorithm::naive, 3), 8) == fig6);
  CHECK(slot_table(circuit(a2a_algorithm::linear, 3), 8) == fig7);
  CHECK(slot_table(circuit(a2a_algorithm::stable, 3), 8) == fig9);
}

TEST_CASE("pairwise: exchange s <-> d in slot s XOR d (Fig. 8)", "[slots][bokhari]") {
  const auto a = circuit(a2a_algorithm::pairwise, 3);
  const auto t = slot_table(a, 8);
  for (std::uint32_t s = 0; s < 8; ++s) {
    for (std::uint32_t d = 0; d < 8; ++d) {
      if (s != d) CHECK(t[s][d] == (s ^ d));
    }
  }
}

TEST_CASE("linear and pairwise take n - 1 contention-free slots", "[slots][bokhari]") {
  for (std::uint32_t dim = 1; dim <= 7; ++dim) {
    const std::uint32_t n = 1U << dim;
    for (auto alg : {a2a_algorithm::linear, a2a_algorithm::pairwise}) {
      INFO(fw::info(alg).name << ", n = " << n);
      const auto a = circuit(alg, dim);
      CHECK(a.steps == n - 1);
      CHECK(a.max_link_load == 1);  // no two transfers of a round share a directed link
      CHECK(a.slots->delayed == 0);
    }
  }
}

TEST_CASE("stable takes n slots, load 1, no link used in consecutive slots", "[slots][bokhari]") {
  for (std::uint32_t dim = 2; dim <= 7; ++dim) {
    const std::uint32_t n = 1U << dim;
    INFO("n = " << n);
    const auto a = circuit(a2a_algorithm::stable, dim);
    CHECK(a.steps == n);
    CHECK(a.max_link_load == 1);
    CHECK(a.slots->min_reuse_gap >= 2);
    // The same property from the slot numbers and an independent route walk.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> uses;
    for (std::size_t i = 0; i < a.list.all.size(); ++i) {
      for (const auto& link : ecube(a.list.all[i].src, a.list.all[i].dst, dim)) {
        uses[link].push_back(a.slots->slot_of[i]);
      }
    }
    for (auto& [link, slots] : uses) {
      std::sort(slots.begin(), slots.end());
      for (std::size_t k = 1; k < slots.size(); ++k)
        REQUIRE(slots[k] - slots[k - 1] >= 2);
    }
  }
}

TEST_CASE("linear is not stable: some link is used in consecutive slots", "[slots][bokhari]") {
  CHECK(circuit(a2a_algorithm::linear, 3).slots->min_reuse_gap == 1);
}

TEST_CASE("standard exchange and AAP are contention-free", "[slots]") {
  for (std::uint32_t dim = 1; dim <= 6; ++dim) {
    const std::uint32_t n = 1U << dim;
    const auto st = circuit(a2a_algorithm::standard, dim);
    CHECK(st.steps == dim);
    CHECK(st.max_link_load == 1);
    for (auto alg : {a2a_algorithm::aap, a2a_algorithm::aap_prime}) {
      const auto a = circuit(alg, dim);
      CHECK(a.steps == n - 1);
      CHECK(a.max_link_load == 1);  // vector reversal: edge-disjoint paths (Boppana §3.1)
    }
  }
}
