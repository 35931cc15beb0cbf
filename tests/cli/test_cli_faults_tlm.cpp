// Faults and protocols on the TLM platform, one process per run (SystemC elaborates
// once). Expected numbers are derived from the engines' documented timing: ideal
// switching is Grama's ts + tw m (Grama); UNFORCED is Bokhari's
// reserve, ack, then data (Bokhari91 §2.2).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using tessera::test::run_binary;
using tessera::test::run_binary_err;

std::string scratch(const std::string& name, const std::string& body) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("tessera_cli_faults_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << body;
  return path;
}

nlohmann::json run_json(const std::string& args, int want) {
  const auto r = run_binary(args + " --json");
  INFO(args);
  REQUIRE(r.code == want);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("tlm: every engine loses a dropped message without the reliable protocol",
          "[cli][tlm][faults]") {
  for (const std::string run :
       {"--fabric hypercube:3 --collective alltoall --algorithm pairwise",
        "--fabric hypercube:3 --switching ideal --collective alltoall --algorithm pairwise",
        "--fabric mesh:2x4 --collective alltoall --algorithm pex",
        "--fabric torus:2x4 --collective alltoall --algorithm pex"}) {
    INFO(run);
    const auto j = run_json("run --model tlm " + run + " --bytes 64 --fault 'drop=0->1#1'", 1);
    CHECK(j["verified"] == false);
    CHECK(j["failure"].get<std::string>().find("tile 1 lost block 1 from tile 0 (step 1): "
                                               "dropped in the fabric") == 0);
    const auto err = run_binary_err("run --model tlm " + run + " --bytes 64 --fault 'drop=0->1#1'");
    CHECK(tessera::test::one_line(err.err));
    CHECK(err.err.find("(fault drop=0->1#1)") != std::string::npos);
  }
}

TEST_CASE("tlm: every engine survives drop and corrupt under the reliable protocol",
          "[cli][tlm][faults][reliable]") {
  for (const std::string run :
       {"--fabric hypercube:3 --collective alltoall --algorithm pairwise",
        "--fabric hypercube:3 --switching ideal --collective alltoall --algorithm pairwise",
        "--fabric mesh:2x4 --collective alltoall --algorithm pex",
        "--fabric torus:2x4 --collective alltoall --algorithm pex"}) {
    for (const std::string fault : {"drop=0->1#1", "corrupt=0->1#1"}) {
      INFO(run << " " << fault);
      const auto j = run_json(
          "run --model tlm " + run + " --bytes 64 --protocol reliable --fault '" + fault + "'", 0);
      CHECK(j["verified"] == true);
      CHECK(j["faults"][0]["acted"] == true);
      CHECK(j["reliable"]["retransmissions"].get<int>() >= 1);
      CHECK(j["reliable"]["rejected_damaged"] == (fault[0] == 'c' ? 1 : 0));
    }
  }
}

TEST_CASE("tlm: a link fault follows the forwarding table's route", "[cli][tlm][faults]") {
  // Store-and-forward torus 4x4, one message 0 -> 2. Dimension order goes east,
  // 0 -> 1 -> 2; the table sends it west instead, 0 -> 3 -> 2. Only the links on the
  // route it takes can stop it.
  const std::string pattern =
      scratch("p.json", R"({"transfers": [{"src": 0, "dst": 2, "bytes": 16}]})");
  const std::string routes = scratch(
      "r.json",
      R"({"routes": [{"tile": 0, "dst": 2, "port": "W"}, {"tile": 3, "dst": 2, "port": "W"}]})");
  const std::string base = "run --model tlm --fabric torus:4x4 --pattern " + pattern;
  CHECK(run_json(base + " --fault link=0-1@0", 1)["faults"][0]["acted"] == true);
  CHECK(run_json(base + " --routes " + routes + " --fault link=0-1@0", 0)["faults"][0]["acted"] ==
        false);
  const auto j = run_json(base + " --routes " + routes + " --fault link=0-3@0", 1);
  CHECK(j["failure"] ==
        "transfer 0 (0 -> 2): undeliverable: link 0->3 down since cycle 0 (fault link=0-3@0)");
}

TEST_CASE("tlm: a link fault follows the wormhole's routing, xy or yx", "[cli][tlm][faults]") {
  // Wormhole mesh 4x4, one message 0 -> 5 (row 1, column 1). XY goes east first, 0 -> 1
  // -> 5; YX south first, 0 -> 4 -> 5. A link fault stops the message only on the path
  // its routing takes; on the wormhole torus alike (0 -> 5 on a 4x4 torus is the same
  // pair of two-hop paths).
  const std::string pattern =
      scratch("p5.json", R"({"transfers": [{"src": 0, "dst": 5, "bytes": 16}]})");
  for (const std::string fab : {"mesh:4x4", "torus:4x4"}) {
    const std::string base = "run --model tlm --switching wormhole --param vcs=2 --fabric " + fab +
                             " --pattern " + pattern;
    INFO(fab);
    CHECK(run_json(base + " --fault link=0-1@0", 1)["faults"][0]["acted"] == true);
    CHECK(run_json(base + " --fault link=0-4@0", 0)["faults"][0]["acted"] == false);
    CHECK(run_json(base + " --param routing=yx --fault link=0-1@0", 0)["faults"][0]["acted"] ==
          false);
    const auto j = run_json(base + " --param routing=yx --fault link=0-4@0", 1);
    CHECK(j["failure"] ==
          "transfer 0 (0 -> 5): undeliverable: link 0->4 down since cycle 0 (fault link=0-4@0)");
  }
}

TEST_CASE("tlm: --pattern honours UNFORCED: reserve, ack, then the data", "[cli][tlm]") {
  // Ideal switching, ts = 100, tw = 1: a control message takes ts, data ts + tw m. Above
  // the 100-byte threshold a 200-byte message takes 100 + 100 + 300 = 500 cycles from
  // its start; at or below it (FORCED or small) just ts + tw m.
  const std::string big =
      scratch("big.json", R"({"transfers": [{"src": 0, "dst": 1, "bytes": 200}]})");
  const std::string small =
      scratch("small.json", R"({"transfers": [{"src": 0, "dst": 1, "bytes": 50}]})");
  const std::string base =
      "run --model tlm --fabric ring:2 --switching ideal --param ts=100 "
      "--param tw=1 --pattern ";
  const auto u = run_json(base + big + " --protocol unforced", 0);
  CHECK(u["per_transfer"][0]["cycles"] == 500);
  CHECK(u["control_messages"] == 2);
  CHECK(u["protocol"] == "unforced");
  CHECK(run_json(base + big + " --protocol forced", 0)["per_transfer"][0]["cycles"] == 300);
  const auto s = run_json(base + small + " --protocol unforced", 0);
  CHECK(s["per_transfer"][0]["cycles"] == 150);
  CHECK(s["control_messages"] == 0);
}

TEST_CASE("tlm: max_cycles is a timeout at that cycle, a starved run a deadlock", "[cli][tlm]") {
  const auto j = run_json(
      "run --model tlm --fabric mesh:4x4 --collective alltoall --param "
      "max_cycles=50",
      1);
  CHECK(j["cycles"] == 50);
  CHECK(j["timed_out"] == true);
  CHECK(j["failure"].get<std::string>().rfind(
            "stopped at cycle 50 by max_cycles with 16 of 16 tiles unfinished:", 0) == 0);
  const std::string deadlock = std::string(TESSERA_EXAMPLES) + "/schedules/deadlock-3.json";
  const auto d = run_json("run --model tlm --fabric ring:3 --schedule " + deadlock, 1);
  CHECK(d["failure"].get<std::string>().rfind("deadlock: tile 0 waits for data from tile 2", 0) ==
        0);
  CHECK_FALSE(d.contains("timed_out"));
}

TEST_CASE("tlm: two tiles failing at the same instant leave stdout one JSON object", "[cli][tlm]") {
  // Tiles 1 and 3 each get 8 bytes where they expect 16, at the same cycle: both fail
  // and both stop the run. SystemC warns about a second sc_stop on stdout unless the run
  // stops once and its reports go to stderr.
  const std::string s = scratch("two.json", R"({"tiles": 4, "ops": [
      [{"op": "send", "peer": 1, "bytes": 8}], [{"op": "recv", "peer": 0, "bytes": 16}],
      [{"op": "send", "peer": 3, "bytes": 8}], [{"op": "recv", "peer": 2, "bytes": 16}]]})");
  const auto r =
      run_binary("run --model tlm --fabric ring:4 --switching ideal --schedule " + s + " --json");
  CHECK(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);  // throws on anything but one object
  CHECK(j["failure"].get<std::string>().find("sent 8 bytes, the receive expects 16") !=
        std::string::npos);
  const auto e = run_binary_err("run --model tlm --fabric ring:4 --switching ideal --schedule " +
                                s + " --json");
  CHECK(tessera::test::one_line(e.err));
}

TEST_CASE("tlm: stall faults are refused for patterns, whose tiles run no runtime",
          "[cli][tlm][faults]") {
  const std::string p = scratch("p2.json", R"({"transfers": [{"src": 0, "dst": 1, "bytes": 8}]})");
  const auto e =
      run_binary_err("run --model tlm --fabric ring:4 --pattern " + p + " --fault stall=0@0+5");
  CHECK(e.code == 2);
  CHECK(e.err ==
        "tessera: --fault stall=0@0+5 does not apply to --pattern: a stall holds a tile running "
        "the tile runtime (--collective, --schedule)\n");
}
