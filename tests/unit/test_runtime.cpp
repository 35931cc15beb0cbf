// The tile runtime's parts: block store, typed reductions, the executor's checks
// and the in-memory NIC, each against an independent reference.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "tessera/firmware/local_run.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/memory_nic.hpp"
#include "tessera/runtime/reduce.hpp"

using namespace tessera;

TEST_CASE("block store agrees with a std::map under random inserts and erases") {
  block_store_storage<64, 8> mem;
  block_store s = mem.make();
  std::map<std::uint32_t, std::uint8_t> ref;
  std::mt19937 gen(7);
  const auto rng = [&gen] { return static_cast<std::uint32_t>(gen()); };
  for (int i = 0; i < 20000; ++i) {
    const std::uint32_t id = rng() % 200;  // collisions and long probe chains
    if (rng() % 2 == 0) {
      const auto v = static_cast<std::uint8_t>(rng());
      const std::byte b[1] = {std::byte{v}};
      const auto r = s.insert(id, b);
      if (ref.contains(id)) {
        CHECK(r == block_store::put_result::duplicate);
      } else if (ref.size() == 64) {
        CHECK(r == block_store::put_result::full);
      } else {
        REQUIRE(r == block_store::put_result::ok);
        ref[id] = v;
      }
    } else {
      CHECK(s.erase(id) == ref.contains(id));
      ref.erase(id);
    }
    REQUIRE(s.size() == ref.size());
  }
  for (std::uint32_t id = 0; id < 200; ++id) {
    REQUIRE(s.contains(id) == ref.contains(id));
    if (ref.contains(id)) CHECK(std::to_integer<std::uint8_t>(s.find(id)[0]) == ref[id]);
  }
  const std::byte big[9]{};
  CHECK(s.insert(999, big) == block_store::put_result::too_long);
}

TEST_CASE("typed reductions combine element by element, integers wrapping") {
  const auto run = [](elem_type t, reduce_op o, auto a, auto b) {
    using T = decltype(a);
    std::byte x[sizeof(T)];
    std::byte y[sizeof(T)];
    std::memcpy(x, &a, sizeof a);
    std::memcpy(y, &b, sizeof b);
    combine(x, y, sizeof x, t, o);
    T r;
    std::memcpy(&r, x, sizeof r);
    return r;
  };
  CHECK(run(elem_type::i32, reduce_op::sum, std::int32_t{-7}, std::int32_t{3}) == -4);
  CHECK(run(elem_type::i32, reduce_op::sum, std::int32_t{2147483647}, std::int32_t{1}) ==
        std::int32_t{-2147483647 - 1});  // wraps like the unsigned sum
  CHECK(run(elem_type::u32, reduce_op::min, std::uint32_t{9}, std::uint32_t{4}) == 4U);
  CHECK(run(elem_type::i64, reduce_op::max, std::int64_t{-9}, std::int64_t{-4}) == -4);
  CHECK(run(elem_type::u64, reduce_op::band, std::uint64_t{0b1100}, std::uint64_t{0b1010}) ==
        0b1000U);
  CHECK(run(elem_type::u32, reduce_op::bor, std::uint32_t{0b1100}, std::uint32_t{0b1010}) ==
        0b1110U);
  CHECK(run(elem_type::u32, reduce_op::bxor, std::uint32_t{0b1100}, std::uint32_t{0b1010}) ==
        0b0110U);
  CHECK(run(elem_type::f32, reduce_op::sum, 1.5F, 2.25F) == 3.75F);
  CHECK(run(elem_type::f64, reduce_op::min, 1.5, -2.25) == -2.25);
  CHECK_FALSE(reduce_supported(elem_type::f32, reduce_op::bxor));
  CHECK(reduce_supported(elem_type::f64, reduce_op::max));
}

namespace {

// A fixed op list per tile, to drive the executor with schedules no generator makes.
struct list_program {
  struct entry {
    op o;
    std::vector<std::uint32_t> send;
    std::vector<std::uint32_t> recv;
  };
  const std::vector<entry>* ops{nullptr};
  std::size_t at{0};
  bool next(op& o, std::span<block_id> s, std::span<block_id> r) {
    if (at == ops->size()) return false;
    const entry& e = (*ops)[at++];
    o = e.o;
    for (std::size_t i = 0; i < e.send.size(); ++i)
      s[i] = block_id{e.send[i]};
    for (std::size_t i = 0; i < e.recv.size(); ++i)
      r[i] = block_id{e.recv[i]};
    o.send_count = static_cast<std::uint32_t>(e.send.size());
    o.recv_count = static_cast<std::uint32_t>(e.recv.size());
    return true;
  }
};

using fabric2 = memory_fabric<2, 4, 8, 256, 8>;

struct two_tiles {
  fabric2 net;
  block_store_storage<8, 16> mem[2];
  block_store store[2];
  block_id ids[2][2][4];
  std::byte tx[2][256];
  std::byte rx[2][256];
  std::vector<list_program::entry> prog[2];

