// An image's own contract (tessera/firmware/contract.hpp): the tables that describe the
// catalog's collectives must give exactly the holdings the catalog's layout gives
// (payload.hpp, an independent definition of the same blocks), the halo rule the
// neighbours the fabric's links define, and a malformed table its problem.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/contract.hpp"
#include "tessera/firmware/payload.hpp"

namespace {

using namespace tessera;
namespace ct = fw::contract_terms;

using block_key =
    std::tuple<std::uint32_t, std::uint32_t, fw::content, std::uint32_t, std::uint32_t>;

block_key key(const fw::block_desc& b) {
  return {b.id, b.len, b.kind, b.tile, b.elem0};
}

template <typename Layout>
std::vector<block_key> initial_of(const Layout& l, std::uint32_t t) {
  std::vector<block_key> v;
  l.initial(t, [&](const fw::block_desc& b) { v.push_back(key(b)); });
  std::sort(v.begin(), v.end());
  return v;
}

template <typename Layout>
std::vector<block_key> final_of(const Layout& l, std::uint32_t t) {
  std::vector<block_key> v;
  l.final_blocks(t, [&](const fw::block_desc& b) { v.push_back(key(b)); });
  std::sort(v.begin(), v.end());
  return v;
}

fw::contract table(ct::inputs in, std::uint32_t blocks,
                   std::initializer_list<fw::contract_rule> rules) {
  fw::contract k{};
  k.name[0] = 'x';
  k.inputs = in;
  k.blocks = blocks;
  std::uint32_t i = 0;
  for (const fw::contract_rule& r : rules)
    k.rules[i++] = r;
  return k;
}

// The catalog's collective c and the contract k describe the same holdings on every tile.
void same_holdings(const fw::collective_params& c, const fw::contract& k) {
  std::uint32_t rule = 0;
  REQUIRE(fw::contract_problem(k, c.f, rule) == nullptr);
  const fw::layout built_in{c};
  const fw::contract_layout own{k, c.f, c.bytes, c.type};
  CHECK(own.exact() == built_in.exact());
  for (std::uint32_t t = 0; t < c.f.tiles(); ++t) {
    INFO("tile " << t);
    CHECK(initial_of(own, t) == initial_of(built_in, t));
    CHECK(final_of(own, t) == final_of(built_in, t));
  }
  CHECK(fw::verified_bytes_of(own, c.f.tiles()) == fw::verified_bytes(c));
}

fw::collective_params params(fw::collective coll, const fabric& f, std::uint32_t bytes) {
  fw::collective_params c;
  c.coll = coll;
  c.f = f;
  c.bytes = bytes;
  c.alg = fw::default_algorithm(coll, f);
  c.root = 0;
  c.shift = 1;
  return c;
}

}  // namespace

TEST_CASE("contract tables describe the catalog's collectives as the catalog does", "[contract]") {
  for (const fabric f : {fabric::mesh(3, 4), fabric::hypercube(3), fabric::torus(4, 4)}) {
    const std::uint32_t p = f.tiles();
    INFO("fabric of " << p << " tiles");
    SECTION("allgather: every tile's block on every tile") {
      same_holdings(
          params(fw::collective::allgather, f, 64),
          table(ct::inputs::data, 1, {{.holds = ct::holds::data, .from = ct::from::every}}));
    }
    SECTION("alltoall: block t of every tile on tile t") {
      same_holdings(
          params(fw::collective::alltoall, f, 32),
          table(ct::inputs::data, 0,
                {{.holds = ct::holds::data, .from = ct::from::every, .pick = ct::pick::holder}}));
    }
    SECTION("gather: every block on the root only") {
      same_holdings(params(fw::collective::gather, f, 16), table(ct::inputs::data, 1,
                                                                 {{.holds = ct::holds::data,
                                                                   .from = ct::from::every,
                                                                   .at = ct::tiles::one,
                                                                   .at_tile = 0}}));
    }
    SECTION("scatter: the root's block t on tile t") {
      fw::contract k = table(
          ct::inputs::data, 0,
          {{.holds = ct::holds::data, .from = ct::from::tile, .arg = 0, .pick = ct::pick::holder}});
      k.input_at = ct::tiles::one;
      k.input_tile = 0;
      same_holdings(params(fw::collective::scatter, f, 48), k);
    }
    SECTION("shift by one: the block of tile t - 1") {
      same_holdings(params(fw::collective::shift, f, 8),
                    table(ct::inputs::data, 1,
                          {{.holds = ct::holds::data, .from = ct::from::offset, .arg = -1}}));
    }
    SECTION("reductions: allreduce, reduce-scatter, prefix, reduce") {
      fw::collective_params c = params(fw::collective::allreduce, f, 64);
      c.alg = fw::tb_algorithm::binomial;
      if (!fw::fabric_meets(fw::needs(c.coll, c.alg), f)) c.alg = fw::default_algorithm(c.coll, f);
      if (c.alg == fw::tb_algorithm::rs_allgather) return;  // segmented: another block shape
      same_holdings(
          c, table(ct::inputs::contrib, 1, {{.holds = ct::holds::fold, .from = ct::from::every}}));
      same_holdings(
          params(fw::collective::reduce_scatter, f, 4 * p),
          table(ct::inputs::contrib, 0,
                {{.holds = ct::holds::fold, .from = ct::from::every, .pick = ct::pick::holder}}));
      same_holdings(
          params(fw::collective::prefix, f, 40),
          table(ct::inputs::contrib, 1, {{.holds = ct::holds::fold, .from = ct::from::upto}}));
    }
  }
}

