// tessera check-routes: the channel dependency graph of a fabric's routing (Dally and
// Seitz, IEEE Trans. Computers C-36(5), 1987) through the command line. Counts come from
// the routings' definitions, cycles are checked against the routes that make them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

using tessera::test::one_line;
using tessera::test::run_cli;

namespace {

std::string scratch(const std::string& name, const std::string& text) {
  const std::string path = "check_routes_" + name;
  std::ofstream(path) << text;
  return path;
}

nlohmann::json checked(std::vector<std::string> args, int code) {
  args.insert(args.begin(), "check-routes");
  args.push_back("--json");
  const auto r = run_cli(args);
  CHECK(r.code == code);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("check-routes: the XY mesh is acyclic with its links and turns", "[cli][cdg]") {
  // An R x C mesh has 2R(C-1) + 2C(R-1) directed links. XY routing makes a packet go
  // straight on a row (2R(C-2) pairs of links), straight on a column (2C(R-2)), or turn
  // from a row into a column, four ways at each of the (R-1)(C-1) tiles both reach.
  for (const auto& [r, c] : {std::pair{4, 4}, {8, 8}, {3, 6}}) {
    const std::string spec = "mesh:" + std::to_string(r) + "x" + std::to_string(c);
    const auto j = checked({"--fabric", spec}, 0);
    CHECK(j["acyclic"] == true);
    CHECK(j["channels"] == 2 * r * (c - 1) + 2 * c * (r - 1));
    CHECK(j["dependencies"] == 2 * r * (c - 2) + 2 * c * (r - 2) + 4 * (r - 1) * (c - 1));
    CHECK(j["cycle"].empty());
    CHECK(j["switching"] == "wormhole");
    CHECK(j["params"]["routing"] == "xy");
  }
  const auto text = run_cli({"check-routes", "--fabric", "mesh:4x4"});
  CHECK(text.code == 0);
  CHECK(text.out ==
        "mesh:4x4, wormhole, routing xy, vcs 1: acyclic, 48 channels, 68 "
        "dependencies: no cycle of waits, deadlock free\n");
}

TEST_CASE("check-routes: a torus ring without a dateline class is a cycle", "[cli][cdg]") {
  // One VC on the wormhole torus: dimension order round each ring, the shorter way. The
  // cycle printed goes round one ring: every link leaves the tile the one before enters,
  // and the last leads back to the first's tile, all on VC 0 of one port.
  const auto j =
      checked({"--fabric", "torus:4x4", "--switching", "wormhole", "--param", "vcs=1"}, 1);
  CHECK(j["acyclic"] == false);
  const auto& cycle = j["cycle"];
  REQUIRE(cycle.size() == 4);  // a ring of 4: its tie rule sends 2 hops the positive way
  std::set<std::string> ports;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    CHECK(cycle[i]["to"] == cycle[(i + 1) % cycle.size()]["tile"]);
    CHECK(cycle[i]["vc"] == 0);
    ports.insert(cycle[i]["port"].get<std::string>());
  }
  CHECK(ports.size() == 1);
  // With the dateline classes (vcs 2): acyclic, every link's two VCs.
  const auto two =
      checked({"--fabric", "torus:4x4", "--switching", "wormhole", "--param", "vcs=2"}, 0);
  CHECK(two["channels"] == 2 * 4 * 4 * 4);
  // The store-and-forward torus splits its buffers into the same classes.
  CHECK(checked({"--fabric", "torus:4x4"}, 0)["switching"] == "store-forward");
}

TEST_CASE("check-routes: a turn cycle made by forwarding tables", "[cli][cdg]") {
  // mesh:2x2, tiles 0 1 / 2 3: dimension order takes the turns E->S (0 -> 3) and W->N
  // (3 -> 0); the entries send 1 -> 2 south first (S->W) and 2 -> 1 north first (N->E).
  const std::string table = scratch(
      "turns.json",
      R"({"routes": [{"tile": 1, "dst": 2, "port": "S"}, {"tile": 2, "dst": 1, "port": "N"}]})");
  const auto j =
      checked({"--fabric", "mesh:2x2", "--switching", "store-forward", "--routes", table}, 1);
  const std::set<std::string> expected{"tile 0 E class0 -> tile 1", "tile 1 S class0 -> tile 3",
                                       "tile 3 W class0 -> tile 2", "tile 2 N class0 -> tile 0"};
  std::set<std::string> names;
  for (const auto& ch : j["cycle"])
    names.insert(ch["name"].get<std::string>());
  CHECK(names == expected);
  CHECK(j["forwarding_entries"] == 2);
  const auto text = run_cli(
      {"check-routes", "--fabric", "mesh:2x2", "--switching", "store-forward", "--routes", table});
  CHECK(text.code == 1);
  CHECK(text.out.find("a cycle of 4 channels") != std::string::npos);
}

TEST_CASE("check-routes: an EDST tree as forwarding tables towards its root", "[cli][cdg]") {
  // tessera trees' single tree of torus:4x4 (Bermond92 §2.2) turned into forwarding
  // entries towards root 0: each tile forwards to its parent.
  const auto trees = run_cli({"trees", "--fabric", "torus:4x4", "--algorithm", "single", "--json"});
  REQUIRE(trees.code == 0);
  const auto parent = nlohmann::json::parse(trees.out)["trees"][0]["parent"];
  nlohmann::json routes = nlohmann::json::array();
  for (int t = 1; t < 16; ++t) {
    const int p = parent[static_cast<std::size_t>(t)].get<int>();
    const int tr = t / 4, tc = t % 4, pr = p / 4, pc = p % 4;
    const char* port = pc == (tc + 1) % 4 && pr == tr   ? "E"
                       : pc == (tc + 3) % 4 && pr == tr ? "W"
                       : pr == (tr + 1) % 4             ? "S"
                                                        : "N";
    routes.push_back({{"tile", t}, {"dst", 0}, {"port", port}});
  }
  const std::string file = scratch("tree.json", nlohmann::json{{"routes", routes}}.dump());
  const auto j = checked({"--fabric", "torus:4x4", "--routes", file}, 0);
  CHECK(j["forwarding_entries"] == 15);
  CHECK(j["acyclic"] == true);
}

TEST_CASE("check-routes refuses bad input with one line", "[cli][cdg]") {
  auto err = [](std::vector<std::string> args) {
    args.insert(args.begin(), "check-routes");
    const auto r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    return r.err;
  };
  CHECK(err({"--fabric", "mesh:4x4", "--param", "beta=3"}) ==
        "tessera: --param beta does not change the routes of wormhole switching (check-routes "
        "reads routing, vcs)\n");
  CHECK(err({"--fabric", "mesh:4x4", "--routes", "x.json"}) ==
        "tessera: forwarding tables (--routes) apply to store-forward switching\n");
  CHECK(err({"--fabric", "hypercube:3", "--switching", "wormhole"}) ==
        "tessera: --switching wormhole does not run on hypercube:3\n");
  CHECK(err({"--fabric", "torus:4x4", "--switching", "wormhole", "--param", "routing=odd-even"})
            .find("is not modelled") != std::string::npos);
  CHECK(err({"--fabric", "mesh:4x4", "--param", "routing=o1turn"}).find("o1turn needs vcs >= 2") !=
        std::string::npos);
  CHECK(err({"--fabric", "mesh:4x4", "--param", "vcs=17"}).find("vcs") != std::string::npos);
  CHECK(err({"--fabric", "mesh:256x256"}).find("too many to check") != std::string::npos);
  const auto j = run_cli({"check-routes", "--fabric", "ring:1", "--json"});
  CHECK(j.code == 2);
  CHECK(nlohmann::json::parse(j.out)["exit_status"] == 2);
}