  // Runs both programs; returns the fault of the first tile that failed (or none).
  tile_fault run(std::uint32_t* failed_tile = nullptr) {
    using ex_t = executor<fabric2::port, list_program>;
    fabric2::port nic[2] = {net.nic(0), net.nic(1)};
    std::vector<ex_t> ex;
    executor_config cfg;
    cfg.tiles = 2;
    for (std::uint32_t t = 0; t < 2; ++t) {
      store[t] = mem[t].make();
      const std::byte data[4] = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
      REQUIRE(store[t].insert(10 + t, data) == block_store::put_result::ok);
      ex.emplace_back(tile_id{t}, nic[t], list_program{&prog[t], 0}, store[t],
                      ex_t::buffers{ids[t][0], ids[t][1], tx[t], rx[t], {}}, cfg);
    }
    for (int round = 0; round < 8; ++round) {
      for (std::uint32_t t = 0; t < 2; ++t) {
        if (ex[t].poll() == tile_state::failed) {
          if (failed_tile != nullptr) *failed_tile = t;
          return ex[t].fault();
        }
      }
    }
    return {};
  }
};

op make(op_kind k, std::uint32_t to, std::uint32_t from, std::uint32_t step = 1) {
  op o;
  o.kind = k;
  o.to = to;
  o.from = from;
  o.step = step;
  return o;
}

}  // namespace

TEST_CASE("the executor delivers blocks and rejects a block the op does not expect") {
  two_tiles ok;
  ok.prog[0] = {{make(op_kind::send, 1, no_tile), {10}, {}}};
  ok.prog[1] = {{make(op_kind::recv, no_tile, 0), {}, {10}}};
  CHECK(ok.run().code == tile_error::none);
  REQUIRE(ok.store[1].contains(10));
  CHECK(std::to_integer<int>(ok.store[1].find(10)[3]) == 4);

  two_tiles bad;
  bad.prog[0] = {{make(op_kind::send, 1, no_tile), {10}, {}}};
  bad.prog[1] = {{make(op_kind::recv, no_tile, 0), {}, {12}}};
  std::uint32_t t = 9;
  const tile_fault f = bad.run(&t);
  CHECK(t == 1);
  CHECK(f.code == tile_error::wrong_block);
  CHECK(f.block == 12);
  CHECK(f.got == 10);
}

TEST_CASE("the executor reports a duplicated block and a send of a block not held") {
  two_tiles dup;  // tile 1 already holds block 11 and receives it again
  dup.prog[0] = {{make(op_kind::combine, no_tile, no_tile), {10}, {11}},
                 {make(op_kind::send, 1, no_tile), {11}, {}}};
  dup.prog[1] = {{make(op_kind::recv, no_tile, 0), {}, {11}}};
  std::uint32_t t = 9;
  tile_fault f = dup.run(&t);
  CHECK(t == 1);
  CHECK(f.code == tile_error::duplicate_block);
  CHECK(f.block == 11);

  two_tiles unheld;
  unheld.prog[0] = {{make(op_kind::send, 1, no_tile), {42}, {}}};
  f = unheld.run(&t);
  CHECK(t == 0);
  CHECK(f.code == tile_error::block_not_held);
  CHECK(f.block == 42);
}

TEST_CASE("the in-memory NIC drops FORCED messages that find no receive") {
  fabric2 net;
  auto a = net.nic(0);
  auto b = net.nic(1);
  msg_header h{};
  h.dst = 1;
  h.proto = protocol::forced;
  const std::byte payload[2]{};
  std::byte buf[8];
  a.post_send(h, payload);  // nothing posted at tile 1 yet
  CHECK(net.dropped() == 1);
  const nic_handle r = b.post_recv(0, buf);
  CHECK(b.test(r) == nic_status::pending);
  a.post_send(h, payload);  // now it matches
  CHECK(b.test(r) == nic_status::done);
  CHECK(net.dropped() == 1);
  h.proto = protocol::raw;  // raw messages wait for their receive
  a.post_send(h, payload);
  CHECK(net.buffered() == 1);
  const nic_handle r2 = b.post_recv(0, buf);
  CHECK(b.test(r2) == nic_status::done);
  CHECK(net.buffered() == 0);
}

