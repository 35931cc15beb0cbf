// tessera run --model tlm, end to end through the built binary (SystemC elaborates
// once per process). Expected values come from the papers' formulas:
// Bokhari91 (iPSC-860 times and the edge-contention
// experiment), Boppana90 (T_aap), Bermond92
// (beta + tau L per hop, parallel ports).
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cmath>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "commands.hpp"
#include "tessera/models/registry.hpp"

namespace {

using tessera::test::run_binary;
using tessera::test::run_binary_err;

const std::string patterns = std::string(TESSERA_EXAMPLES) + "/patterns/";

nlohmann::json run_json(const std::string& args, int want = 0) {
  const auto r = run_binary(args + " --json");
  INFO(args);
  REQUIRE(r.code == want);
  return nlohmann::json::parse(r.out);
}

// A pattern file in a scratch directory of this process.
std::string write_pattern(const std::string& name, const std::string& body) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("tessera_cli_tlm_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << body;
  return path;
}

}  // namespace

TEST_CASE("tlm run: one iPSC-860 message matches Bokhari's FORCED time", "[cli][tlm]") {
  // Bokhari91 §2.2: t = 95 + 0.394 m + 10.3 d us. The preset rounds xi and tau to whole
  // byte cycles (docs/machines.md), which costs at most 0.1 us per hop.
  for (int d = 1; d <= 7; ++d) {
    const int dst = (1 << d) - 1;
    const std::string file = write_pattern(
        "one_" + std::to_string(d) + ".json",
        R"({"transfers": [{"src": 0, "dst": )" + std::to_string(dst) + R"(, "bytes": 1000}]})");
    const auto j = run_json("run --model tlm --machine ipsc860 --fabric hypercube:7 --pattern " +
                            file + " --protocol forced");
    CHECK(j["verified"] == true);
    const double bokhari = 95 + 0.394 * 1000 + 10.3 * d;
    INFO("d " << d << " model " << j["time_us"].get<double>() << " Bokhari " << bokhari);
    CHECK(std::abs(j["time_us"].get<double>() - bokhari) < 0.1 * d + 0.1);
  }
}

TEST_CASE("tlm run: without --model, --machine and --pattern select the platform", "[cli][tlm]") {
  // The same message as above with --model left out: --machine and --pattern are the
  // platform's options, so the run goes to --model tlm (Bokhari91 §2.2, d = 1, m = 1000).
  const std::string file =
      write_pattern("implied.json", R"({"transfers": [{"src": 0, "dst": 1, "bytes": 1000}]})");
  const auto j = run_json("run --machine ipsc860 --fabric hypercube:7 --pattern " + file +
                          " --protocol forced");
  CHECK(j["model"] == "tlm");
  CHECK(j["verified"] == true);
  CHECK(std::abs(j["time_us"].get<double>() - (95 + 0.394 * 1000 + 10.3)) < 0.2);
  // A --switching the default model drives keeps it; one it does not picks the platform.
  CHECK(run_json("run --fabric ring:4 --collective bcast --switching ideal")["model"] ==
        "alphabeta");
  const auto w = run_json("run --fabric mesh:2x2 --collective bcast --switching wormhole");
  CHECK(w["model"] == "tlm");
  CHECK(w["verified"] == true);
  // Asked for explicitly, the alpha-beta model still refuses them.
  CHECK(run_binary_err("run --model alphabeta --machine ipsc860 --fabric hypercube:3 "
                       "--collective bcast")
            .err == "tessera: --machine needs --model tlm or rtl\n");
}

TEST_CASE("tlm run: an UNFORCED iPSC-860 message pays reserve and ack", "[cli][tlm]") {
  // Bokhari91 §2.2: above 100 bytes t = 164 + 0.398 m + 29.9 d us. One 1000-byte message
  // over one hop (bcast on a 1-cube): reserve and ack are control messages, then the
  // data. The preset's slope is the FORCED 0.394 us/byte, so allow 1 %.
  const auto j = run_json(
      "run --model tlm --machine ipsc860 --fabric hypercube:1 --collective bcast --bytes 1000 "
      "--protocol unforced");
  CHECK(j["verified"] == true);
  CHECK(j["control_messages"] == 2);
  const double bokhari = 164 + 0.398 * 1000 + 29.9 * 1;
  CHECK(std::abs(j["time_us"].get<double>() - bokhari) / bokhari < 0.01);
}

