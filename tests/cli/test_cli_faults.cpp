// Faults, the reliable protocol and the run-end reports (issue 14, docs/faults.md).
// Expected cycles come from the alpha-beta model's definition (Grama,
// Grama: a message of m bytes takes ts + tw m, one port each way per
// tile) and from the fault rules of docs/faults.md, derived in each test. The
// workload is Bokhari's pairwise exchange (Bokhari91 §5): on a 3-cube,
// step i exchanges tile t with t XOR i, one block of m bytes each way, so with
// ts = 100, tw = 1 and m = 64 every step takes 164 cycles and the run 7 x 164 = 1148.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

using nlohmann::json;

namespace {

using tessera::test::one_line;

constexpr int ts = 100;
constexpr int tw = 1;
constexpr int m = 64;
constexpr int step = ts + tw * m;  // one exchange

tessera::test::cli_result pairwise(std::vector<std::string> extra) {
  std::vector<std::string> argv{
      "run",     "--fabric", "hypercube:3", "--collective", "alltoall", "--algorithm", "pairwise",
      "--bytes", "64",       "--param",     "ts=100",       "--param",  "tw=1"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return tessera::test::run_cli(argv);
}

json pairwise_json(std::vector<std::string> extra, int want) {
  extra.push_back("--json");
  const auto r = pairwise(extra);
  INFO(r.err);
  REQUIRE(r.code == want);
  return json::parse(r.out);
}

}  // namespace

TEST_CASE("without faults the pairwise exchange takes 7 steps of ts + tw m", "[cli][faults]") {
  const json j = pairwise_json({}, 0);
  CHECK(j["cycles"] == 7 * step);
  CHECK_FALSE(j.contains("faults"));
}

TEST_CASE("a dropped message is never verified and names tile, block, step and fault",
          "[cli][faults]") {
  // Step 1: tile 0 sends tile 1 block 0*8+1 = 1; it would arrive at ts + tw m = 164.
  const auto r = pairwise({"--fault", "drop=0->1#1"});
  CHECK(r.code == 1);
  CHECK(r.err ==
        "tessera: tile 1 lost block 1 from tile 0 (step 1): dropped in the fabric at cycle 164 "
        "(fault drop=0->1#1)\n");
  const json j = pairwise_json({"--fault", "drop=0->1#1"}, 1);
  CHECK(j["verified"] == false);
  REQUIRE(j["faults"].size() == 1);
  CHECK(j["faults"][0]["acted"] == true);
  CHECK(j["faults"][0]["messages"] == 1);
  REQUIRE(j["lost"].size() == 1);
  CHECK(j["lost"][0] == json::parse(R"({"tile": 1, "source": 0, "block": 1, "step": 1,
      "kind": "data", "cycle": 164, "cause": "dropped", "fault": "drop=0->1#1"})"));
}

TEST_CASE("a fault that never acts leaves the run verified and says so", "[cli][faults]") {
  // Tile 0 sends tile 1 one message in the whole exchange: there is no 5th.
  const json j = pairwise_json({"--fault", "drop=0->1#5"}, 0);
  CHECK(j["verified"] == true);
  CHECK(j["faults"][0]["acted"] == false);
  CHECK(j["lost"].empty());
}

TEST_CASE("a corrupted byte is reported with its block and offset", "[cli][faults]") {
  // The message is the directory (8 bytes for one block) and 64 data bytes; the fault
  // flips the middle data byte, 8 + 64/2 = 40, which is byte 32 of block 1.
  const auto r = pairwise({"--fault", "corrupt=0->1#1"});
  CHECK(r.code == 1);
  CHECK(r.err ==
        "tessera: tile 1 got block 1 from tile 0 (step 1) with byte 32 flipped at cycle 164 "
        "(fault corrupt=0->1#1)\n");
}

TEST_CASE("the reliable protocol costs one ack per message and nothing else without faults",
          "[cli][faults][reliable]") {
  // A send is over when its data_ack (a control message, ts alone) is back: each
  // exchange takes ts + tw m for the data and then ts for the ack.
  const json j = pairwise_json({"--protocol", "reliable"}, 0);
  CHECK(j["verified"] == true);
  CHECK(j["cycles"] == 7 * (step + ts));
  CHECK(j["reliable"]["retransmissions"] == 0);
  CHECK(j["reliable"]["acks"] == 56);
  CHECK(j["control_messages"] == 56);
}

TEST_CASE("the reliable protocol survives a drop and a corruption and counts the cost",
          "[cli][faults][reliable]") {
  for (const std::string fault : {"drop=0->1#1", "corrupt=0->1#1"}) {
    INFO(fault);
    const json j = pairwise_json({"--protocol", "reliable", "--fault", fault}, 0);
    CHECK(j["verified"] == true);
    CHECK(j["faults"][0]["acted"] == true);
    CHECK(j["reliable"]["retransmissions"] == 1);
    // The timer of an m-byte message on this model is 4 ts + 2 tw m (docs/faults.md);
    // it expired once.
    CHECK(j["reliable"]["timeout_cycles"] == 4 * ts + 2 * tw * m);
    CHECK(j["reliable"]["rejected_damaged"] == (fault.rfind("corrupt", 0) == 0 ? 1 : 0));
    // Tile 0 sent its first message again once the timer ran out at 528 (after the NIC
    // was through with it at 164): it arrives at 528 + 164 and its ack at + ts; the
    // chain of exchanges behind it then runs at step + ts each.
    CHECK(j["cycles"] > 7 * (step + ts));
  }
}

TEST_CASE("a link down makes messages undeliverable, not a deadlock", "[cli][faults]") {
  const auto r = pairwise({"--fault", "link=0-1@0"});
  CHECK(r.code == 1);
  REQUIRE(one_line(r.err));
  CHECK(r.err.find("undeliverable: link 0->1 down since cycle 0 (fault link=0-1@0)") !=
        std::string::npos);
  CHECK(r.err.find("deadlock") == std::string::npos);
  // The reliable protocol retries, then gives up and names the link too.
  const auto rel = pairwise({"--fault", "link=0-1@0", "--protocol", "reliable"});
  CHECK(rel.code == 1);
  REQUIRE(one_line(rel.err));
  CHECK(rel.err.find("no acknowledgement after the last retransmission") != std::string::npos);
  CHECK(rel.err.find("link 0->1 down since cycle 0") != std::string::npos);
}

TEST_CASE("a link that fails after every message crossed it does not act", "[cli][faults]") {
  const json j = pairwise_json({"--fault", "link=0-1@100000"}, 0);
  CHECK(j["faults"][0]["acted"] == false);
}

TEST_CASE("a stall only delays, under every protocol, and the report shows the hold",
          "[cli][faults]") {
  // Tile 3 is busy with step 1 until 164, when it would go on: the stall (cycles 100 to
  // 5100) holds it 5100 - 164 = 4936 cycles. Its six remaining exchanges, and their
  // partners waiting for them, then run one after another: 5100 + 6 x 164.
  const json j = pairwise_json({"--fault", "stall=3@100+5000"}, 0);
  CHECK(j["verified"] == true);
  CHECK(j["faults"][0]["held_cycles"] == 5100 - step);
  CHECK(j["faults"][0]["first_cycle"] == step);
  CHECK(j["cycles"] == 5100 + 6 * step);
  for (const std::vector<std::string>& p :
       {std::vector<std::string>{"--protocol", "forced", "--prepost"},
        std::vector<std::string>{"--protocol", "unforced"},
        std::vector<std::string>{"--protocol", "reliable"}}) {
    std::vector<std::string> extra = p;
    extra.insert(extra.end(), {"--fault", "stall=3@100+5000"});
    INFO(p[1]);
    CHECK(pairwise_json(extra, 0)["verified"] == true);
  }
}

TEST_CASE("several faults and a fault file act together", "[cli][faults]") {
  const json j = pairwise_json(
      {"--fault", "drop=0->1#1", "--fault", "stall=3@100+50", "--fault", "link=6-7@0"}, 1);
  REQUIRE(j["faults"].size() == 3);
  CHECK(j["faults"][1]["kind"] == "stall");
}

TEST_CASE("max_cycles stops the alphabeta model as a timeout with the real cycle", "[cli]") {
  const json j = pairwise_json({"--param", "max_cycles=200"}, 1);
  CHECK(j["cycles"] == 200);
  CHECK(j["timed_out"] == true);
  const auto r = pairwise({"--param", "max_cycles=200"});
  CHECK(r.err.rfind("tessera: stopped at cycle 200 by max_cycles with 8 of 8 tiles unfinished:",
                    0) == 0);
  CHECK(r.err.find("deadlock") == std::string::npos);
}

TEST_CASE("tessera with no command prints its usage on stderr", "[cli]") {
  const auto r = tessera::test::run_cli({});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("usage: tessera <command>") != std::string::npos);
}

TEST_CASE("trees on a ring: single runs, the two-tree families need a torus", "[cli]") {
  CHECK(tessera::test::run_cli({"trees", "--fabric", "ring:5", "--algorithm", "single"}).code == 0);
  const auto r = tessera::test::run_cli({"trees", "--fabric", "ring:5", "--algorithm", "simmen"});
  CHECK(r.code == 2);
  CHECK(r.err == "tessera: --algorithm simmen needs a torus fabric, but --fabric is ring:5\n");
}
