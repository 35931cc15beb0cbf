// The CLI contract of ../shared/DESIGN.md: JSON fields, exit codes, one-line errors.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

using nlohmann::json;

namespace {

using tessera::test::one_line;

tessera::test::cli_result run(const std::vector<std::string>& argv) {
  return tessera::test::run_cli(argv);
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = "tessera_test_" + name + ".json";
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("tessera --version prints the project's version, as text or one JSON object", "[cli]") {
  // TESSERA_PROJECT_VERSION is CMake's project(VERSION), handed to this test by the build.
  const auto text = run({"--version"});
  CHECK(text.code == 0);
  CHECK(text.out == std::string("tessera ") + TESSERA_PROJECT_VERSION + "\n");
  CHECK(text.err.empty());
  CHECK(run({"-V"}).out == text.out);
  const auto j = run({"--version", "--json"});
  CHECK(j.code == 0);
  const json v = json::parse(j.out);
  CHECK(v["command"] == "version");
  CHECK(v["version"] == TESSERA_PROJECT_VERSION);
  const auto bad = run({"--version", "--json", "--frob"});
  CHECK(bad.code == 2);
  CHECK(bad.err == "tessera: --version takes only --json, not '--frob'\n");
  CHECK(json::parse(bad.out)["exit_status"] == 2);
}

TEST_CASE("analyze --json prints one object with the contract's fields", "[cli]") {
  const auto r = run({"analyze", "--fabric", "mesh:4x4", "--collective", "alltoall", "--algorithm",
                      "pex", "--bytes", "256", "--json"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const auto j = json::parse(r.out);
  CHECK(j["steps"] == 15);
  CHECK(j["max_link_load"] == 2);  // PEX on 4x4: max(r, c)/2
  CHECK(j["delivers_all_blocks"] == true);
  CHECK(j["bytes"] == 256);
  REQUIRE(j["per_step"].size() == 15);
  for (const auto& s : j["per_step"]) {
    CHECK(s.contains("step"));
    CHECK(s.contains("transfers"));
    CHECK(s.contains("max_link_load"));
    CHECK(s.contains("paper_f"));
  }
  CHECK(j["estimates"].contains("alphabeta_cycles"));
  CHECK(j["estimates"].contains("thakur_cycles"));
}

TEST_CASE("analyze on a hypercube reports Bokhari slots", "[cli]") {
  const auto r = run({"analyze", "--fabric", "hypercube:4", "--collective", "alltoall",
                      "--algorithm", "naive", "--json"});
  REQUIRE(r.code == 0);
  const auto j = json::parse(r.out);
  CHECK(j["switching"] == "circuit");
  CHECK(j["steps"] == 3 * 16 / 2 - 2);
  CHECK(j["slots"]["count"] == 22);
  CHECK(j["per_step"].size() == 22);
  CHECK(j["per_round"].size() == 16);
}

TEST_CASE("analyze --chart prints the link-usage chart", "[cli]") {
  const auto r = run({"analyze", "--fabric", "hypercube:3", "--collective", "alltoall",
                      "--algorithm", "stable", "--chart"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("000>001") != std::string::npos);
  CHECK(r.out.find("010->111") != std::string::npos);
  CHECK(r.out.find("stable: no link used in consecutive slots") != std::string::npos);
}

TEST_CASE("PEX on a non-power-of-two mesh suggests PEX-GEN", "[cli][errors]") {
  const auto r =
      run({"analyze", "--fabric", "mesh:4x5", "--collective", "alltoall", "--algorithm", "pex"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(one_line(r.err));
  CHECK(r.err ==
        "tessera: --algorithm pex needs a power-of-two tile count, but mesh:4x5 has "
        "20 tiles; use pex-gen, pex-gen-shift or gen\n");
}

TEST_CASE("bad fabric strings exit 2 naming the string", "[cli][errors]") {
  for (const std::string spec :
       {"mesh:4", "mesh:0x4", "cube:3", "hypercube:17", "mesh:axb", "", "ring:1", "torus:4x"}) {
    INFO(spec);
    const auto r =
        run({"analyze", "--fabric", spec, "--collective", "alltoall", "--algorithm", "gen"});
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK(r.err.find("'" + spec + "'") != std::string::npos);
  }
}

TEST_CASE("unknown names and options exit 2 with one line naming them", "[cli][errors]") {
  struct bad {
    std::vector<std::string> argv;
    std::string names;
  };
  // analyze gen on mesh:4x4 with one more option.
  auto gen = [](std::initializer_list<std::string> more) {
    std::vector<std::string> argv{"analyze",  "--fabric",    "mesh:4x4", "--collective",
                                  "alltoall", "--algorithm", "gen"};
    argv.insert(argv.end(), more);
    return argv;
  };
  const std::vector<bad> cases = {
      {{"analyze", "--fabric", "mesh:4x4", "--collective", "alltoall", "--algorithm", "pexx"},
       "'pexx'"},
      {{"analyze", "--fabric", "mesh:4x4", "--collective", "gossip", "--algorithm", "gen"},
       "'gossip'"},
      {gen({"--bogus", "1"}), "'--bogus'"},
      {gen({"--bytes", "12x"}), "'12x'"},
      {gen({"--param", "gamma=2"}), "'gamma'"},
      {gen({"--param", "alpha=-3"}), "'-3'"},
      {gen({"--switching", "optical"}), "'optical'"},
      {{"analyze", "--fabric", "mesh:16x32", "--collective", "alltoall", "--algorithm", "gen",
        "--chart"},
       "mesh:16x32"},
      {{"analyze", "--fabric", "mesh:64x64", "--collective", "alltoall", "--algorithm", "gen"},
       "4096"},
      {{"analyze", "--fabric", "mesh:3x3", "--collective", "alltoall", "--algorithm", "stable"},
       "9 tiles"},
      {{"frobnicate"}, "'frobnicate'"},
      {{"analyze", "--schedule", "/nonexistent/x.json", "--fabric", "ring:4"},
       "'/nonexistent/x.json'"},
      {{"analyze", "--schedule", "s.json", "--fabric", "ring:4", "--bytes", "8"},
       "--bytes does not apply to --schedule"},
  };
  for (const auto& c : cases) {
    INFO(c.names);
    const auto r = run(c.argv);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK(r.err.find(c.names) != std::string::npos);
  }
}

TEST_CASE("a deadlocking schedule file exits 1 naming the tiles", "[cli][check]") {
  const auto path = temp_file("deadlock", R"({"tiles": 2, "ops": [
      [{"op": "recv", "peer": 1, "bytes": 8}, {"op": "send", "peer": 1, "bytes": 8}],
      [{"op": "recv", "peer": 0, "bytes": 8}, {"op": "send", "peer": 0, "bytes": 8}]]})");
  const auto r = run({"analyze", "--fabric", "ring:2", "--schedule", path, "--json"});
  CHECK(r.code == 1);
  CHECK(one_line(r.err));
  CHECK(r.err.find("deadlock") != std::string::npos);
  CHECK(r.err.find("tile 0") != std::string::npos);
  CHECK(r.err.find("tile 1") != std::string::npos);
  const auto j = json::parse(r.out);
  CHECK(j["delivers_all_blocks"] == false);
  CHECK(j["check"]["deadlock"].size() == 2);
  CHECK(j["check"]["deadlock_cycle"] == "0 -> 1 -> 0");
  std::remove(path.c_str());
}

TEST_CASE("a schedule that loses a block exits 1 naming tile and block", "[cli][check]") {
  // The generated 4-tile linear schedule, with tile 2 no longer sending block 2->1 in
  // step 3 (its sendrecv becomes a recv) and tile 1 no longer expecting it.
  const auto gen = run({"schedule", "--fabric", "ring:4", "--collective", "alltoall", "--algorithm",
                        "linear", "--bytes", "8"});
  REQUIRE(gen.code == 0);
  auto j = json::parse(gen.out);
  auto& sender = j["ops"][2][2];
  REQUIRE(sender["to"] == 1);
  sender["op"] = "recv";
  sender["peer"] = sender["from"];
  sender.erase("to");
  sender.erase("from");
  sender.erase("send_blocks");
  auto& receiver = j["ops"][1][2];
  REQUIRE(receiver["from"] == 2);
  receiver["op"] = "send";
  receiver["peer"] = receiver["to"];
  receiver.erase("to");
  receiver.erase("from");
  receiver.erase("recv_blocks");
  const auto path = temp_file("lost", j.dump());
  const auto r = run({"analyze", "--fabric", "ring:4", "--schedule", path});
  CHECK(r.code == 1);
  CHECK(one_line(r.err));
  CHECK(r.err == "tessera: tile 1 never received block 9 (2->1)\n");
  std::remove(path.c_str());
}

TEST_CASE("schedule output analyzes back to the same result", "[cli]") {
  const auto gen = run({"schedule", "--fabric", "hypercube:3", "--collective", "alltoall",
                        "--algorithm", "standard", "--bytes", "64"});
  REQUIRE(gen.code == 0);
  const auto path = temp_file("roundtrip", gen.out);
  const auto a = run({"analyze", "--fabric", "hypercube:3", "--schedule", path, "--json"});
  const auto b = run({"analyze", "--fabric", "hypercube:3", "--collective", "alltoall",
                      "--algorithm", "standard", "--bytes", "64", "--json"});
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  auto ja = json::parse(a.out);
  auto jb = json::parse(b.out);
  CHECK(ja == jb);
  std::remove(path.c_str());
}

TEST_CASE("compare lists each algorithm side by side", "[cli]") {
  const auto r = run({"compare", "--fabric", "hypercube:4", "--collective", "alltoall",
                      "--algorithms", "naive,pairwise,stable", "--json"});
  REQUIRE(r.code == 0);
  const auto j = json::parse(r.out);
  REQUIRE(j["runs"].size() == 3);
  CHECK(j["runs"][0]["steps"] == 22);
  CHECK(j["runs"][1]["steps"] == 15);
  CHECK(j["runs"][2]["steps"] == 16);
  const auto text = run(
      {"compare", "--fabric", "mesh:8x8", "--collective", "alltoall", "--algorithms", "pex,gen"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("max link load") != std::string::npos);
}

TEST_CASE("help is available for the tool and each command", "[cli]") {
  for (const std::vector<std::string>& argv : {std::vector<std::string>{"--help"},
                                               {"help", "analyze"},
                                               {"analyze", "--help"},
                                               {"compare", "--help"},
                                               {"schedule", "--help"}}) {
    const auto r = run(argv);
    CHECK(r.code == 0);
    CHECK(r.out.find("usage: tessera") != std::string::npos);
  }
  CHECK(run({}).code == 2);
}

TEST_CASE("the example schedules do what examples/schedules/README.md says", "[cli][examples]") {
  const std::string dir = std::string(TESSERA_EXAMPLES) + "/schedules/";
  const auto ok = run(
      {"analyze", "--fabric", "hypercube:2", "--schedule", dir + "pairwise-f-4.json", "--json"});
  CHECK(ok.code == 0);
  const auto j = json::parse(ok.out);
  CHECK(j["delivers_all_blocks"] == true);
  CHECK(j["steps"] == 3);
  const auto dead =
      run({"analyze", "--fabric", "ring:3", "--schedule", dir + "deadlock-3.json", "--json"});
  CHECK(dead.code == 1);
  CHECK(json::parse(dead.out)["check"]["deadlock_cycle"] == "0 -> 2 -> 1 -> 0");
}