TEST_CASE("a halo rule gives each tile the tiles one link away, each once", "[contract]") {
  const fw::contract k = table(ct::inputs::data, 1,
                               {{.holds = ct::holds::data, .from = ct::from::self},
                                {.holds = ct::holds::data, .from = ct::from::neighbours}});
  // Neighbours by the fabrics' definitions, written out here: row-major mesh and torus
  // ids, a cube's ids differing in one bit.
  const auto expected = [](const fabric& f, std::uint32_t t) {
    std::set<std::uint32_t> s{t};
    if (f.kind == fabric_kind::hypercube) {
      for (std::uint32_t d = 0; d < f.dim; ++d)
        s.insert(t ^ (1U << d));
      return s;
    }
    const auto r = static_cast<std::int64_t>(t / f.cols);
    const auto c = static_cast<std::int64_t>(t % f.cols);
    const auto R = static_cast<std::int64_t>(f.rows);
    const auto C = static_cast<std::int64_t>(f.cols);
    for (const auto& [dr, dc] :
         {std::pair{0, 1}, std::pair{0, -1}, std::pair{1, 0}, std::pair{-1, 0}}) {
      std::int64_t nr = r + dr;
      std::int64_t nc = c + dc;
      if (f.kind == fabric_kind::torus) {
        nr = (nr + R) % R;
        nc = (nc + C) % C;
      } else if (nr < 0 || nr >= R || nc < 0 || nc >= C) {
        continue;
      }
      s.insert(static_cast<std::uint32_t>(nr * C + nc));
    }
    return s;
  };
  for (const fabric f : {fabric::mesh(3, 3), fabric::mesh(1, 5), fabric::torus(4, 4),
                         fabric::torus(2, 3), fabric::hypercube(4)}) {
    const fw::contract_layout l{k, f, 16, elem_type::i32};
    std::uint64_t bytes = 0;
    for (std::uint32_t t = 0; t < f.tiles(); ++t) {
      INFO("tile " << t << " of " << f.tiles());
      std::set<std::uint32_t> got;
      std::uint32_t emitted = 0;
      l.final_blocks(t, [&](const fw::block_desc& b) {
        got.insert(b.id);
        ++emitted;
        CHECK(b.kind == fw::content::data);
        CHECK(b.len == 16);
      });
      CHECK(got == expected(f, t));
      CHECK(emitted == got.size());  // each once
      bytes += 16 * got.size();
      const fw::contract_plan pl = fw::plan_of(l, t);
      CHECK(pl.initial == 1);
      CHECK(pl.final == got.size());
      CHECK(pl.peak_blocks == 1 + got.size());
    }
    CHECK(fw::verified_bytes_of(l, f.tiles()) == bytes);
  }
}

TEST_CASE("blocks two rules name are held once", "[contract]") {
  // every tile's block, then again the neighbours' and the tile's own and block 0's
  // source: the union is every tile's block, each once.
  const fw::contract k = table(ct::inputs::data, 1,
                               {{.holds = ct::holds::data, .from = ct::from::every},
                                {.holds = ct::holds::data, .from = ct::from::neighbours},
                                {.holds = ct::holds::data, .from = ct::from::self},
                                {.holds = ct::holds::data, .from = ct::from::tile, .arg = 0}});
  const fabric f = fabric::torus(3, 4);
  const fw::contract_layout l{k, f, 8, elem_type::i32};
  for (std::uint32_t t = 0; t < f.tiles(); ++t) {
    std::vector<std::uint32_t> ids;
    l.final_blocks(t, [&](const fw::block_desc& b) { ids.push_back(b.id); });
    std::sort(ids.begin(), ids.end());
    std::vector<std::uint32_t> all(f.tiles());
    for (std::uint32_t s = 0; s < f.tiles(); ++s)
      all[s] = s;
    CHECK(ids == all);
  }
  CHECK(fw::verified_bytes_of(l, f.tiles()) == std::uint64_t{8} * f.tiles() * f.tiles());
}

TEST_CASE("a malformed contract names its problem", "[contract]") {
  const fabric f = fabric::mesh(2, 2);
  std::uint32_t rule = 0;
  fw::contract k =
      table(ct::inputs::data, 1, {{.holds = ct::holds::data, .from = ct::from::every}});
  REQUIRE(fw::contract_problem(k, f, rule) == nullptr);

  fw::contract bad = k;
  bad.magic = 0;
  CHECK(std::string(fw::contract_problem(bad, f, rule)) == "its magic is not a contract's");
  bad = k;
  bad.name[0] = '\0';
  CHECK(std::string(fw::contract_problem(bad, f, rule)).find("name is empty") != std::string::npos);
  bad = k;
  bad.rules[0].holds = ct::holds::none;
  CHECK(std::string(fw::contract_problem(bad, f, rule)).find("no rule") != std::string::npos);
  bad = k;
  bad.rules[1] = {.holds = ct::holds::data, .from = ct::from::tile, .arg = 4};
  CHECK(std::string(fw::contract_problem(bad, f, rule)) ==
        "the rule's source tile is not a tile of the fabric");
  CHECK(rule == 1);
  bad = k;
  bad.rules[0].holds = ct::holds::fold;
  CHECK(std::string(fw::contract_problem(bad, f, rule)).find("a fold needs contrib inputs") !=
        std::string::npos);
  bad = k;
  bad.rules[0].pick = ct::pick::holder;  // one block a tile, four tiles
  CHECK(std::string(fw::contract_problem(bad, f, rule)).find("fewer than p blocks") !=
        std::string::npos);
  bad = k;
  bad.rules[0].from = static_cast<ct::from>(9);
  CHECK(std::string(fw::contract_problem(bad, f, rule)).find("sources are none of") !=
        std::string::npos);
  bad = k;
  bad.input_at = ct::tiles::one;
  bad.input_tile = 4;
  CHECK(std::string(fw::contract_problem(bad, f, rule)) ==
        "its input tile is not a tile of the fabric");
}