TEST_CASE("tlm run: Bokhari's eight paths through edge 7->15 take more than 7x one", "[cli][tlm]") {
  const auto one = run_json("run --model tlm --machine ipsc860 --fabric hypercube:7 --pattern " +
                            patterns + "bokhari_single_path.json --protocol forced");
  const auto eight = run_json("run --model tlm --machine ipsc860 --fabric hypercube:7 --pattern " +
                              patterns + "bokhari_edge_contention.json --protocol forced");
  CHECK(eight["verified"] == true);
  CHECK(eight["per_transfer"].size() == 8);
  const double t1 = one["time_us"].get<double>();
  const double t8 = eight["time_us"].get<double>();
  INFO("one " << t1 << " us, eight " << t8 << " us");
  CHECK(t8 > 7 * t1);
  // The shared edge carried all eight messages.
  bool found = false;
  for (const auto& l : eight["links"]) {
    if (l["from"] == 7 && l["to"] == 15) {
      found = true;
      CHECK(l["messages"] == 8);
    }
  }
  CHECK(found);
  CHECK(eight["contention"]["blocked"].get<int>() > 0);
}

TEST_CASE("tlm run: node contention alone costs nothing", "[cli][tlm]") {
  // Five paths meet at node 7 without sharing a link: each takes its lone time,
  // xi + d (tau + 1) + k - 1 byte cycles with the preset's xi = 242, tau = 25.
  const auto j = run_json("run --model tlm --machine ipsc860 --fabric hypercube:7 --pattern " +
                          patterns + "node_contention.json --protocol forced");
  CHECK(j["verified"] == true);
  CHECK(j["contention"]["blocked"] == 0);
  for (const auto& t : j["per_transfer"]) {
    const auto d = static_cast<std::uint64_t>(
        __builtin_popcount(t["src"].get<unsigned>() ^ t["dst"].get<unsigned>()));
    CHECK(t["cycles"].get<std::uint64_t>() == 242 + d * 26 + 1000 - 1);
  }
}

TEST_CASE("tlm run: AAP on the circuit hypercube takes T_aap", "[cli][tlm]") {
  // Boppana90 §3.2 with n = 4, k = 64, xi = 30, tau = 3: k(N-1) + (xi-1)(N-1) + (1+tau) n N/2.
  const auto j = run_json(
      "run --model tlm --fabric hypercube:4 --collective alltoall --algorithm aap --bytes 64 "
      "--param xi=30 --param tau=3");
  CHECK(j["switching"] == "circuit");
  CHECK(j["verified"] == true);
  CHECK(j["cycles"] == 64 * 15 + 29 * 15 + 4 * 4 * 16 / 2);
  CHECK(j["per_step"].size() == 15);
  CHECK(j["per_transfer"].size() == 16 * 15);
}

TEST_CASE("tlm run: MegaNode torus hops cost beta + tau L and four ports run at once",
          "[cli][tlm]") {
  // Bermond92 §4: beta = 628 us, tau = 2.2 us/byte (preset: 0.1 us cycles). Tile 9 of a
  // 4x4 torus sends 100 bytes to each neighbour and receives 100 from each, all at
  // once: each takes one hop. Later, alone, 0 -> 10 is 2 columns and 2 rows: h = 4.
  const std::string file = write_pattern("ports.json", R"({"transfers": [
    {"src": 9, "dst": 10, "bytes": 100}, {"src": 9, "dst": 8, "bytes": 100},
    {"src": 9, "dst": 13, "bytes": 100}, {"src": 9, "dst": 5, "bytes": 100},
    {"src": 10, "dst": 9, "bytes": 100}, {"src": 8, "dst": 9, "bytes": 100},
    {"src": 13, "dst": 9, "bytes": 100}, {"src": 5, "dst": 9, "bytes": 100},
    {"src": 0, "dst": 10, "bytes": 100, "start": 100000}]})");
  const auto j =
      run_json("run --model tlm --machine meganode --fabric torus:4x4 --pattern " + file);
  CHECK(j["verified"] == true);
  const double hop_us = 628 + 2.2 * 100;
  // The node's interface writes one packet a cycle (the RTL's, docs/tlm.md), so tile 9's
  // i-th message leaves i cycles (0.1 us each) after its first; the four others are alone.
  for (std::size_t i = 0; i < 8; ++i) {
    const double late_us = i < 4 ? 0.1 * static_cast<double>(i) : 0.0;
    CHECK(std::abs(j["per_transfer"][i]["time_us"].get<double>() - (hop_us + late_us)) < 1e-6);
  }
  CHECK(std::abs(j["per_transfer"][8]["time_us"].get<double>() - 4 * hop_us) < 1e-6);
}

