// Spanning trees of tori for the pipelined broadcast (002_99346807104d0b95.txt,
// Bermond, Michallon, Trystram §2.2). The checks (tree_depth, edge_disjoint) are
// independent of the builders; here they are themselves tested on hand-made trees,
// and then hold the builders to the paper's depths.
#include <catch2/catch.hpp>

#include <vector>

#include "tessera/firmware/trees.hpp"

namespace fw = tessera::fw;

namespace {
tessera::fabric fab(const std::string& s) {
  return tessera::parse_fabric(s).value;
}
}  // namespace

TEST_CASE("tree checks reject what is not a spanning tree", "[firmware][trees]") {
  const tessera::fabric f = fab("ring:4");
  // 0 <- 1 <- 2 and 0 <- 3: a spanning tree of depth 2.
  const std::vector<std::uint32_t> good{0, 0, 1, 0};
  CHECK(fw::tree_depth(f, 0, good) == 2);
  // 2's parent 0 is not a neighbour of 2 on a 4-ring.
  CHECK(fw::tree_depth(f, 0, std::vector<std::uint32_t>{0, 0, 0, 0}) == fw::no_parent);
  // 1 and 2 point at each other: they never reach the root.
  CHECK(fw::tree_depth(f, 0, std::vector<std::uint32_t>{0, 2, 1, 0}) == fw::no_parent);
  // The root must be its own parent.
  CHECK(fw::tree_depth(f, 0, std::vector<std::uint32_t>{1, 0, 1, 0}) == fw::no_parent);
  // Two trees sharing link 0-1 (in either direction) are not edge-disjoint.
  const std::vector<std::uint32_t> other{1, 1, 1, 2};  // root 1: 0 <- 1, 2 <- 1, 3 <- 2
  CHECK_FALSE(fw::edge_disjoint(f, good, other));
  const std::vector<std::uint32_t> ring_a{0, 0, 1, 2};  // 0 -> 1 -> 2 -> 3
  const std::vector<std::uint32_t> ring_b{0, 2, 3, 0};  // 0 -> 3 -> 2 -> 1
  CHECK_FALSE(fw::edge_disjoint(f, ring_a, ring_b));    // both use 1-2 and 2-3
}

TEST_CASE("the single tree spans the torus with depth D from any root", "[firmware][trees]") {
  // §2.2: the column ring then the row rings; depth = the diameter
  // D = floor(R/2) + floor(C/2).
  for (const char* spec : {"torus:4x4", "torus:5x5", "torus:8x8", "torus:3x7", "torus:6x9",
                           "torus:16x16", "ring:7", "ring:8"}) {
    const tessera::fabric f = fab(spec);
    const std::uint32_t rows = f.kind == tessera::fabric_kind::ring ? 1 : f.rows;
    const std::uint32_t d = rows / 2 + f.cols / 2;
    std::vector<std::uint32_t> parent(f.tiles());
    for (std::uint32_t root = 0; root < f.tiles(); root += 3) {
      REQUIRE(fw::single_tree(f, root, parent));
      INFO(spec << " root " << root);
      CHECK(fw::tree_depth(f, root, parent) == d);
    }
  }
  std::vector<std::uint32_t> parent(16);
  CHECK_FALSE(fw::single_tree(fab("mesh:4x4"), 0, parent));
  CHECK_FALSE(fw::single_tree(fab("torus:4x4"), 16, parent));
}