TEST_CASE("collectives on the in-memory machine of the bare-metal self-test verify") {
  static fw::local_machine<8, 16, 32, 8> machine;
  for (const char* fs : {"hypercube:3", "ring:8", "mesh:2x4"}) {
    const fabric f = parse_fabric(fs).value;
    for (const auto& a : fw::tb_algorithms) {
      if (!fw::fabric_meets(a.needs, f)) continue;
      fw::collective_params c;
      c.coll = a.coll;
      c.alg = a.alg;
      c.f = f;
      c.bytes = 16;
      c.root = 3;
      c.shift = 3;
      const fw::local_result r = machine.run(c, executor_config{});
      INFO(fs << " " << fw::info(a.coll).name << " " << a.name);
      CHECK(r.status == fw::local_status::verified);
    }
  }
}

TEST_CASE("verification names the missing, extra, short and corrupted block") {
  fw::collective_params c;
  c.coll = fw::collective::allgather;
  c.alg = fw::tb_algorithm::ring;
  c.f = fabric::ring(4);
  c.bytes = 8;
  block_store_storage<8, 8> mem;
  const auto fill = [&](block_store& s) {
    s = mem.make();
    fw::layout{c}.final_blocks(2, [&](const fw::block_desc& b) {
      std::span<std::byte> out;
      REQUIRE(s.emplace(b.id, b.len, out) == block_store::put_result::ok);
      fw::block_bytes(b, c.type, c.rop, 0, out);
    });
  };
  block_store s;
  fill(s);
  CHECK(fw::verify_tile(c, 2, s).kind == fw::mismatch_kind::none);

  s.find(3)[5] ^= std::byte{1};
  fw::mismatch m = fw::verify_tile(c, 2, s);
  CHECK(m.kind == fw::mismatch_kind::bytes);
  CHECK(m.block == 3);
  CHECK(m.offset == 5);

  fill(s);
  s.erase(1);
  m = fw::verify_tile(c, 2, s);
  CHECK(m.kind == fw::mismatch_kind::missing);
  CHECK(m.block == 1);

  fill(s);
  const std::byte x[1]{};
  REQUIRE(s.insert(77, x) == block_store::put_result::ok);
  m = fw::verify_tile(c, 2, s);
  CHECK(m.kind == fw::mismatch_kind::extra);
  CHECK(m.block == 77);

  fill(s);
  s.erase(0);
  REQUIRE(s.insert(0, std::span<const std::byte>(x, 1)) == block_store::put_result::ok);
  m = fw::verify_tile(c, 2, s);
  CHECK(m.kind == fw::mismatch_kind::length);
  CHECK(m.block == 0);
}

TEST_CASE("reduction blocks are checked against an independent fold") {
  // allreduce of i32 sums over 4 tiles: element e must be the sum of contrib_value.
  fw::collective_params c;
  c.coll = fw::collective::allreduce;
  c.alg = fw::tb_algorithm::ring;
  c.f = fabric::ring(4);
  c.bytes = 8;
  c.type = elem_type::i32;
  std::int32_t want[2] = {0, 0};
  for (std::uint32_t t = 0; t < 4; ++t) {
    for (std::uint32_t e = 0; e < 2; ++e)
      want[e] += static_cast<std::int32_t>(fw::contrib_value(t, e, elem_type::i32));
  }
  std::byte got[8];
  fw::block_bytes(fw::block_desc{0, 8, fw::content::fold, 3, 0}, c.type, c.rop, 0, got);
  std::int32_t v[2];
  std::memcpy(v, got, sizeof v);
  CHECK(v[0] == want[0]);
  CHECK(v[1] == want[1]);
}