TEST_CASE("tlm run: bad input exits 2 with one line naming the value", "[cli][tlm]") {
  auto err = [](const std::string& args) {
    const auto r = run_binary_err(args);
    CHECK(r.code == 2);
    return r.err;
  };
  const std::string unknown =
      write_pattern("unknown.json", R"({"transfers": [{"src": 0, "dst": 200, "bytes": 10}]})");
  CHECK(err("run --model tlm --fabric hypercube:7 --pattern " + unknown) ==
        "tessera: --pattern '" + unknown +
            "' transfer 0: dst 200 is not a tile of the fabric (tiles 0..127)\n");
  const std::string negative =
      write_pattern("negative.json", R"({"transfers": [{"src": 0, "dst": 1, "bytes": -5}]})");
  CHECK(err("run --model tlm --fabric hypercube:7 --pattern " + negative) ==
        "tessera: --pattern '" + negative + "' transfer 0: bytes -5 is negative\n");
  CHECK(err("run --model tlm --fabric hypercube:3 --collective bcast --param width=0") ==
        "tessera: circuit: width 0 is out of range 1..4096\n");
  CHECK(err("run --model tlm --fabric hypercube:3 --collective bcast --param xi=5 "
            "--param xi_held=9") == "tessera: circuit xi_held 9 exceeds xi 5\n");
  CHECK(err("run --model tlm --fabric torus:4x4 --collective bcast --param tau=2000000") ==
        "tessera: store-forward: tau 2000000 is out of range 0..2^20\n");
  CHECK(err("run --model tlm --fabric mesh:4x4 --machine ipsc860 --collective bcast") ==
        "tessera: --machine ipsc860 is a hypercube, but --fabric mesh:4x4 is a mesh\n");
  CHECK(err("run --model tlm --fabric hypercube:3 --machine cray --collective bcast") ==
        "tessera: --machine 'cray' is not known (ipsc860, ipsc860-boppana, meganode, delta)\n");
  CHECK(err("run --model tlm --fabric hypercube:3 --switching bus --collective bcast") ==
        "tessera: --switching 'bus' is not a switching mode (ideal, circuit, store-forward, "
        "wormhole)\n");
  CHECK(err("run --model tlm --fabric torus:4x4 --switching circuit --collective bcast") ==
        "tessera: circuit switching needs a hypercube fabric, not a torus of 16 tiles\n");
  CHECK(err("run --model tlm --fabric hypercube:3 --collective bcast --param beta=3") ==
        "tessera: --param 'beta' is not a parameter of circuit switching (xi, xi_held, tau, "
        "width, control_xi, arbitration, blocking, retry, presetup, half_duplex, "
        "duplex_window, duplex_exchange, unforced_threshold, max_cycles, max_retries, jitter, "
        "jitter_seed, jitter_percent, energy, e_buffer_write, e_buffer_read, e_crossbar, "
        "e_arbitration, e_link, e_setup, e_inject, e_eject, e_static, e_clock)\n");
}

