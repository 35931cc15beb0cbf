// `reproduce bermond` (Bermond, Michallon, Trystram, "Broadcasting in wraparound meshes
// with parallel monodirectional links"): the paper values are b(L, h, d) of §2.1 with
// the depths of §2.2-3.2 and the MegaNode's beta = 628 us and tau = 2.2 us/byte,
// evaluated here, and every row passes.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "find_row.hpp"
#include "tessera/reproduce/reproduce.hpp"

using namespace tessera::reproduce;
using tessera::test::find_row;

namespace {
double b(double L, double h, double d) {
  const double root = std::sqrt((h - 1) * 628.0) + std::sqrt(2.2 * L / d);
  return root * root;
}
}  // namespace

TEST_CASE("reproduce bermond: b(L, h, d), the depths and L0 as the paper states them",
          "[reproduce]") {
  options o;
  o.bermond.n_min = 7;  // a smaller grid than the command's: the same rules
  o.bermond.n_max = 8;
  o.bermond.lengths = {4096};
  o.bermond.figure_sizes = {8};
  o.bermond.figure_lengths = {1024, 4096};
  const paper_report r = run("bermond", o);
  INFO(r.failed() << " rows failed");
  CHECK(r.pass());
  // 7 x 7: D = 6; single D, Simmen 2D + 1 = 13, 3D/2 = 9, optimal n = 7 (§2.2-3.2).
  struct want {
    const char* what;
    double depth;
  };
  for (const want& w :
       {want{"single tree, 7x7", 6}, want{"Saad-Schultz, 7x7", 6}, want{"Simmen, 7x7", 13},
        want{"depth 3D/2, 7x7", 9}, want{"optimal, depth n, 7x7", 7}}) {
    INFO(w.what);
    const row* x = find_row(r, w.what);
    REQUIRE(x != nullptr);
    CHECK(x->paper == w.depth);
    CHECK(x->simulated == w.depth);  // on odd n the trees have the paper's depth
  }
  // The times: b(L, h, d) in microseconds, and the runs at most a whole-packet margin
  // above (the row's own tolerance is checked by pass()).
  const row* opt = find_row(r, "optimal, depth n, 8x8, L = 4096");
  REQUIRE(opt != nullptr);
  CHECK(opt->paper == Approx(b(4096, 8, 2)).epsilon(1e-12));
  CHECK(opt->simulated >= opt->paper);
  const row* single = find_row(r, "single tree, 7x7, L = 4096");
  REQUIRE(single != nullptr);
  CHECK(single->paper == Approx(b(4096, 6, 1)).epsilon(1e-12));
  // L0 = beta D^2 / (2 tau (D - 1)) on 8 x 8 (D = 8): 628 x 64 / (4.4 x 7) = 1304.9 bytes.
  const double L0 = 628.0 * 64 / (2 * 2.2 * 7);
  const std::string below = "Saad-Schultz, 8x8, L = " + std::to_string(static_cast<int>(L0 / 2)) +
                            " = L0 / 2: the fill-in hides in the empty phase";
  const std::string above =
      "Saad-Schultz, 8x8, L = " + std::to_string(static_cast<int>(std::ceil(4 * L0))) +
      " = 4 L0: the fill-in outlasts the pipeline";
  REQUIRE(find_row(r, below) != nullptr);
  REQUIRE(find_row(r, above) != nullptr);
  CHECK(find_row(r, below)->pass());
  CHECK(find_row(r, above)->pass());
  CHECK(r.figures.size() == 2);
}
