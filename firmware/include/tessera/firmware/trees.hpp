// Spanning trees of a torus rooted at any tile, as parent arrays, for the pipelined
// broadcast of Bermond92. Freestanding:
// the caller owns the arrays (one entry per tile; parent[root] = root).
//
// The checks here are written independently of the builders so tests can hold every
// builder to them: a tree is a spanning tree of the fabric when every tile reaches
// the root by parent steps along links, and trees are edge-disjoint when no two use
// the same undirected link.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "tessera/firmware/optimal_trees_table.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::fw {

inline constexpr std::uint32_t no_parent = 0xffffffffU;

// The tree families of Bermond92 (docs/trees.md): how many trees each pipelines on, and the
// names `tessera trees --algorithm` and `--algorithm edst-...` use.
enum class tree_family : std::uint8_t {
  single,           // §2.2: one tree of depth D
  saad_schultz,     // §2.3: two almost-spanning trees of depth D, with the fill-in
  simmen,           // §2.4: two spanning trees, every ring one way round
  bermond_3d2,      // §3.2, Figs 6-7: two spanning trees of depth about 3D/2
  bermond_optimal,  // §3.2, Theorem: two spanning trees of depth n on n x n (and R x C)
};

struct tree_family_info {
  tree_family family;
  std::string_view name;        // tessera trees --algorithm
  std::string_view bcast_name;  // tessera run --collective bcast --algorithm
  std::uint32_t trees;          // d of b(L, h, d)
};

inline constexpr std::array<tree_family_info, 5> tree_families{{
    {tree_family::single, "single", "edst-single", 1},
    {tree_family::saad_schultz, "saad-schultz", "edst-saad-schultz", 2},
    {tree_family::simmen, "simmen", "edst-simmen", 2},
    {tree_family::bermond_3d2, "bermond-3d2", "edst-3d2", 2},
    {tree_family::bermond_optimal, "bermond-optimal", "edst-optimal", 2},
}};

constexpr const tree_family_info& info(tree_family f) {
  return tree_families[static_cast<std::size_t>(f)];
}

// Why a family has no trees on a fabric.
enum class tree_error : std::uint8_t {
  none,
  not_torus,         // the fabric is not a torus (single also takes a ring)
  root_off,          // the root is not a tile of the fabric
  too_small,         // two-tree families need at least 3 x 3
  size_unsupported,  // bermond-optimal: a side outside the searched 4..16
};

constexpr std::string_view tree_error_text(tree_error e) {
  switch (e) {
    case tree_error::none:
      return "";
    case tree_error::not_torus:
      return "needs a torus fabric";
    case tree_error::root_off:
      return "the root is not a tile of the fabric";
    case tree_error::too_small:
      return "needs a torus of at least 3 x 3";
    case tree_error::size_unsupported:
      return "has trees for R x C with R and C in 4..16 only";
  }
  return "";
}

constexpr tree_error tree_support(tree_family fam, const fabric& f, std::uint32_t root) {
  const bool ring = f.kind == fabric_kind::ring;
  if (f.kind != fabric_kind::torus && !(ring && fam == tree_family::single))
    return tree_error::not_torus;
  if (root >= f.tiles()) return tree_error::root_off;
  if (fam == tree_family::single) return tree_error::none;
  if (f.rows < 3 || f.cols < 3) return tree_error::too_small;
  if (fam == tree_family::bermond_optimal &&
      (f.rows < optimal_table::min_n || f.rows > optimal_table::max_n ||
       f.cols < optimal_table::min_n || f.cols > optimal_table::max_n))
    return tree_error::size_unsupported;
  return tree_error::none;
}

namespace detail {

// Coordinates relative to the root: dx along a row (columns), dy along a column.
struct frame {
  std::uint32_t rows;
  std::uint32_t cols;
  std::uint32_t r0;
  std::uint32_t c0;

