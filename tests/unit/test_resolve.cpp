// One verdict for a schedule, by sizes as well as block ids: resolve_schedule (what
// `analyze` and `run` both take a schedule file to move), check_schedule and the verdict
// rule, on the files of docs/schedule-format.md "Checker semantics".
#include <catch2/catch.hpp>

#include <string>

#include "tessera/common/errors.hpp"
#include "tessera/schedule/check.hpp"
#include "tessera/schedule/json_io.hpp"
#include "tessera/schedule/resolve.hpp"
#include "tessera/schedule/verdict.hpp"

using namespace tessera;

namespace {

// Tile 0 holds block 0 and sends it to tile 1 as `first` bytes; tile 1 relays it to
// tile 2 as `relayed` bytes, and tile 2's receive expects `expected`.
std::string relay(int first, int relayed, int expected) {
  const std::string a = std::to_string(first);
  const std::string b = std::to_string(relayed);
  const std::string c = std::to_string(expected);
  return R"({"tiles": 3, "ops": [
    [{"op": "send", "peer": 1, "bytes": )" +
         a + R"(, "send_blocks": [0]}],
    [{"op": "recv", "peer": 0, "bytes": )" +
         a + R"(}, {"op": "send", "peer": 2, "bytes": )" + b + R"(, "send_blocks": [0]}],
    [{"op": "recv", "peer": 1, "bytes": )" +
         c + "}]]}";
}

std::string refusal(const std::string& text) {
  try {
    (void)resolve_schedule(schedule_from_json(text));
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

verdict verdict_on(const std::string& text) {
  const schedule s = schedule_from_json(text);
  return verdict_of(check_schedule(s).ok(), resolve_schedule(s).bytes_checked);
}

// Complete exchange on 2 tiles, blocks of `bytes`: block 1 goes 0 -> 1, block 2 1 -> 0.
std::string exchange2(int bytes, bool pair_sync) {
  const std::string b = std::to_string(bytes);
  const std::string sync0 = pair_sync ? R"({"op": "pair_sync", "peer": 1}, )" : "";
  const std::string sync1 = pair_sync ? R"({"op": "pair_sync", "peer": 0}, )" : "";
  return R"({"tiles": 2, "collective": "alltoall", "ops": [[)" + sync0 +
         R"({"op": "exchange", "peer": 1, "bytes": )" + b +
         R"(, "send_blocks": [1], "recv_blocks": [2]}], [)" + sync1 +
         R"({"op": "exchange", "peer": 0, "bytes": )" + b +
         R"(, "send_blocks": [2], "recv_blocks": [1]}]]})";
}

}  // namespace

TEST_CASE("a relay at the block's own size verifies, and its bytes are counted", "[resolve]") {
  const std::string text = relay(64, 64, 64);
  const resolved_schedule rs = resolve_schedule(schedule_from_json(text));
  CHECK(rs.length.at(0) == 64);
  // No contract: tiles 1 and 2 end holding the 64-byte block they received.
  CHECK(rs.bytes_checked == 2 * 64);
  CHECK(verdict_on(text) == verdict::verified);
}

TEST_CASE("a relay that truncates a block is refused, naming the op and both sizes", "[resolve]") {
  // The audit's file: analyze said "every block delivered exactly once", run refused.
  const std::string why = refusal(relay(64, 1, 1));
  CHECK(why ==
        "ops[1][1] sends block 0 as 1 byte, but block 0 has 64 bytes (as ops[0][0] sends it): "
        "a relay carries a block whole");
  // The symbolic check alone passes it: the sizes are what catch it.
  CHECK(check_schedule(schedule_from_json(relay(64, 1, 1))).ok());
}

TEST_CASE("a relay that pads a block is refused", "[resolve]") {
  const std::string why = refusal(relay(64, 128, 128));
  CHECK(why.find("ops[1][1] sends block 0 as 128 bytes, but block 0 has 64 bytes") == 0);
}

TEST_CASE("a block sent at two sizes by the tile that holds it is refused", "[resolve]") {
  // The audit's other file: a 1-byte send without block_bytes, received as 64 bytes; run
  // timed it as 64 bytes and verified, analyze failed it.
  const std::string text = R"({"tiles": 3, "ops": [
    [{"op": "send", "peer": 1, "bytes": 64, "send_blocks": [0]},
     {"op": "send", "peer": 2, "bytes": 1, "send_blocks": [0]}],
    [{"op": "recv", "peer": 0, "bytes": 64}],
    [{"op": "recv", "peer": 0, "bytes": 64}]]})";
  CHECK(refusal(text) ==
        "ops[0][1] sends block 0 as 1 byte, but block 0 has 64 bytes (as ops[0][0] sends it): "
        "a block has one size");
  // The relayed form of it: tile 1 relays at 1 byte what tile 2 expects at 64.
  CHECK(refusal(relay(64, 1, 64)).find("ops[1][1] sends block 0 as 1 byte") == 0);
}

TEST_CASE("a send's size is what its blocks hold: a 1-byte send carries a 1-byte block",
          "[resolve]") {
  const std::string text = R"({"tiles": 2, "ops": [
    [{"op": "send", "peer": 1, "bytes": 1, "send_blocks": [5]}],
    [{"op": "recv", "peer": 0, "bytes": 1}]]})";
  const resolved_schedule rs = resolve_schedule(schedule_from_json(text));
  CHECK(rs.length.at(5) == 1);
  CHECK(rs.bytes_checked == 1);
  CHECK(verdict_on(text) == verdict::verified);
  // A send without blocks: a block of its own size.
  const std::string bare = R"({"tiles": 2, "ops": [
    [{"op": "send", "peer": 1, "bytes": 3}], [{"op": "recv", "peer": 0, "bytes": 3}]]})";
  CHECK(resolve_schedule(schedule_from_json(bare)).bytes_checked == 3);
}