TEST_CASE("tlm run: wormhole distance costs little and zero load is the closed form",
          "[cli][tlm][wormhole]") {
  // docs/wormhole.md: at zero load a message of P packets of F flits over h hops takes
  // alpha + (h + 1)(r + 1) + P F cycles (B >= r + 1 + d). Defaults: width 4, r 1, B 4,
  // credit_delay d 1.
  const std::string near =
      write_pattern("near.json", R"({"transfers": [{"src": 0, "dst": 1, "bytes": 16384}]})");
  const std::string far =
      write_pattern("far.json", R"({"transfers": [{"src": 0, "dst": 255, "bytes": 16384}]})");
  const auto one = run_json("run --model tlm --fabric mesh:16x16 --pattern " + near);
  const auto thirty = run_json("run --model tlm --fabric mesh:16x16 --pattern " + far);
  CHECK(one["switching"] == "wormhole");
  CHECK(one["verified"] == true);
  CHECK(thirty["verified"] == true);
  const std::uint64_t flits = 16384 / 4;
  CHECK(one["cycles"] == (1 + 1) * (1 + 1) + flits);
  CHECK(thirty["cycles"] == (30 + 1) * (1 + 1) + flits);
  CHECK(thirty["cycles"].get<double>() <= 1.05 * one["cycles"].get<double>());
  // With alpha, r = 3 and 1 KB packets: alpha + (h + 1)(r + 1) + P F, exact for P > 1
  // when B >= r + 1 + d (credit_delay d = 1 by default), so B = 5.
  const auto pk = run_json(
      "run --model tlm --fabric mesh:16x16 --param alpha=100 --param router_delay=3 "
      "--param buffer=5 --param packet_bytes=1024 --pattern " +
      far);
  CHECK(pk["cycles"] == 100 + (30 + 1) * (3 + 1) + 16 * (1024 / 4));
}

TEST_CASE("tlm run: two worms crossing one link share it", "[cli][tlm][wormhole]") {
  // 0 -> 3 and 1 -> 2 on a 1x4 mesh both need link 1 -> 2. Packetized (64-byte
  // packets of 16 flits) they alternate on it: both finish later than alone, and the
  // link carries all 2 x 1024 / 64 packets.
  const std::string both = write_pattern("share.json", R"({"transfers": [
    {"src": 0, "dst": 3, "bytes": 1024}, {"src": 1, "dst": 2, "bytes": 1024}]})");
  const auto j =
      run_json("run --model tlm --fabric mesh:1x4 --param packet_bytes=64 --pattern " + both);
  CHECK(j["verified"] == true);
  const std::uint64_t alone03 = (3 + 1) * 2 + 16 * 16;  // zero load, 16 packets of 16 flits
  const std::uint64_t alone12 = (1 + 1) * 2 + 16 * 16;
  CHECK(j["per_transfer"][0]["cycles"].get<std::uint64_t>() > alone03);
  CHECK(j["per_transfer"][1]["cycles"].get<std::uint64_t>() > alone12);
  // The shared link is busy for both messages' flits at least.
  for (const auto& l : j["links"]) {
    if (l["from"] == 1 && l["to"] == 2) {
      CHECK(l["messages"] == 32);
      CHECK(l["busy"].get<std::uint64_t>() >= 2 * 16 * 16);
    }
  }
}

TEST_CASE("tlm run: --payload-bytes times the full size with a verified sample", "[cli][tlm]") {
  // The fabric charges each carried byte as bytes / payload-bytes bytes, so the
  // timing must equal the run that carries every byte.
  for (const char* fab : {"mesh:4x4", "hypercube:4"}) {
    const std::string base =
        std::string("run --model tlm --fabric ") + fab + " --collective alltoall --bytes 4096";
    const auto full = run_json(base);
    const auto sample = run_json(base + " --payload-bytes 64");
    CHECK(full["verified"] == true);
    CHECK(sample["verified"] == true);
    CHECK(sample["cycles"] == full["cycles"]);
    CHECK(sample["payload_bytes"] == 64);
    CHECK(sample["per_step"][0]["bytes"] == full["per_step"][0]["bytes"]);
    CHECK(sample["memory_bytes"].get<std::uint64_t>() < full["memory_bytes"].get<std::uint64_t>());
  }
  const auto r = run_binary_err(
      "run --model tlm --fabric mesh:4x4 --collective alltoall --bytes 4096 --payload-bytes 100");
  CHECK(r.code == 2);
  CHECK(r.err == "tessera: --payload-bytes 100 does not divide --bytes 4096\n");
}