TEST_CASE("barrier, pairwise sync and idle complete, and a one-sided sync holds the tile") {
  two_tiles ok;
  ok.prog[0] = {{make(op_kind::barrier, no_tile, no_tile), {}, {}},
                {make(op_kind::pair_sync, 1, no_tile, 2), {}, {}},
                {make(op_kind::idle, no_tile, no_tile, 3), {}, {}},
                {make(op_kind::send, 1, no_tile, 4), {10}, {}}};
  ok.prog[1] = {{make(op_kind::barrier, no_tile, no_tile), {}, {}},
                {make(op_kind::pair_sync, 0, no_tile, 2), {}, {}},
                {make(op_kind::recv, no_tile, 0, 4), {}, {10}}};
  CHECK(ok.run().code == tile_error::none);
  CHECK(ok.store[1].contains(10));  // only possible once both got past the syncs

  two_tiles lonely;  // tile 1 never answers the pairwise sync: tile 0 must not proceed
  lonely.prog[0] = {{make(op_kind::pair_sync, 1, no_tile), {}, {}},
                    {make(op_kind::send, 1, no_tile, 2), {10}, {}}};
  lonely.prog[1] = {{make(op_kind::recv, no_tile, 0, 2), {}, {10}}};
  CHECK(lonely.run().code == tile_error::none);
  CHECK_FALSE(lonely.store[1].contains(10));
}

namespace {

// N tiles on the in-memory machine, every tile with the same executor_config; tile t
// starts holding block 10 + t.
template <std::uint32_t N>
struct tiles_n {
  using fabric_t = memory_fabric<N, 16, 16, 256, 16>;
  using ex_t = executor<typename fabric_t::port, list_program>;
  fabric_t net;
  block_store_storage<8, 16> mem[N];
  block_store store[N];
  block_id ids[N][2][4];
  std::byte tx[N][256];
  std::byte rx[N][256];
  posted_recv posted[N][4];
  std::vector<list_program::entry> prog[N];
  std::vector<ex_t> ex;

  // Polls every tile `rounds` times; the fault of the first tile that failed, or none.
  tile_fault run(bool prepost, std::uint32_t* failed_tile = nullptr, int rounds = 16) {
    executor_config cfg;
    cfg.tiles = N;
    cfg.prepost = prepost;
    cfg.proto = prepost ? protocol::forced : protocol::raw;
    ex.clear();
    ex.reserve(N);
    for (std::uint32_t t = 0; t < N; ++t) {
      store[t] = mem[t].make();
      const std::byte data[4] = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte(t)};
      REQUIRE(store[t].insert(10 + t, data) == block_store::put_result::ok);
      ex.emplace_back(tile_id{t}, net_port(t), list_program{&prog[t], 0}, store[t],
                      typename ex_t::buffers{ids[t][0], ids[t][1], tx[t], rx[t], posted[t]}, cfg);
    }
    for (int round = 0; round < rounds; ++round) {
      for (std::uint32_t t = 0; t < N; ++t) {
        if (ex[t].poll() == tile_state::failed) {
          if (failed_tile != nullptr) *failed_tile = t;
          return ex[t].fault();
        }
      }
    }
    return {};
  }
  typename fabric_t::port& net_port(std::uint32_t t) {
    ports[t] = net.nic(t);
    return ports[t];
  }
  typename fabric_t::port ports[N];
};

// Tile 0 sends block 10 to tile 1 and expects block `expect` from it in the same op;
// tile 1 sends its block 11 only after a pairwise sync that tile 0 reaches after that
// op. If the op waited for its receive, neither tile could go on.
void sync_then_send(tiles_n<2>& m, std::uint32_t expect) {
  m.prog[0] = {{make(op_kind::sendrecv, 1, 1, 1), {10}, {expect}},
               {make(op_kind::pair_sync, 1, no_tile, 2), {}, {}}};
  m.prog[1] = {{make(op_kind::recv, no_tile, 0, 1), {}, {10}},
               {make(op_kind::pair_sync, 0, no_tile, 2), {}, {}},
               {make(op_kind::send, 0, no_tile, 3), {11}, {}}};
}

}  // namespace

// Bokhari §5: a FORCED program posts every receive, synchronizes, then runs a loop of
// sends; nothing waits for a receive until its blocks are needed or the loop is over.
TEST_CASE("with prepost an op ends with its send and its receive is stored later") {
  tiles_n<2> detached;
  sync_then_send(detached, 11);
  CHECK(detached.run(true).code == tile_error::none);
  CHECK(detached.ex[0].finished());
  CHECK(detached.ex[1].finished());
  REQUIRE(detached.store[0].contains(11));
  CHECK(std::to_integer<int>(detached.store[0].find(11)[3]) == 1);  // tile 1's block
  CHECK(detached.store[1].contains(10));

  tiles_n<2> waiting;  // without prepost the sendrecv holds tile 0 before the sync
  sync_then_send(waiting, 11);
  CHECK(waiting.run(false).code == tile_error::none);
  CHECK_FALSE(waiting.ex[0].finished());
  CHECK_FALSE(waiting.ex[1].finished());
  CHECK(waiting.ex[0].waiting().what == wait_kind::data);
  CHECK(waiting.ex[1].waiting().what == wait_kind::pair);
}