TEST_CASE("an all-to-all of 0-byte messages has nothing to check and is not verified",
          "[resolve]") {
  const std::string text = exchange2(0, false);
  CHECK(check_schedule(schedule_from_json(text)).ok());  // every block id arrives
  CHECK(resolve_schedule(schedule_from_json(text)).bytes_checked == 0);
  CHECK(verdict_on(text) == verdict::nothing_checked);
  CHECK(exit_status(verdict::nothing_checked) == 0);
  CHECK(exit_status(verdict::failed) == 1);
}

TEST_CASE("zero-byte synchronization beside data verifies: the run as a whole checks bytes",
          "[resolve]") {
  // Bokhari91 §5's pairwise_F: a pair_sync before each exchange carries no data.
  const std::string text = exchange2(16, true);
  // The contract: each of the 2 tiles wants the other's block of 16 bytes.
  CHECK(resolve_schedule(schedule_from_json(text)).bytes_checked == 2 * 16);
  CHECK(verdict_on(text) == verdict::verified);
  // Only synchronization: nothing to check.
  const std::string only = R"({"tiles": 2, "ops": [
    [{"op": "barrier"}, {"op": "pair_sync", "peer": 1}],
    [{"op": "barrier"}, {"op": "pair_sync", "peer": 0}]]})";
  CHECK(verdict_on(only) == verdict::nothing_checked);
}

TEST_CASE("a receive no send matches is a deadlock for both, not a refusal", "[resolve]") {
  const std::string text = R"({"tiles": 2, "ops": [[], [{"op": "recv", "peer": 0, "bytes": 64}]]})";
  CHECK(refusal(text).empty());
  const check_result r = check_schedule(schedule_from_json(text));
  CHECK_FALSE(r.completed);
  CHECK(verdict_on(text) == verdict::failed);
}

TEST_CASE("a failed check is failed whatever the bytes", "[resolve]") {
  CHECK(verdict_of(false, 0) == verdict::failed);
  CHECK(verdict_of(false, 100) == verdict::failed);
  CHECK(verdict_of(true, 1) == verdict::verified);
}