  constexpr frame(const fabric& f, std::uint32_t root)
      : rows{f.kind == fabric_kind::ring ? 1 : f.rows},
        cols{f.cols},
        r0{root / f.cols},
        c0{root % f.cols} {}
  [[nodiscard]] constexpr std::uint32_t dx(std::uint32_t t) const {
    return (t % cols + cols - c0) % cols;
  }
  [[nodiscard]] constexpr std::uint32_t dy(std::uint32_t t) const {
    return (t / cols + rows - r0) % rows;
  }
  [[nodiscard]] constexpr std::uint32_t at(std::uint32_t x, std::uint32_t y) const {
    return ((r0 + y) % rows) * cols + (c0 + x) % cols;
  }
};

// One step towards 0 on a ring of n covered both ways round (the far tile of an even
// ring hangs off the positive side).
constexpr std::uint32_t toward0(std::uint32_t d, std::uint32_t n) {
  return d <= n / 2 ? d - 1 : (d + 1) % n;
}

// The searched pair for R x C (optimal_trees_table.hpp holds R <= C; C x R is its
// transpose, with east and north exchanged).
constexpr const optimal_table::entry& optimal_entry(std::uint32_t rows, std::uint32_t cols) {
  const std::uint32_t r = rows <= cols ? rows : cols;
  const std::uint32_t c = rows <= cols ? cols : rows;
  for (const auto& e : optimal_table::pairs) {
    if (e.rows == r && e.cols == c) return e;
  }
  return optimal_table::pairs[0];  // unreachable after tree_support()
}

constexpr std::uint32_t optimal_parent(const frame& fr, std::uint32_t k, std::uint32_t x,
                                       std::uint32_t y) {
  const auto& e = optimal_entry(fr.rows, fr.cols);
  const bool flip = fr.rows > fr.cols;
  // Position in the table's R <= C frame.
  const std::uint32_t tx = flip ? y : x;
  const std::uint32_t ty = flip ? x : y;
  char dir = (k == 0 ? e.tree0 : e.tree1)[ty * e.cols + tx];
  if (flip) {
    dir = dir == 'E' ? 'N' : dir == 'N' ? 'E' : dir == 'W' ? 'S' : dir == 'S' ? 'W' : dir;
  }
  switch (dir) {
    case 'E':
      return fr.at((x + 1) % fr.cols, y);
    case 'W':
      return fr.at((x + fr.cols - 1) % fr.cols, y);
    case 'N':
      return fr.at(x, (y + 1) % fr.rows);
    case 'S':
      return fr.at(x, (y + fr.rows - 1) % fr.rows);
    default:
      return no_parent;
  }
}

}  // namespace detail

// The parent of `tile` in tree k (0 or 1) of a family, the tile itself for the root,
// or no_parent for a tile the tree does not reach (Saad-Schultz's missing lines).
// Precondition: tree_support() is none and k < info(fam).trees.
//
//  single:       the root's column both ways, then every row both ways (§2.2).
//  saad-schultz: tree 0 is the single tree without row 0's other tiles; tree 1 is
//                row 0 both ways, then every other column both ways, without column
//                0's other tiles: the two almost-spanning trees of Fig. 3.
//  simmen:       tree 0 runs the root's column one way (north), every other row one
//                way (east), and reaches row 0's tiles from the row below; tree 1 is
//                its mirror in the diagonal. Depth R + C - 1 (2D + 1 for odd n).
//  bermond-3d2:  as simmen, but the root's own line runs both ways round, which
//                takes floor(R/2) + C - 1 (3D/2 for odd n) off the single ring.
//  bermond-optimal: the searched pair of depth n on n x n, and on R x C of depth D
//                (both sides even) or D + 1 (optimal_trees_table.hpp).
constexpr std::uint32_t tree_parent(tree_family fam, const fabric& f, std::uint32_t root,
                                    std::uint32_t k, std::uint32_t tile) {
  const detail::frame fr{f, root};
  const std::uint32_t x = fr.dx(tile);
  const std::uint32_t y = fr.dy(tile);
  if (x == 0 && y == 0) return tile;
  const std::uint32_t R = fr.rows;
  const std::uint32_t C = fr.cols;
  // Tree 1 of the two-tree families is tree 0 with the roles of rows and columns
  // swapped; on a rectangle the rule is the same with R and C exchanged.
  const bool swap = k == 1;
  const std::uint32_t a = swap ? y : x;  // position along the line of tree 0's rows
  const std::uint32_t b = swap ? x : y;  // position along the root's line
  const std::uint32_t A = swap ? R : C;
  const std::uint32_t B = swap ? C : R;
  auto at = [&](std::uint32_t pa, std::uint32_t pb) {
    return swap ? fr.at(pb, pa) : fr.at(pa, pb);
  };
  switch (fam) {
    case tree_family::single:
      if (x != 0) return fr.at(detail::toward0(x, C), y);
      return fr.at(0, detail::toward0(y, R));
    case tree_family::saad_schultz:
      if (a != 0) return b == 0 ? no_parent : at(detail::toward0(a, A), b);
      return at(0, detail::toward0(b, B));
    case tree_family::simmen:
    case tree_family::bermond_3d2:
      if (a == 0) {
        return fam == tree_family::simmen ? at(0, b - 1) : at(0, detail::toward0(b, B));
      }
      if (b == 0) return at(a, B - 1);  // row 0 from the row below
      return at(a - 1, b);              // every other row east
    case tree_family::bermond_optimal:
      return detail::optimal_parent(fr, k, x, y);
  }
  return no_parent;
}