TEST_CASE("with prepost a send of a block a detached receive brings waits for it") {
  // Tile 0 forwards block 11 back to tile 1 in its second op; tile 1 gave it away
  // (release) and takes it back.
  tiles_n<2> m;
  op give = make(op_kind::send, 0, no_tile, 2);
  give.flags = op_flag::release;
  m.prog[0] = {{make(op_kind::sendrecv, 1, 1, 1), {10}, {11}},
               {make(op_kind::send, 1, no_tile, 3), {11}, {}}};
  m.prog[1] = {{make(op_kind::recv, no_tile, 0, 1), {}, {10}},
               {give, {11}, {}},
               {make(op_kind::recv, no_tile, 0, 3), {}, {11}}};
  CHECK(m.run(true).code == tile_error::none);
  CHECK(m.ex[0].finished());
  CHECK(m.ex[1].finished());
  CHECK(m.store[0].contains(11));
  CHECK(m.store[1].contains(11));
  CHECK(m.store[1].contains(10));
}

TEST_CASE("with prepost a send waits only for the detached receive it needs") {
  // Tile 0 forwards block 12 (from tile 2) to tile 1, which sends block 11 to tile 0
  // only after that. Waiting for every detached receive, tile 0 would wait for block
  // 11 before sending 12: a deadlock.
  tiles_n<3> m;
  m.prog[0] = {{make(op_kind::sendrecv, 1, 1, 1), {10}, {11}},
               {make(op_kind::sendrecv, 2, 2, 2), {10}, {12}},
               {make(op_kind::send, 1, no_tile, 3), {12}, {}}};
  m.prog[1] = {{make(op_kind::recv, no_tile, 0, 1), {}, {10}},
               {make(op_kind::recv, no_tile, 0, 3), {}, {12}},
               {make(op_kind::send, 0, no_tile, 4), {11}, {}}};
  m.prog[2] = {{make(op_kind::recv, no_tile, 0, 2), {}, {10}},
               {make(op_kind::send, 0, no_tile, 2), {12}, {}}};
  CHECK(m.run(true).code == tile_error::none);
  for (std::uint32_t t = 0; t < 3; ++t)
    CHECK(m.ex[t].finished());
  CHECK(m.store[0].contains(11));
  CHECK(m.store[0].contains(12));
  CHECK(m.store[1].contains(12));
  CHECK(m.store[2].contains(10));
}

TEST_CASE("a detached receive's fault names its own op") {
  // Tile 0's first op expects block 13; tile 1 sends 11 after tile 0 has gone on to
  // its second op.
  tiles_n<2> m;
  sync_then_send(m, 13);
  std::uint32_t t = 9;
  const tile_fault f = m.run(true, &t);
  CHECK(t == 0);
  CHECK(f.code == tile_error::wrong_block);
  CHECK(f.op_index == 1);
  CHECK(f.kind == op_kind::sendrecv);
  CHECK(f.block == 13);
  CHECK(f.got == 11);
}

TEST_CASE("the barrier pairs tiles by xor on 2^k tiles and by distance otherwise") {
  // Tile 3 (of 4) or tile 2 (of 3) never reaches the barrier. Butterfly on 4 tiles:
  // round 0 pairs 0-1 and 2-3, round 1 pairs 0-2 and 1-3, so tile 0 passes round 0
  // and waits for tile 2 in round 1. Dissemination on 3 tiles: in round 0 tile 0
  // hears from 0 - 1 = 2 (mod 3).
  tiles_n<4> four;
  for (std::uint32_t t = 0; t < 3; ++t)
    four.prog[t] = {{make(op_kind::barrier, no_tile, no_tile), {}, {}}};
  CHECK(four.run(false).code == tile_error::none);
  CHECK(four.ex[0].waiting().what == wait_kind::sync);
  CHECK(four.ex[0].waiting().peer == 2);
  CHECK(four.ex[1].waiting().peer == 3);
  CHECK(four.ex[2].waiting().peer == 3);

  tiles_n<3> three;
  for (std::uint32_t t = 0; t < 2; ++t)
    three.prog[t] = {{make(op_kind::barrier, no_tile, no_tile), {}, {}}};
  CHECK(three.run(false).code == tile_error::none);
  CHECK(three.ex[0].waiting().peer == 2);
  CHECK(three.ex[1].waiting().peer == 2);  // round 0 passed (0 told 1); round 1: 1 - 2
}
