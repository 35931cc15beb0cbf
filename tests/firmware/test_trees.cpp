// Spanning trees of tori for the pipelined broadcast (Bermond92 §2.2).
// The checks (tree_depth, edge_disjoint) are
// independent of the builders; here they are themselves tested on hand-made trees,
// and then hold the builders to the paper's depths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
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

namespace {

// The test's own view of a tree, built from the parent array alone: every edge must
// join torus neighbours (by coordinates, not routing.hpp), the edges must reach every
// member from the root going down, and the depth is the deepest level of that walk.
struct walked {
  bool ok{false};
  std::uint32_t depth{0};
  std::uint32_t members{0};
};

bool torus_neighbours(const tessera::fabric& f, std::uint32_t a, std::uint32_t b) {
  const std::uint32_t ra = a / f.cols, ca = a % f.cols, rb = b / f.cols, cb = b % f.cols;
  const bool row_step = ra == rb && ((ca + 1) % f.cols == cb || (cb + 1) % f.cols == ca);
  const bool col_step = ca == cb && ((ra + 1) % f.rows == rb || (rb + 1) % f.rows == ra);
  return row_step || col_step;
}

walked walk(const tessera::fabric& f, std::uint32_t root,
            const std::vector<std::uint32_t>& parent) {
  const std::uint32_t p = f.tiles();
  walked w;
  if (parent[root] != root) return w;
  std::vector<std::vector<std::uint32_t>> children(p);
  std::uint32_t members = 1;
  for (std::uint32_t t = 0; t < p; ++t) {
    if (t == root || parent[t] == fw::no_parent) continue;
    if (parent[t] >= p || !torus_neighbours(f, t, parent[t])) return w;
    children[parent[t]].push_back(t);
    ++members;
  }
  std::vector<std::uint32_t> level{root};
  std::uint32_t reached = 1;
  std::uint32_t depth = 0;
  while (true) {
    std::vector<std::uint32_t> next;
    for (std::uint32_t t : level)
      for (std::uint32_t c : children[t])
        next.push_back(c);
    if (next.empty()) break;
    ++depth;
    reached += static_cast<std::uint32_t>(next.size());
    level = std::move(next);
  }
  w.ok = reached == members;  // a cycle leaves its tiles unreached
  w.depth = depth;
  w.members = members;
  return w;
}

std::set<std::pair<std::uint32_t, std::uint32_t>> links_of(
    const std::vector<std::uint32_t>& parent) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> s;
  for (std::uint32_t t = 0; t < parent.size(); ++t) {
    if (parent[t] == t || parent[t] == fw::no_parent) continue;
    s.insert({std::min(t, parent[t]), std::max(t, parent[t])});
  }
  return s;
}

bool disjoint(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  const auto la = links_of(a);
  for (const auto& l : links_of(b))
    if (la.count(l) != 0) return false;
  return true;
}

std::vector<std::uint32_t> tree_of(fw::tree_family fam, const tessera::fabric& f,
                                   std::uint32_t root, std::uint32_t k) {
  std::vector<std::uint32_t> parent(f.tiles(), fw::no_parent);
  REQUIRE(fw::build_tree(fam, f, root, k, parent));
  return parent;
}

}  // namespace

TEST_CASE("bermond-optimal: two edge-disjoint spanning trees of depth n, n = 4..16, every root",
          "[firmware][trees]") {
  // Bermond92 §3.2, Theorem: depth n on the n x n torus (D = n for even n; for odd n,
  // D = n - 1 is impossible by the paper's counting argument, so n is optimal).
  for (std::uint32_t n = 4; n <= 16; ++n) {
    const tessera::fabric f = fab("torus:" + std::to_string(n) + "x" + std::to_string(n));
    for (std::uint32_t root = 0; root < f.tiles(); ++root) {
      INFO("n " << n << " root " << root);
      const auto a = tree_of(fw::tree_family::bermond_optimal, f, root, 0);
      const auto b = tree_of(fw::tree_family::bermond_optimal, f, root, 1);
      const walked wa = walk(f, root, a);
      const walked wb = walk(f, root, b);
      REQUIRE(wa.ok);
      REQUIRE(wb.ok);
      REQUIRE(wa.members == f.tiles());
      REQUIRE(wb.members == f.tiles());
      REQUIRE(wa.depth == n);
      REQUIRE(wb.depth == n);
      REQUIRE(disjoint(a, b));
      // The header's own checks agree with the walk.
      REQUIRE(fw::tree_depth(f, root, a) == n);
      REQUIRE(fw::edge_disjoint(f, a, b));
    }
  }
}