TEST_CASE("tlm run: --routes installs forwarding entries on store-and-forward ports",
          "[cli][tlm]") {
  // ring:8, 0 -> 1 sent the long way on the -1 port: 7 hops of beta + tau L.
  std::string routes = R"({"routes": [)";
  for (const int t : {0, 7, 6, 5, 4, 3, 2})
    routes += (t == 0 ? "" : ", ") + std::string(R"({"tile": )") + std::to_string(t) +
              R"(, "dst": 1, "port": "-1"})";
  routes += "]}";
  const std::string file = write_pattern("detour_routes.json", routes);
  const std::string one =
      write_pattern("one_hop.json", R"({"transfers": [{"src": 0, "dst": 1, "bytes": 10}]})");
  const auto j =
      run_json("run --model tlm --fabric ring:8 --param beta=5 --param tau=1 --pattern " + one +
               " --routes " + file);
  CHECK(j["cycles"] == 7 * (5 + 1 * 10));
  const std::string loop = write_pattern(
      "loop_routes.json",
      R"({"routes": [{"tile": 3, "dst": 6, "port": "+1"}, {"tile": 4, "dst": 6, "port": "-1"}]})");
  const auto r =
      run_binary_err("run --model tlm --fabric ring:8 --pattern " + one + " --routes " + loop);
  CHECK(r.code == 2);
  CHECK(r.err == "tessera: forwarding to tile 6 loops: from tile 2 it never arrives\n");
  const auto w =
      run_binary_err("run --model tlm --fabric hypercube:3 --collective bcast --routes " + loop);
  CHECK(w.code == 2);
  CHECK(w.err == "tessera: forwarding tables (--routes) apply to store-forward switching\n");
}

TEST_CASE("tlm run: --schedule runs a schedule file's op streams and checks every block",
          "[cli][tlm]") {
  // A schedule written by `tessera schedule` is the collective's own op streams: the
  // run takes exactly the collective's cycles on the same fabric.
  const std::string file = write_pattern("pex.json", "");
  const auto sched = run_binary(
      "schedule --fabric mesh:4x4 --collective alltoall --algorithm pex --bytes 64 > " + file);
  REQUIRE(sched.code == 0);
  const auto from_file = run_json("run --model tlm --fabric mesh:4x4 --schedule " + file);
  const auto direct = run_json(
      "run --model tlm --fabric mesh:4x4 --collective alltoall --algorithm pex --bytes 64");
  CHECK(from_file["verified"] == true);
  CHECK(from_file["cycles"] == direct["cycles"]);
  CHECK(from_file["messages"] == 16 * 15);
  // DESIGN.md's two-tile example has no blocks: the message gets a synthetic one of
  // its 64 bytes. Store-and-forward defaults: one hop of beta + tau L = 100 + 64.
  const std::string tiny = write_pattern(
      "tiny.json",
      R"({"tiles": 2, "ops": [[{"op": "send", "peer": 1, "bytes": 64}], [{"op": "recv", "peer": 0, "bytes": 64}]]})");
  const auto t = run_json("run --model tlm --fabric ring:2 --schedule " + tiny);
  CHECK(t["verified"] == true);
  CHECK(t["cycles"] == 100 + 64);
  // A contract the ops do not meet fails the run naming the tile and block.
  const std::string empty = write_pattern(
      "unmet.json", R"({"tiles": 2, "collective": "alltoall", "block_bytes": 8, "ops": [[], []]})");
  const auto unmet = run_binary_err("run --model tlm --fabric ring:2 --schedule " + empty);
  CHECK(unmet.code == 1);
  CHECK(unmet.err == "tessera: tile 0: block 2 never arrived\n");
  // A receive with no matching send waits forever: a deadlock, as analyze says.
  const std::string orphan = write_pattern(
      "orphan.json", R"({"tiles": 2, "ops": [[], [{"op": "recv", "peer": 0, "bytes": 64}]]})");
  const auto bad = run_binary_err("run --model tlm --fabric ring:2 --schedule " + orphan);
  CHECK(bad.code == 1);
  CHECK(bad.err == "tessera: deadlock: tile 1 waits for data from tile 0 (step 1)\n");
  const auto size = run_binary_err("run --model tlm --fabric ring:3 --schedule " + tiny);
  CHECK(size.code == 2);
  CHECK(size.err.find("is for 2 tiles, but --fabric ring:3 has 3") != std::string::npos);
}

