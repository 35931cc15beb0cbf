// The memory a schedule run plans for its tiles, held to what the executor keeps: a send
// with release drops its blocks before the op's receive stores the new ones
// (executor::finish_op), and a combine is local, so it takes no message buffer. The
// expected numbers are the memory rule of docs/runtime.md worked by hand: per tile the
// blocks held at once times the slot, plus the largest receive's and the largest send's
// buffer, each a directory entry per block and the block's bytes.
#include <catch2/catch.hpp>

#include <string>

#include "tessera/alphabeta/run.hpp"
#include "tessera/runtime/message.hpp"
#include "tessera/schedule/json_io.hpp"
#include "tessera/schedule/resolve.hpp"

using namespace tessera;

namespace {

ab::run_outcome run_text(const std::string& text) {
  const schedule s = schedule_from_json(text);
  const resolved_schedule ps = resolve_schedule(s);
  return ab::run_schedule(fabric::ring(s.tiles), ps, ab::run_options{});
}

// A message of one 64-byte block: its directory entry and its bytes.
constexpr std::uint64_t one_block_message = sizeof(dir_entry) + 64;

}  // namespace

TEST_CASE("a schedule's exchange with release holds one block at a time", "[schedule][memory]") {
  // Each tile sends its block and receives the other's in one exchange, releasing what it
  // sends: the sent block is gone before the received one is stored.
  const ab::run_outcome out = run_text(R"({"tiles": 2, "ops": [
    [{"op": "exchange", "peer": 1, "bytes": 64, "send_blocks": [0], "recv_blocks": [1],
      "release": true}],
    [{"op": "exchange", "peer": 0, "bytes": 64, "send_blocks": [1], "recv_blocks": [0],
      "release": true}]]})");
  REQUIRE(out.verified);
  REQUIRE(out.tiles.size() == 2);
  for (const ab::tile_report& t : out.tiles)
    CHECK(t.peak_blocks == 1);
  // Per tile: one block held, one block's receive buffer and one block's send buffer.
  CHECK(out.memory_bytes == 2 * (64 + one_block_message + one_block_message));
}

TEST_CASE("a schedule's combine takes no message buffer", "[schedule][memory]") {
  // Tile 1 receives block 0 and combines it into block 5 (a copy: 5 is not held yet), so
  // it holds two blocks and receives one; it never sends. Tile 0 sends block 0.
  const ab::run_outcome out = run_text(R"({"tiles": 2, "ops": [
    [{"op": "send", "peer": 1, "bytes": 64, "send_blocks": [0]}],
    [{"op": "recv", "peer": 0, "bytes": 64, "recv_blocks": [0]},
     {"op": "combine", "send_blocks": [0], "recv_blocks": [5]}]]})");
  REQUIRE(out.verified);
  REQUIRE(out.tiles.size() == 2);
  CHECK(out.tiles[0].peak_blocks == 1);
  CHECK(out.tiles[1].peak_blocks == 2);
  const std::uint64_t sender = 64 + one_block_message;        // its block, its send buffer
  const std::uint64_t receiver = 2 * 64 + one_block_message;  // two blocks, a receive buffer
  CHECK(out.memory_bytes == sender + receiver);
}