TEST_CASE("bermond-optimal on R x C: depth D with even sides, else D + 1, from any root",
          "[firmware][trees]") {
  // Bermond92 §3.2: "the construction of these spanning trees can be extended to
  // non-square wraparound meshes". D = floor(R/2) + floor(C/2) is a lower bound; with
  // both sides odd the paper's counting rules it out (four unusable links between
  // the four tiles at distance D), so D + 1 is optimal there too. Every R x C with
  // sides in 4..16, both orientations, every seventh root.
  for (std::uint32_t R = 4; R <= 16; ++R) {
    for (std::uint32_t C = 4; C <= 16; ++C) {
      if (R == C) continue;  // the square case above
      const tessera::fabric f = fab("torus:" + std::to_string(R) + "x" + std::to_string(C));
      const std::uint32_t D = R / 2 + C / 2;
      const std::uint32_t want = R % 2 == 0 && C % 2 == 0 ? D : D + 1;
      for (std::uint32_t root = 0; root < f.tiles(); root += 7) {
        INFO(R << "x" << C << " root " << root);
        const auto a = tree_of(fw::tree_family::bermond_optimal, f, root, 0);
        const auto b = tree_of(fw::tree_family::bermond_optimal, f, root, 1);
        const walked wa = walk(f, root, a);
        const walked wb = walk(f, root, b);
        REQUIRE((wa.ok && wb.ok));
        REQUIRE(wa.members == f.tiles());
        REQUIRE(wb.members == f.tiles());
        REQUIRE(wa.depth == want);
        REQUIRE(wb.depth == want);
        REQUIRE(disjoint(a, b));
      }
    }
  }
}

TEST_CASE("simmen and bermond-3d2 pairs span, are edge-disjoint and have the paper's depths",
          "[firmware][trees]") {
  // Bermond92 §2.4: Simmen's trees have depth 2D + 1; §3.2, Figs 6-7: 3D/2. Our trees
  // (every ring one way; the root's line both ways) give R + C - 1 and
  // max(floor(R/2) + C - 1, floor(C/2) + R - 1) (at least C + 1 and R + 1), which for
  // odd n x n (D = n - 1) are 2D + 1 and 3D/2 exactly.
  for (const char* spec :
       {"torus:3x3", "torus:4x4", "torus:5x5", "torus:7x7", "torus:8x8", "torus:9x9", "torus:12x12",
        "torus:16x16", "torus:3x8", "torus:6x4", "torus:5x11"}) {
    const tessera::fabric f = fab(spec);
    const std::uint32_t R = f.rows, C = f.cols;
    for (std::uint32_t root = 0; root < f.tiles(); root += 5) {
      INFO(spec << " root " << root);
      for (auto fam : {fw::tree_family::simmen, fw::tree_family::bermond_3d2}) {
        const auto a = tree_of(fam, f, root, 0);
        const auto b = tree_of(fam, f, root, 1);
        const walked wa = walk(f, root, a);
        const walked wb = walk(f, root, b);
        REQUIRE((wa.ok && wb.ok));
        REQUIRE(wa.members == f.tiles());
        REQUIRE(wb.members == f.tiles());
        REQUIRE(disjoint(a, b));
        if (fam == fw::tree_family::simmen) {
          CHECK(wa.depth == R + C - 1);
          CHECK(wb.depth == R + C - 1);
        } else {
          CHECK(wa.depth == std::max(R / 2 + C - 1, C + 1));
          CHECK(wb.depth == std::max(C / 2 + R - 1, R + 1));
        }
        CHECK(std::max(wa.depth, wb.depth) == fw::family_depth(fam, f));
      }
    }
  }
  for (std::uint32_t n : {3U, 5U, 7U, 9U, 11U}) {
    const tessera::fabric f = fab("torus:" + std::to_string(n) + "x" + std::to_string(n));
    const std::uint32_t D = n - 1;
    CHECK(fw::family_depth(fw::tree_family::simmen, f) == 2 * D + 1);
    if (n >= 5) CHECK(fw::family_depth(fw::tree_family::bermond_3d2, f) == 3 * D / 2);
  }
}