// tessera crosscheck: the alphabeta model and the platform's ideal engine implement the
// same cost, ts + tw m a message (Grama), so their runs must match message by message;
// against the circuit engine, a lone one-hop message takes xi + tau + 1 + k - 1
// (Boppana §2) instead: with the defaults (ts 100, tw 1; xi 100, tau 2, one byte an
// element) and m = 64, 166 against 164 cycles.
TEST_CASE("crosscheck: alphabeta and the ideal engine agree message by message",
          "[cli][crosscheck]") {
  const auto j = run_json(
      "crosscheck --models alphabeta,tlm --switching ideal --fabric hypercube:3 "
      "--collective alltoall --algorithm pairwise --bytes 64");
  CHECK(j["identical"] == true);
  CHECK(j["agree"] == true);
  CHECK(j["messages"] == 8 * 7);  // pairwise exchange: every tile sends p - 1 blocks
  CHECK(j["unmatched"] == 0);
  CHECK(j["max_delta_cycles"] == 0);
  CHECK(j["first_divergence"].is_null());
  CHECK(j["models"][0]["cycles"] == j["models"][1]["cycles"]);
  // Pairwise on 8 tiles: 7 rounds of one 64-byte message each, ts + tw m = 164 a round.
  CHECK(j["models"][0]["cycles"] == 7 * 164);
}

TEST_CASE("crosscheck: a different engine is named at its first message", "[cli][crosscheck]") {
  const auto j = run_json(
      "crosscheck --models alphabeta,tlm --fabric hypercube:3 --collective alltoall "
      "--algorithm pairwise --bytes 64",
      1);
  CHECK(j["identical"] == false);
  CHECK(j["agree"] == false);
  CHECK(j["messages"] == 56);
  const auto& d = j["first_divergence"];
  REQUIRE(d.is_object());
  // Round 1 of pairwise: tile t exchanges with t ^ 1; tile 0's message to 1 starts at 0.
  CHECK(d["src"] == 0);
  CHECK(d["dst"] == 1);
  CHECK(d["models"][0]["model"] == "alphabeta");
  CHECK(d["models"][0]["start"] == 0);
  CHECK(d["models"][0]["delivered"] == 100 + 64);
  CHECK(d["models"][1]["model"] == "tlm");
  CHECK(d["models"][1]["delivered"] == 100 + 2 + 1 + 64 - 1);
  // Within a tolerance of the gap, the runs agree.
  const auto loose = run_json(
      "crosscheck --models alphabeta,tlm --fabric hypercube:3 --collective alltoall "
      "--algorithm pairwise --bytes 64 --tolerance " +
      j["max_delta_cycles"].dump());
  CHECK(loose["agree"] == true);
  CHECK(loose["identical"] == false);
}

TEST_CASE("crosscheck: a pattern's transfers pair up by index", "[cli][crosscheck]") {
  // Bokhari's eight paths through one edge, on the same engine twice: identical.
  const auto j = run_json(
      "crosscheck --models tlm,tlm --machine ipsc860 --fabric hypercube:7 "
      "--protocol forced --pattern " +
      patterns + "bokhari_edge_contention.json");
  CHECK(j["identical"] == true);
  CHECK(j["messages"] == 8);
}

TEST_CASE("crosscheck: a traffic run's packets are its messages", "[cli][crosscheck]") {
  // Every packet the run delivered is compared: as many messages as packets delivered.
  const std::string traffic = "--fabric mesh:4x4 --traffic uniform --rate 0.02 --cycles 2000";
  const auto run = run_json("run --model tlm " + traffic);
  const auto j = run_json("crosscheck --models tlm,tlm " + traffic);
  CHECK(j["identical"] == true);
  CHECK(j["unmatched"] == 0);
  CHECK(j["messages"] == run["packets"]["delivered"]);
  CHECK(j["messages"].get<std::uint64_t>() > 0);
}

