// tessera trees: the torus broadcast trees of Bermond92 (issue 5),
// checked and drawn. Depths come from the paper (§2.2: the single tree has depth D,
// the torus diameter floor(R/2) + floor(C/2)).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

using tessera::test::one_line;
using tessera::test::run_cli;

TEST_CASE("trees reports the single tree's depth D and parents", "[cli][trees]") {
  const auto r = run_cli(
      {"trees", "--fabric", "torus:6x9", "--algorithm", "single", "--root", "20", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["trees"].size() == 1);
  CHECK(j["trees"][0]["depth"] == 6 / 2 + 9 / 2);
  CHECK(j["trees"][0]["spanning"] == true);
  CHECK(j["trees"][0]["parent"][20] == 20);
  CHECK(j["edge_disjoint"] == true);
  CHECK(j["links"]["used"] == 6 * 9 - 1);  // a spanning tree has p - 1 edges
  CHECK(j["links"]["directed_links"] == 4 * 6 * 9);
  const auto text =
      run_cli({"trees", "--fabric", "torus:5x5", "--algorithm", "single", "--root", "12"});
  REQUIRE(text.code == 0);
  // The root's row goes both ways from R; its column carries the arrows to the rows.
  CHECK(text.out.find("o<--o<--R-->o-->o") != std::string::npos);
  CHECK(text.out.find("depth 4") != std::string::npos);
}

TEST_CASE("trees rejects bad input with one line", "[cli][trees]") {
  auto err = [](std::vector<std::string> args) {
    args.insert(args.begin(), "trees");
    const auto r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    return r.err;
  };
  CHECK(err({"--fabric", "mesh:4x4", "--algorithm", "single"}) ==
        "tessera: --fabric mesh:4x4 is not a torus: the trees need wraparound links\n");
  CHECK(err({"--fabric", "torus:4x4", "--algorithm", "single", "--root", "16"}) ==
        "tessera: --root 16 is not a tile of torus:4x4 (tiles 0..15)\n");
  CHECK(err({"--fabric", "torus:4x4", "--algorithm", "lattice"}) ==
        "tessera: --algorithm 'lattice' is not a tree family (available: single, saad-schultz, "
        "simmen, bermond-3d2, bermond-optimal)\n");
  CHECK(err({"--fabric", "torus:20x20", "--algorithm", "bermond-optimal"}) ==
        "tessera: --algorithm bermond-optimal has trees for R x C with R and C in 4..16 only, but "
        "--fabric is torus:20x20\n");
  CHECK(err({"--fabric", "ring:8", "--algorithm", "simmen"}) ==
        "tessera: --algorithm simmen needs a torus fabric, but --fabric is ring:8\n");
}

TEST_CASE("trees reports two edge-disjoint trees for the two-tree families", "[cli][trees]") {
  // Bermond92: Simmen R + C - 1 (2D + 1 for odd n, §2.4), 3D/2 for odd n (§3.2),
  // n for the optimal pair (§3.2, Theorem).
  struct want {
    const char* family;
    const char* fabric;
    unsigned depth;
  };
  for (const want w :
       {want{"bermond-optimal", "torus:9x9", 9}, want{"bermond-optimal", "torus:12x12", 12},
        want{"simmen", "torus:7x7", 2 * 6 + 1}, want{"bermond-3d2", "torus:7x7", 3 * 6 / 2}}) {
    INFO(w.family << " " << w.fabric);
    const auto r =
        run_cli({"trees", "--fabric", w.fabric, "--algorithm", w.family, "--root", "5", "--json"});
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["trees"].size() == 2);
    const auto p = static_cast<unsigned>(j["trees"][0]["parent"].size());
    for (const auto& t : j["trees"]) {
      CHECK(t["depth"] == w.depth);
      CHECK(t["spanning"] == true);
      CHECK(t["tiles"] == p);
    }
    CHECK(j["edge_disjoint"] == true);
    CHECK(j["links"]["used"] == 2 * (p - 1));
  }
  // Saad-Schultz: each tree misses a line of n - 1 tiles, which its fill-in reaches.
  const auto r =
      run_cli({"trees", "--fabric", "torus:8x8", "--algorithm", "saad-schultz", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& t : j["trees"]) {
    CHECK(t["depth"] == 8);
    CHECK(t["spanning"] == false);
    CHECK(t["tiles"] == 64 - 7);
  }
  REQUIRE(j["fill_in"].size() == 2);
  CHECK(j["fill_in"][0]["tiles"] == 8);
  CHECK(j["fill_in"][0]["depth"] == 4);
  CHECK(j["trees"][0]["parent"][1].is_null());  // tile 1 is on the root's row
}