TEST_CASE("saad-schultz: two almost-spanning trees of depth D and the fill-in lines",
          "[firmware][trees]") {
  // Bermond92 §2.3, Fig. 3: tree 0 misses the root's row, tree 1 its column; the fill-in
  // sends each tree's part again along the line it misses, over the other tree's
  // links in the same direction.
  for (const char* spec : {"torus:4x4", "torus:5x5", "torus:8x8", "torus:16x16", "torus:3x7"}) {
    const tessera::fabric f = fab(spec);
    const std::uint32_t D = f.rows / 2 + f.cols / 2;
    for (std::uint32_t root = 0; root < f.tiles(); root += 7) {
      INFO(spec << " root " << root);
      std::vector<std::uint32_t> tree[2], fill[2];
      for (std::uint32_t k = 0; k < 2; ++k) {
        tree[k] = tree_of(fw::tree_family::saad_schultz, f, root, k);
        fill[k].assign(f.tiles(), fw::no_parent);
        for (std::uint32_t t = 0; t < f.tiles(); ++t)
          fill[k][t] = t == root ? root : fw::fill_parent(f, root, k, t);
        const walked w = walk(f, root, tree[k]);
        REQUIRE(w.ok);
        CHECK(w.depth == D);
        const std::uint32_t line = k == 0 ? f.cols : f.rows;
        CHECK(w.members == f.tiles() - (line - 1));
        const walked wf = walk(f, root, fill[k]);
        REQUIRE(wf.ok);
        CHECK(wf.members == line);
        CHECK(fw::tree_depth(f, root, tree[k], true) == D);
      }
      REQUIRE(disjoint(tree[0], tree[1]));
      for (std::uint32_t k = 0; k < 2; ++k) {
        for (std::uint32_t t = 0; t < f.tiles(); ++t) {
          if (t == root) continue;
          // Each tile lacks tree k's part exactly when fill line k reaches it.
          CHECK((tree[k][t] == fw::no_parent) == (fill[k][t] != fw::no_parent));
          if (fill[k][t] != fw::no_parent) CHECK(tree[1 - k][t] == fill[k][t]);
        }
      }
    }
  }
}

TEST_CASE("tree families refuse fabrics they have no trees for", "[firmware][trees]") {
  using fw::tree_error;
  using fw::tree_family;
  CHECK(fw::tree_support(tree_family::simmen, fab("mesh:4x4"), 0) == tree_error::not_torus);
  CHECK(fw::tree_support(tree_family::simmen, fab("ring:8"), 0) == tree_error::not_torus);
  CHECK(fw::tree_support(tree_family::single, fab("ring:8"), 0) == tree_error::none);
  CHECK(fw::tree_support(tree_family::saad_schultz, fab("torus:4x4"), 16) == tree_error::root_off);
  CHECK(fw::tree_support(tree_family::bermond_3d2, fab("torus:2x8"), 0) == tree_error::too_small);
  CHECK(fw::tree_support(tree_family::bermond_optimal, fab("torus:8x10"), 0) == tree_error::none);
  CHECK(fw::tree_support(tree_family::bermond_optimal, fab("torus:3x10"), 0) ==
        tree_error::size_unsupported);
  CHECK(fw::tree_support(tree_family::bermond_optimal, fab("torus:17x17"), 0) ==
        tree_error::size_unsupported);
  CHECK(fw::tree_support(tree_family::bermond_optimal, fab("torus:3x3"), 0) ==
        tree_error::size_unsupported);
  std::vector<std::uint32_t> parent(64);
  CHECK_FALSE(fw::build_tree(tree_family::bermond_optimal, fab("torus:4x17"), 0, 0, parent));
  CHECK_FALSE(fw::build_tree(tree_family::single, fab("torus:4x4"), 0, 1, parent));
}
