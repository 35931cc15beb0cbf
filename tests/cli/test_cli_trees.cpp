// tessera trees: the torus broadcast trees of 002_99346807104d0b95.txt (issue 5),
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
        "tessera: --algorithm 'lattice' is not built yet (available: single)\n");
}