TEST_CASE("crosscheck: bad input is refused with the run's own reason", "[cli][crosscheck]") {
  auto err = [](const std::string& args) {
    const auto r = run_binary_err(args);
    INFO(args);
    CHECK(r.code == 2);
    return r.err;
  };
  CHECK(err("crosscheck --models tlm --fabric mesh:2x2 --collective bcast") ==
        "tessera: --models 'tlm' is not two models A,B\n");
  CHECK(err("crosscheck --models tlm,rtlx --fabric mesh:2x2 --collective bcast") ==
        "tessera: --models: 'rtlx' is not a model (tessera models lists them)\n");
  CHECK(err("crosscheck --models tlm,tlm --model tlm --fabric mesh:2x2 --collective bcast") ==
        "tessera: crosscheck takes --models A,B, not --model\n");
  CHECK(err("crosscheck --models tlm,tlm --fabric mesh:2x2 --collective bcast --bytes 0") ==
        "tessera: --bytes 0 is too small, at least 1\n");
  CHECK(err("crosscheck --models tlm,rtl --fabric ring:4 --collective bcast")
            .starts_with("tessera: --model rtl: store-forward switching runs on a torus, not a "
                         "ring; built: torus: Vtsr_torus_4x4"));
  CHECK(err("crosscheck --models tlm,tlm --tolerance 5x --fabric mesh:2x2 --collective bcast") ==
        "tessera: --tolerance '5x' is not a non-negative integer\n");
}

TEST_CASE("tlm run: operating-system jitter is seeded, verified and off by default",
          "[cli][tlm][jitter]") {
  // Bokhari §6 measures the maximum of 100-1000 runs because run times vary; --param
  // jitter makes the platform vary the same way, reproducibly per seed.
  const std::string base =
      "run --model tlm --machine ipsc860 --fabric hypercube:4 --collective alltoall "
      "--algorithm pairwise --bytes 256";
  const auto cycles = [&](const std::string& extra) {
    const auto j = run_json(base + extra);
    CHECK(j["verified"] == true);
    return j["cycles"].get<std::uint64_t>();
  };
  const std::uint64_t plain = cycles("");
  const std::uint64_t a = cycles(" --param jitter=300 --param jitter_seed=1");
  CHECK(a == cycles(" --param jitter=300 --param jitter_seed=1"));
  CHECK(a != cycles(" --param jitter=300 --param jitter_seed=2"));
  CHECK(a > plain);  // delays only ever add
  CHECK(cycles(" --param jitter=0") == plain);
  const auto r = run_binary_err("run --fabric hypercube:3 --collective alltoall --param jitter=5");
  CHECK(r.code == 2);
  CHECK(r.err ==
        "tessera: --param jitter goes with --model tlm or rtl (the alpha-beta model has no "
        "operating system to delay messages)\n");
}

