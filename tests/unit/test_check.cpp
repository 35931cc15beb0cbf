// The symbolic checker: it must accept correct schedules and name the tile and the
// block (or the waiting tiles) of every kind of failure.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tessera/schedule/check.hpp"
#include "tessera/schedule/schedule.hpp"

using namespace tessera;
using blocks = std::vector<std::uint32_t>;

namespace {

constexpr std::uint64_t block_bytes = 8;

schedule make(std::uint32_t tiles, bool alltoall_spec = true) {
  schedule s;
  s.tiles = tiles;
  s.programs.resize(tiles);
  s.block_bytes = block_bytes;
  if (alltoall_spec) s.delivery = alltoall_delivery(tiles);
  return s;
}

void add(schedule& s, std::uint32_t t, op_kind k, std::uint32_t to, std::uint32_t from,
         const blocks& send, const blocks& recv, std::uint32_t step = 1) {
  sched_op o;
  o.kind = k;
  o.step = step;
  o.to = to;
  o.from = from;
  o.send_bytes = send.size() * block_bytes;
  o.recv_bytes = recv.size() * block_bytes;
  s.programs[t].add(o, send, recv);
}

void send(schedule& s, std::uint32_t t, std::uint32_t to, const blocks& b) {
  add(s, t, op_kind::send, to, no_tile, b, {});
}
void recv(schedule& s, std::uint32_t t, std::uint32_t from, const blocks& b) {
  add(s, t, op_kind::recv, no_tile, from, {}, b);
}
void exchange(schedule& s, std::uint32_t t, std::uint32_t peer, const blocks& out,
              const blocks& in) {
  add(s, t, op_kind::exchange, peer, peer, out, in);
}

// Block s -> t of an all-to-all among p tiles.
std::uint32_t blk(std::uint32_t src, std::uint32_t dst, std::uint32_t p) {
  return src * p + dst;
}

bool any_error_contains(const check_result& r, const std::string& text) {
  for (const auto& e : r.errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a two-tile exchange delivers both blocks", "[check]") {
  auto s = make(2);
  exchange(s, 0, 1, {blk(0, 1, 2)}, {blk(1, 0, 2)});
  exchange(s, 1, 0, {blk(1, 0, 2)}, {blk(0, 1, 2)});
  const auto r = check_schedule(s);
  CHECK(r.ok());
  CHECK(r.messages == 2);
  CHECK(r.block_receipts == 2);
}

TEST_CASE("blocking receives in a cycle are a deadlock with the cycle named", "[check]") {
  auto s = make(3);
  // 0 waits for 2, 2 waits for 1, 1 waits for 0; every send comes after the receive.
  recv(s, 0, 2, {blk(2, 0, 3)});
  send(s, 0, 1, {blk(0, 1, 3)});
  recv(s, 1, 0, {blk(0, 1, 3)});
  send(s, 1, 2, {blk(1, 2, 3)});
  recv(s, 2, 1, {blk(1, 2, 3)});
  send(s, 2, 0, {blk(2, 0, 3)});
  const auto r = check_schedule(s);
  CHECK_FALSE(r.completed);
  CHECK_FALSE(r.delivers_all_blocks);
  REQUIRE(r.deadlock.size() == 3);
  CHECK(r.deadlock[0].tile == 0);
  CHECK(r.deadlock[0].waits_for.find("recv from tile 2") != std::string::npos);
  CHECK(r.deadlock_cycle == "0 -> 2 -> 1 -> 0");
  CHECK(any_error_contains(r, "deadlock"));
}

TEST_CASE("waiting on a tile that has finished is reported", "[check]") {
  auto s = make(2, false);
  recv(s, 1, 0, {});
  const auto r = check_schedule(s);
  CHECK_FALSE(r.completed);
  REQUIRE(r.deadlock.size() == 1);
  CHECK(r.deadlock[0].tile == 1);
  CHECK(r.deadlock[0].waits_for == "recv from tile 0 (tile 0 has finished)");
}

TEST_CASE("a missing transfer is a lost block naming tile and block", "[check]") {
  auto s = make(2);
  send(s, 0, 1, {blk(0, 1, 2)});
  recv(s, 1, 0, {blk(0, 1, 2)});
  const auto r = check_schedule(s);  // tile 1 never sends block 1->0
  CHECK(r.completed);
  CHECK_FALSE(r.delivers_all_blocks);
  CHECK(any_error_contains(r, "tile 0 never received block 2 (1->0)"));
}

TEST_CASE("a block received twice is a duplicate", "[check]") {
  auto s = make(2);
  send(s, 0, 1, {blk(0, 1, 2)});
  send(s, 0, 1, {blk(0, 1, 2)});
  exchange(s, 1, 0, {blk(1, 0, 2)}, {blk(0, 1, 2)});
  recv(s, 1, 0, {blk(0, 1, 2)});
  recv(s, 0, 1, {blk(1, 0, 2)});
  const auto r = check_schedule(s);
  CHECK(r.completed);
  CHECK_FALSE(r.delivers_all_blocks);
  CHECK(any_error_contains(r, "tile 1 received block 1 (0->1) again (duplicate"));
}

TEST_CASE("sending a block the tile does not hold is an error", "[check]") {
  auto s = make(3);
  send(s, 0, 1, {blk(2, 1, 3)});  // block 2->1 is at tile 2, not 0
  recv(s, 1, 0, {blk(2, 1, 3)});
  const auto r = check_schedule(s);
  CHECK_FALSE(r.ok());
  CHECK(any_error_contains(r,
                           "tile 0 op 0 (send to 1, step 1) sends block 7 (2->1), which it "
                           "does not hold"));
}

TEST_CASE("a message nobody receives is reported", "[check]") {
  auto s = make(2, false);
  send(s, 0, 1, {});
  const auto r = check_schedule(s);
  CHECK(r.completed);
  CHECK_FALSE(r.ok());
  CHECK(any_error_contains(r, "its message to tile 1 was never received"));
}

TEST_CASE("size and block mismatches between send and receive are errors", "[check]") {
  auto s = make(2);
  send(s, 0, 1, {blk(0, 1, 2)});
  add(s, 1, op_kind::recv, no_tile, 0, {}, {blk(0, 0, 2), blk(0, 1, 2)});
  const auto r = check_schedule(s);
  CHECK(any_error_contains(r, "expects 16 bytes"));
  CHECK(any_error_contains(r, "expects 2 blocks starting with block 0 (0->0)"));
}

TEST_CASE("barriers release when every tile arrives and deadlock otherwise", "[check]") {
  auto s = make(2, false);
  add(s, 0, op_kind::barrier, no_tile, no_tile, {}, {});
  add(s, 1, op_kind::barrier, no_tile, no_tile, {}, {});
  send(s, 0, 1, {});
  recv(s, 1, 0, {});
  CHECK(check_schedule(s).ok());

  auto bad = make(2, false);
  add(bad, 0, op_kind::barrier, no_tile, no_tile, {}, {});
  const auto r = check_schedule(bad);
  CHECK_FALSE(r.completed);
  REQUIRE(r.deadlock.size() == 1);
  CHECK(r.deadlock[0].waits_for == "barrier (1 of 2 tiles arrived)");
}

TEST_CASE("pairwise synchronization pairs the k-th sync of each side", "[check]") {
  auto s = make(3, false);
  add(s, 0, op_kind::pair_sync, 1, no_tile, {}, {});
  add(s, 1, op_kind::pair_sync, 0, no_tile, {}, {});
  add(s, 1, op_kind::pair_sync, 2, no_tile, {}, {});
  add(s, 2, op_kind::pair_sync, 1, no_tile, {}, {});
  CHECK(check_schedule(s).ok());

  auto bad = make(3, false);
  add(bad, 0, op_kind::pair_sync, 1, no_tile, {}, {});
  add(bad, 1, op_kind::pair_sync, 2, no_tile, {}, {});
  add(bad, 2, op_kind::pair_sync, 0, no_tile, {}, {});
  const auto r = check_schedule(bad);
  CHECK_FALSE(r.completed);
  CHECK(r.deadlock.size() == 3);
  CHECK(r.deadlock_cycle == "0 -> 1 -> 2 -> 0");
}

TEST_CASE("messages on one channel are received in order", "[check]") {
  // Tile 0 sends two messages; tile 1 expects them in the opposite order.
  auto bad = make(3);
  send(bad, 0, 1, {blk(0, 1, 3)});
  send(bad, 0, 1, {blk(0, 2, 3)});
  recv(bad, 1, 0, {blk(0, 2, 3)});
  recv(bad, 1, 0, {blk(0, 1, 3)});
  const auto r = check_schedule(bad);
  CHECK(any_error_contains(r,
                           "tile 1 op 0 (recv from 0, step 1) expects 1 blocks starting "
                           "with block 2 (0->2)"));
}