// Saad-Schultz's fill-in (§2.3): once the root has sent its last packet, tree k's part
// goes again along the line tree k misses (row 0 for tree 0, column 0 for tree 1),
// both ways round from the root. The parent of `tile` on that line, or no_parent.
constexpr std::uint32_t fill_parent(const fabric& f, std::uint32_t root, std::uint32_t k,
                                    std::uint32_t tile) {
  const detail::frame fr{f, root};
  const std::uint32_t x = fr.dx(tile);
  const std::uint32_t y = fr.dy(tile);
  if (k == 0) {
    if (y != 0 || x == 0) return no_parent;
    return fr.at(detail::toward0(x, fr.cols), 0);
  }
  if (x != 0 || y == 0) return no_parent;
  return fr.at(0, detail::toward0(y, fr.rows));
}

// The depth the family's construction gives (for the checks and b(L, h, d)).
constexpr std::uint32_t family_depth(tree_family fam, const fabric& f) {
  const std::uint32_t R = f.kind == fabric_kind::ring ? 1 : f.rows;
  const std::uint32_t C = f.cols;
  switch (fam) {
    case tree_family::single:
    case tree_family::saad_schultz:
      return R / 2 + C / 2;
    case tree_family::simmen:
      return R + C - 1;
    case tree_family::bermond_3d2: {
      // The far end of the root's line, or (on 3 x C) the row-0 tile reached last
      // from the row below: C - 1 east of the root's neighbour, then one step.
      auto most = [](std::uint32_t u, std::uint32_t v) { return u > v ? u : v; };
      return most(most(R / 2 + C - 1, C + 1), most(C / 2 + R - 1, R + 1));
    }
    case tree_family::bermond_optimal:
      // n on n x n; D for even sides, else D + 1 (optimal_trees_table.hpp)
      return R / 2 + C / 2 + (R % 2 == 0 && C % 2 == 0 ? 0 : 1);
  }
  return 0;
}

// Fills parent[] with tree k; false (and nothing written) when tree_support() fails.
constexpr bool build_tree(tree_family fam, const fabric& f, std::uint32_t root, std::uint32_t k,
                          std::span<std::uint32_t> parent) {
  if (tree_support(fam, f, root) != tree_error::none || k >= info(fam).trees ||
      parent.size() < f.tiles())
    return false;
  for (std::uint32_t t = 0; t < f.tiles(); ++t)
    parent[t] = tree_parent(fam, f, root, k, t);
  return true;
}

// §2.2, "a first solution": the root's column ring, then every row ring, each ring
// covered from its source both ways round, so the depth is floor(R/2) + floor(C/2) =
// D, the diameter. Works on any torus (and on a ring, as 1 x C). False when the
// fabric is not a torus or ring, the root is off it, or `parent` is too small.
constexpr bool single_tree(const fabric& f, std::uint32_t root, std::span<std::uint32_t> parent) {
  return build_tree(tree_family::single, f, root, 0, parent);
}

// ---- checks ----

// The output port of `from` whose link leads to `to`, or no_parent.
constexpr std::uint32_t port_towards(const fabric& f, std::uint32_t from, std::uint32_t to) {
  for (std::uint32_t port = 0; port < f.ports(); ++port) {
    const auto n = neighbour(f, tile_id{from}, port);
    if (n && n->value() == to) return port;
  }
  return no_parent;
}

// The depth of a spanning tree (edges on the longest root path), or no_parent when
// `parent` is not one: a tile that does not reach the root within p steps, a parent
// that is not a neighbour, or a root that is not its own parent.
// With `partial`, tiles whose parent is no_parent are outside the tree (Saad and
// Schultz's almost-spanning trees) and every other tile must still reach the root.
constexpr std::uint32_t tree_depth(const fabric& f, std::uint32_t root,
                                   std::span<const std::uint32_t> parent, bool partial = false) {
  const std::uint32_t p = f.tiles();
  if (root >= p || parent.size() < p || parent[root] != root) return no_parent;
  std::uint32_t depth = 0;
  for (std::uint32_t t = 0; t < p; ++t) {
    if (partial && parent[t] == no_parent) continue;
    std::uint32_t at = t;
    std::uint32_t steps = 0;
    while (at != root) {
      const std::uint32_t up = parent[at];
      if (up >= p || up == at || port_towards(f, up, at) == no_parent) return no_parent;
      at = up;
      if (++steps > p) return no_parent;  // a cycle
    }
    if (steps > depth) depth = steps;
  }
  return depth;
}

// True when no undirected link carries edges of both trees (each tree's edges are
// child-parent pairs; a tree never uses a link twice).
constexpr bool edge_disjoint(const fabric& f, std::span<const std::uint32_t> a,
                             std::span<const std::uint32_t> b) {
  const std::uint32_t p = f.tiles();
  for (std::uint32_t x = 0; x < p; ++x) {
    if (a[x] == x || a[x] == no_parent) continue;
    for (std::uint32_t y = 0; y < p; ++y) {
      if (b[y] == y || b[y] == no_parent) continue;
      const bool same = (x == y && a[x] == b[y]) || (x == b[y] && a[x] == y);
      if (same) return false;
    }
  }
  return true;
}

}  // namespace tessera::fw