TEST_CASE("rtl run: the torus cuts messages into the RTL's 256-byte packets by default",
          "[cli][rtl]") {
  // One message of m = 768 bytes over h = 2 hops (tile 0 to 2 on torus:4x4), beta 100,
  // tau 1. Bermond92 §1: a packet of L bytes takes beta + tau L a hop, and q equal
  // packets of P bytes pipeline, the last arriving after (h + q - 2)(beta + tau P) +
  // beta + tau P. In the RTL's 256-byte packets q = 3: 3 x 356 + 356 = 1424 cycles; the
  // engine alone keeps a message one packet: h (beta + tau m) = 2 x 868 = 1736.
  const std::string one =
      write_pattern("p768.json", R"({"transfers": [{"src": 0, "dst": 2, "bytes": 768}]})");
  const std::uint64_t beta = 100;
  const std::uint64_t hops = 2;
  const std::uint64_t q = 768 / 256;
  const std::uint64_t packets = (hops + q - 2) * (beta + 256) + beta + 256;
  const auto rtl = run_json("run --model rtl --fabric torus:4x4 --pattern " + one);
  CHECK(rtl["params"]["packet_bytes"] == 256);
  CHECK(rtl["per_transfer"][0]["cycles"] == packets);
  const auto tlm = run_json("run --model tlm --fabric torus:4x4 --pattern " + one);
  CHECK(tlm["params"]["packet_bytes"] == 0);
  CHECK(tlm["per_transfer"][0]["cycles"] == hops * (beta + 768));
  // A crosscheck gives the engine the RTL's packets too, so the two compare exactly.
  const auto x = run_json("crosscheck --models tlm,rtl --fabric torus:4x4 --pattern " + one);
  CHECK(x["identical"] == true);
  CHECK(x["models"][0]["cycles"] == packets);
  CHECK(x["models"][1]["cycles"] == packets);
  // The issue's all-to-all: 768-byte messages (12 blocks of 64 bytes), no --param.
  const std::string a2a = "--fabric torus:4x4 --collective alltoall --bytes 64";
  CHECK(run_json("run --model rtl " + a2a)["verified"] == true);
  const auto xa = run_json("crosscheck --models tlm,rtl " + a2a);
  CHECK(xa["identical"] == true);
  CHECK(xa["models"][0]["cycles"] ==
        run_json("run --model tlm --param packet_bytes=256 " + a2a)["cycles"]);
  // The registry says so; packet_bytes 0 (one packet a message) is still refused.
  const auto models = run_json("models");
  CHECK(models["models"][2]["name"] == "rtl");
  CHECK(models["models"][2]["defaults"][0]["key"] == "packet_bytes");
  CHECK(models["models"][2]["defaults"][0]["default"] == "256");
  const auto e = run_binary_err("run --model rtl --param packet_bytes=0 " + a2a);
  CHECK(e.code == 2);
  CHECK(e.err ==
        "tessera: rtl torus: a message of 768 bytes in one packet (packet_bytes 0); the RTL's "
        "packets carry at most 256 bytes: give --param packet_bytes=1..256 (the default is "
        "256)\n");
}

TEST_CASE("run --help names the models each option goes with, and those models take it",
          "[cli][tlm]") {
  tessera::cli::command_line cl = tessera::cli::run_command_line();
  std::map<std::string, std::string> help;
  for (const auto& o : cl.declared())
    help[o.name] = o.help;
  for (const char* o : {"--pattern", "--traffic", "--payload-bytes", "--tiles", "--heatmap"}) {
    INFO(o);
    CHECK(help[o].rfind("tlm and rtl:", 0) == 0);
  }
  for (const auto& [name, text] : help) {
    INFO(name);
    CHECK(text.find("tlm only") == std::string::npos);
  }
  // --switching lists the engines of every model, as the registry has them.
  for (const tessera::models::model_info& m : tessera::models::models()) {
    std::string engines;
    for (const tessera::models::switching sw : m.engines)
      engines += (engines.empty() ? "" : ", ") + std::string(tessera::models::switching_name(sw));
    CHECK(help["--switching"].find("\n" + std::string(m.name) + ": " + engines) !=
          std::string::npos);
  }
  // The RTL platform runs a pattern, synthetic traffic and a carried payload.
  const std::string one =
      write_pattern("rtl_one.json", R"({"transfers": [{"src": 0, "dst": 3, "bytes": 64}]})");
  const auto p = run_json("run --model rtl --fabric mesh:2x2 --pattern " + one);
  CHECK(p["model"] == "rtl");
  CHECK(p["verified"] == true);
  const auto t =
      run_json("run --model rtl --fabric mesh:2x2 --traffic uniform --rate 0.01 --cycles 400");
  CHECK(t["model"] == "rtl");
  CHECK(t["packets"]["delivered"].get<std::uint64_t>() > 0);
  const auto c =
      run_json("run --model rtl --fabric mesh:2x2 --collective bcast --bytes 64 --payload-bytes 8");
  CHECK(c["verified"] == true);
  // --transfers lists every message on any model: 16,256 on the 7-cube, past the 4096
  // listed without it (128 x 127 messages of a complete exchange).
  const std::string a2a = "run --fabric hypercube:7 --collective alltoall --bytes 8";
  CHECK(run_json(a2a)["per_transfer"].size() == 4096);
  CHECK(run_json(a2a + " --transfers")["per_transfer"].size() == 128 * 127);
}
