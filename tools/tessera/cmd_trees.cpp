// `tessera trees`: the spanning trees a pipelined torus broadcast uses (issue 5,
// Bermond92), with their depths, the edge-disjointness check, link
// usage, and each tree drawn on the grid.
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "commands.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/firmware/trees.hpp"
#include "workload.hpp"

namespace tessera::cli {

command_line trees_command_line() {
  command_line c("trees",
                 "tessera trees --fabric torus:RxC|ring:P --algorithm A [--root T] [--json]",
                 R"(The spanning trees rooted at T (default 0) that a pipelined broadcast splits its
message over (Bermond, Michallon, Trystram, "Broadcasting in wraparound meshes with
parallel monodirectional links"), each checked independently: every tile reaches the
root along links, the depth, and whether the trees share a link.)");
  c.value("fabric", "F", "torus:RxC or ring:P: the trees need wraparound links")
      .value("algorithm", "A", R"(the tree family:
 single           the root's column ring, then the row rings (§2.2);
                  depth D = floor(R/2) + floor(C/2)
 saad-schultz     two almost-spanning trees of depth D (§2.3, Fig. 3):
                  tree 1 misses the root's row, tree 2 its column; the
                  fill-in lines that complete them are listed too
 simmen           two spanning trees, every ring one way round (§2.4);
                  depth R + C - 1 (2D + 1 for odd n)
 bermond-3d2      two spanning trees, the root's line both ways (§3.2,
                  Figs 6-7); depth 3D/2 for odd n
 bermond-optimal  two spanning trees of depth n on n x n (§3.2,
                  Theorem); on R x C depth D with both sides even,
                  else D + 1; R, C in 4..16 (searched, docs/trees.md))")
      .value("root", "T", "the root tile (default 0)")
      .flag("json", "one JSON object on stdout: trees[] with depth and parent[]")
      .footer(R"(Output: each tree's depth and parents, the edge-disjointness check, the links used,
and each tree drawn on the grid: R is the root, o a tile of the tree, . a tile it
misses, arrows point from parent to child, a > or < at a row's end (v or ^ at a
column's end) is a wraparound link. Exit 2 for a fabric the family has no trees for.)");
  return c;
}

namespace {

std::string draw(const fabric& f, std::uint32_t root, const std::vector<std::uint32_t>& parent) {
  const std::uint32_t rows = f.kind == fabric_kind::ring ? 1 : f.rows;
  const std::uint32_t cols = f.cols;
  auto id = [cols](std::uint32_t r, std::uint32_t c) { return r * cols + c; };
  auto edge = [&](std::uint32_t from, std::uint32_t to) {
    return parent[to] == from && to != from;
  };
  std::ostringstream os;
  // A wraparound link down from the last row into row 0 is marked above row 0.
  std::string top(" ");
  bool any_top = false;
  for (std::uint32_t c = 0; c < cols; ++c) {
    const bool down = rows > 2 && edge(id(rows - 1, c), id(0, c));
    const bool up = rows > 2 && edge(id(0, c), id(rows - 1, c));
    top += down ? "v   " : up ? "^   " : "    ";
    any_top = any_top || down || up;
  }
  while (!top.empty() && top.back() == ' ')
    top.pop_back();
  if (any_top) os << top << '\n';
  for (std::uint32_t r = 0; r < rows; ++r) {
    std::string line;
    const bool wrap_in = cols > 2 && edge(id(r, cols - 1), id(r, 0));
    const bool wrap_out = cols > 2 && edge(id(r, 0), id(r, cols - 1));
    line += wrap_in ? ">" : wrap_out ? "<" : " ";
    for (std::uint32_t c = 0; c < cols; ++c) {
      line += id(r, c) == root ? 'R' : parent[id(r, c)] == fw::no_parent ? '.' : 'o';
      if (c + 1 < cols) {
        line += edge(id(r, c), id(r, c + 1)) ? "-->" : edge(id(r, c + 1), id(r, c)) ? "<--" : "   ";
      }
    }
    line += wrap_in ? ">" : wrap_out ? "<" : "";
    os << line << '\n';
    if (r + 1 < rows) {
      std::string mid(" ");
      for (std::uint32_t c = 0; c < cols; ++c) {
        mid += edge(id(r, c), id(r + 1, c))   ? "v   "
               : edge(id(r + 1, c), id(r, c)) ? "^   "
                                              : "    ";
      }
      while (!mid.empty() && mid.back() == ' ')
        mid.pop_back();
      os << mid << '\n';
    }
  }
  if (any_top) os << top << '\n';
  return os.str();
}

}  // namespace

int cmd_trees(const args& a, std::ostream& out, std::ostream&) {
  const std::string spec = a.require("fabric");
  const fabric f = parse_fabric_arg(spec);
  if (f.kind != fabric_kind::torus && f.kind != fabric_kind::ring)
    throw input_error("--fabric " + spec + " is not a torus: the trees need wraparound links");
  const std::string alg = a.require("algorithm");
  const fw::tree_family_info* fam = nullptr;
  std::string names;
  for (const auto& i : fw::tree_families) {
    if (i.name == alg) fam = &i;
    names += (names.empty() ? "" : ", ") + std::string(i.name);
  }
  if (fam == nullptr)
    throw input_error("--algorithm '" + alg + "' is not a tree family (available: " + names + ")");
  std::uint32_t root = 0;
  if (const auto r = a.get("root")) {
    const auto v = parse_count("root", *r, 0xffffffffULL);
    if (v >= f.tiles()) {
      throw input_error("--root " + *r + " is not a tile of " + spec + " (tiles 0.." +
                        std::to_string(f.tiles() - 1) + ")");
    }
    root = static_cast<std::uint32_t>(v);
  }
  const fw::tree_error why = fw::tree_support(fam->family, f, root);
  if (why != fw::tree_error::none)
    throw input_error("--algorithm " + alg + " " + std::string(fw::tree_error_text(why)) +
                      ", but --fabric is " + spec);
  std::vector<std::vector<std::uint32_t>> trees(fam->trees, std::vector<std::uint32_t>(f.tiles()));
  for (std::uint32_t k = 0; k < fam->trees; ++k)
    fw::build_tree(fam->family, f, root, k, trees[k]);
  const bool partial = fam->family == fw::tree_family::saad_schultz;
  std::vector<std::vector<std::uint32_t>> fills;
  if (partial) {
    for (std::uint32_t k = 0; k < fam->trees; ++k) {
      std::vector<std::uint32_t> line(f.tiles());
      for (std::uint32_t t = 0; t < f.tiles(); ++t)
        line[t] = t == root ? root : fw::fill_parent(f, root, k, t);
      fills.push_back(std::move(line));
    }
  }
  auto members = [&](const std::vector<std::uint32_t>& t) {
    std::uint32_t n = 0;
    for (std::uint32_t x : t)
      n += x != fw::no_parent ? 1U : 0U;
    return n;
  };
  auto parents_json = [](const std::vector<std::uint32_t>& t) {
    auto arr = nlohmann::ordered_json::array();
    for (std::uint32_t x : t) {
      if (x == fw::no_parent)
        arr.push_back(nullptr);
      else
        arr.push_back(x);
    }
    return arr;
  };

  std::vector<std::uint32_t> depth;
  for (const auto& t : trees)
    depth.push_back(fw::tree_depth(f, root, t, partial));
  bool disjoint = true;
  for (std::size_t i = 0; i < trees.size(); ++i)
    for (std::size_t j = i + 1; j < trees.size(); ++j)
      disjoint = disjoint && fw::edge_disjoint(f, trees[i], trees[j]);
  std::uint64_t used = 0;
  for (const auto& t : trees)
    for (std::uint32_t x = 0; x < f.tiles(); ++x)
      used += t[x] != x && t[x] != fw::no_parent ? 1U : 0U;
  std::uint64_t directed = 0;
  for (std::uint32_t t = 0; t < f.tiles(); ++t)
    for (std::uint32_t port = 0; port < f.ports(); ++port)
      directed += neighbour(f, tile_id{t}, port) ? 1U : 0U;

  if (a.flag("json")) {
    nlohmann::ordered_json j;
    j["command"] = "trees";
    j["fabric"] = spec;
    j["algorithm"] = alg;
    j["root"] = root;
    auto arr = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < trees.size(); ++i) {
      arr.push_back({{"depth", depth[i]},
                     {"spanning", depth[i] != fw::no_parent && members(trees[i]) == f.tiles()},
                     {"tiles", members(trees[i])},
                     {"parent", parents_json(trees[i])}});
    }
    j["trees"] = std::move(arr);
    if (partial) {
      auto fa = nlohmann::ordered_json::array();
      for (std::size_t k = 0; k < fills.size(); ++k) {
        fa.push_back({{"carries_tree", k + 1},
                      {"depth", fw::tree_depth(f, root, fills[k], true)},
                      {"tiles", members(fills[k])},
                      {"parent", parents_json(fills[k])}});
      }
      j["fill_in"] = std::move(fa);
    }
    j["edge_disjoint"] = disjoint;
    j["links"] = {{"used", used}, {"directed_links", directed}};
    out << j.dump(2) << '\n';
    return 0;
  }
  std::ostringstream os;
  os << alg << " on " << spec << ", root " << root << ": " << trees.size() << " tree"
     << (trees.size() == 1 ? "" : "s") << ", edge-disjoint " << (disjoint ? "yes" : "NO") << ", "
     << used << " of " << directed << " directed links used\n";
  for (std::size_t i = 0; i < trees.size(); ++i) {
    os << "\ntree " << i + 1 << ": depth " << depth[i] << ", " << members(trees[i]) << " of "
       << f.tiles() << " tiles\n"
       << draw(f, root, trees[i]);
  }
  for (std::size_t k = 0; k < fills.size(); ++k) {
    os << "\nfill-in of tree " << k + 1 << " (after the root's last packet): depth "
       << fw::tree_depth(f, root, fills[k], true) << '\n'
       << draw(f, root, fills[k]);
  }
  out << os.str();
  return 0;
}

}  // namespace tessera::cli
