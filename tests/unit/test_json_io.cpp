// The schedule JSON format (docs/schedule-format.md): round trips and input errors.
#include <catch2/catch.hpp>

#include "tessera/common/errors.hpp"
#include "tessera/schedule/build.hpp"
#include "tessera/schedule/check.hpp"
#include "tessera/schedule/json_io.hpp"

using namespace tessera;

namespace {

std::string error_of(const std::string& text) {
  try {
    schedule_from_json(text);
  } catch (const input_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a generated schedule survives a JSON round trip", "[json]") {
  const auto s = build_alltoall(fw::a2a_algorithm::standard, fabric::hypercube(3), 32);
  const auto back = schedule_from_json(schedule_to_json(s));
  REQUIRE(back.tiles == s.tiles);
  CHECK(back.collective == "alltoall");
  CHECK(back.algorithm == "standard");
  CHECK(back.block_bytes == 32);
  for (std::uint32_t t = 0; t < s.tiles; ++t) {
    const auto& a = s.programs[t];
    const auto& b = back.programs[t];
    REQUIRE(a.ops.size() == b.ops.size());
    for (std::size_t i = 0; i < a.ops.size(); ++i) {
      CHECK(a.ops[i].kind == b.ops[i].kind);
      CHECK(a.ops[i].step == b.ops[i].step);
      CHECK(a.ops[i].to == b.ops[i].to);
      CHECK(a.ops[i].from == b.ops[i].from);
      CHECK(a.ops[i].send_bytes == b.ops[i].send_bytes);
      CHECK(a.ops[i].count == b.ops[i].count);
      const auto sa = a.send_blocks(a.ops[i]);
      const auto sb = b.send_blocks(b.ops[i]);
      CHECK(std::vector<std::uint32_t>(sa.begin(), sa.end()) ==
            std::vector<std::uint32_t>(sb.begin(), sb.end()));
    }
  }
  // The alltoall collective name brings the delivery contract back with it.
  CHECK(check_schedule(back).ok());
}

TEST_CASE("the DESIGN.md example schedule parses and checks", "[json]") {
  const auto s = schedule_from_json(
      R"({"tiles": 2, "ops": [[{"op": "send", "peer": 1, "bytes": 64}],
                              [{"op": "recv", "peer": 0, "bytes": 64}]]})");
  CHECK(s.tiles == 2);
  CHECK(s.programs[0].ops[0].send_bytes == 64);
  CHECK(s.programs[1].ops[0].from == 0);
  CHECK(check_schedule(s).ok());
}

TEST_CASE("an explicit delivery contract is enforced", "[json]") {
  // Tile 0 broadcasts block 0 to tile 1 only, but tile 2 wants it as well.
  const auto s = schedule_from_json(R"({"tiles": 3,
    "delivery": {"blocks": 1, "origin": [0], "wanted": [[], [0], [0]]},
    "ops": [[{"op": "send", "peer": 1, "bytes": 4, "send_blocks": [0]}],
            [{"op": "recv", "peer": 0, "bytes": 4, "recv_blocks": [0]}], []]})");
  const auto r = check_schedule(s);
  CHECK_FALSE(r.delivers_all_blocks);
  REQUIRE_FALSE(r.errors.empty());
  CHECK(r.errors.front() == "tile 2 never received block 0");
}

TEST_CASE("bad schedule files name the offending value", "[json]") {
  CHECK(error_of("{").rfind("schedule is not JSON", 0) == 0);
  CHECK(error_of("[]") == "schedule must be a JSON object");
  CHECK(error_of(R"({"ops": []})") == "schedule has no \"tiles\"");
  CHECK(error_of(R"({"tiles": 2, "ops": [[]]})") == "schedule.ops has 1 op lists for 2 tiles");
  CHECK(error_of(R"({"tiles": 2, "ops": [[{"op": "send", "peer": 2}], []]})") ==
        "ops[0][0].peer = 2 is not a tile (tiles = 2)");
  CHECK(error_of(R"({"tiles": 2, "ops": [[{"op": "teleport"}], []]})") ==
        "ops[0][0].op = \"teleport\" is not an op (send, recv, exchange, sendrecv, idle, "
        "barrier, pair_sync, shuffle, combine)");
  CHECK(error_of(R"({"tiles": 2, "ops": [[], [{"op": "recv", "peer": 0, "bytes": -1}]]})") ==
        "ops[1][0].bytes = -1 is not a non-negative integer");
  CHECK(error_of(R"({"tiles": 2, "ops": [[{"op": "sendrecv", "to": 1}], []]})") ==
        "ops[0][0] has no \"from\"");
  CHECK(error_of(R"({"tiles": 2, "ops": [[{"op": "idle", "send_blocks": [1]}], []]})") ==
        "ops[0][0] (idle) has send_blocks");
  CHECK(error_of(R"({"tiles": 1, "ops": [[{"op": "idle", "step": 0}]]})") ==
        "ops[0][0].step = 0: steps are numbered from 1");
  CHECK(error_of(R"({"tiles": 1, "ops": [[{"op": "idle", "step": 4000000000}]]})") ==
        "ops[0][0].step = 4000000000 exceeds 1048576");
  CHECK(error_of(R"({"tiles": 70000, "ops": []})") == "schedule.tiles = 70000 exceeds 65536");
  CHECK(error_of(R"({"tiles": 2, "collective": 5, "ops": [[], []]})") ==
        "schedule.collective = 5 is not a string");
}
