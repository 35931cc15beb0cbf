// The reliable protocol's receive side and checksum (runtime/reliable.hpp,
// message.hpp), the fault reader and the fault injector's rules (harness/faults.hpp,
// docs/faults.md), and a collective surviving faults on the in-memory NIC under the
// reliable protocol (the bare-metal image runs the same code).
#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/local_run.hpp"
#include "tessera/harness/faults.hpp"
#include "tessera/runtime/reliable.hpp"

using namespace tessera;

namespace {

msg_header data_from(std::uint32_t src, std::uint32_t seq, std::span<const std::byte> payload) {
  msg_header h{};
  h.src = src;
  h.dst = 1;
  h.kind = msg_kind::data;
  h.proto = protocol::reliable;
  h.blocks = 1;
  h.bytes = payload.size();
  h.seq = seq;
  h.check = message_check(h, payload);
  return h;
}

std::string fault_error(const std::string& text, const fabric& f) {
  try {
    harness::parse_fault(text, f);
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("message_check changes with any one byte and with the sequence number", "[faults]") {
  std::array<std::byte, 1000> p{};
  for (std::size_t i = 0; i < p.size(); ++i)
    p[i] = std::byte(i * 7);
  msg_header h{};
  h.blocks = 3;
  h.bytes = p.size();
  const std::uint32_t base = message_check(h, p);
  for (std::size_t i = 0; i < p.size(); i += 37) {
    for (const std::byte flip : {std::byte{0x01}, std::byte{0x80}, std::byte{0xff}}) {
      auto q = p;
      q[i] ^= flip;
      CHECK(message_check(h, q) != base);
    }
  }
  h.seq = 1;
  CHECK(message_check(h, p) != base);
}

TEST_CASE("the reliable receiver keeps each message once, in order, intact", "[faults]") {
  std::array<std::uint32_t, 4> out{};
  std::array<std::uint32_t, 4> in{};
  std::array<owed_ack, 3> ring{};
  reliable_state r{out, in, ring};
  const std::array<std::byte, 8> payload{std::byte{1}, std::byte{2}};
  owed_ack a{};

  CHECK(r.arrive(data_from(2, 0, payload), payload));  // the first from tile 2
  REQUIRE(r.pop_ack(a));
  CHECK((a.dst == 2 && a.seq == 0));
  CHECK_FALSE(r.arrive(data_from(2, 0, payload), payload));  // again: a duplicate
  CHECK(r.stats.rejected_duplicate == 1);
  REQUIRE(r.pop_ack(a));  // acknowledged again: its sender may still wait
  CHECK(a.seq == 0);
  CHECK_FALSE(r.arrive(data_from(2, 2, payload), payload));  // 1 is missing
  CHECK(r.stats.rejected_gap == 1);
  CHECK_FALSE(r.pop_ack(a));
  auto damaged = payload;
  damaged[3] = std::byte{9};
  CHECK_FALSE(r.arrive(data_from(2, 1, payload), damaged));
  CHECK(r.stats.rejected_damaged == 1);
  CHECK(r.arrive(data_from(2, 1, payload), payload));
  CHECK(r.expected_from(2) == 2);
  CHECK(r.expected_from(3) == 0);  // every source has its own numbers
  // Other protocols pass untouched.
  msg_header raw = data_from(3, 7, payload);
  raw.proto = protocol::raw;
  CHECK(r.arrive(raw, payload));
}

TEST_CASE("owed acks beyond the ring are deferred, never overwritten", "[faults]") {
  std::array<std::uint32_t, 4> out{};
  std::array<std::uint32_t, 4> in{};
  std::array<owed_ack, 2> ring{};
  reliable_state r{out, in, ring};
  const std::array<std::byte, 1> payload{};
  for (std::uint32_t s = 0; s < 3; ++s)
    CHECK(r.arrive(data_from(s, 0, payload), payload));
  CHECK(r.stats.acks_deferred == 1);
  owed_ack a{};
  REQUIRE(r.pop_ack(a));
  CHECK(a.dst == 0);
  REQUIRE(r.pop_ack(a));
  CHECK(a.dst == 1);
  CHECK_FALSE(r.pop_ack(a));
}

TEST_CASE("fault specs are read, normalised and checked against the fabric", "[faults]") {
  const fabric cube = fabric::hypercube(3);
  const auto s = harness::parse_fault("drop=2->6#3", cube);
  CHECK(s.kind == harness::fault_kind::drop);
  CHECK((s.a == 2 && s.b == 6 && s.n == 3));
  CHECK(harness::parse_fault("link=0-4@007", cube).text == "link=0-4@7");
  CHECK(harness::parse_fault("stall=5@10+20", cube).n == 20);
  CHECK(fault_error("link=0-3@1", cube) ==
        "--fault 'link=0-3@1': tiles 0 and 3 are not neighbours, so no link joins them");
  CHECK(fault_error("drop=0->8#1", cube) ==
        "--fault 'drop=0->8#1': tile 8 is not on the fabric (tiles 0..7)");
  CHECK(fault_error("drop=0->1", cube) ==
        "--fault 'drop=0->1' is not drop=S->D#N (whole numbers, at most 2^60)");
  CHECK(fault_error("heat=1", cube).find("is not a fault") != std::string::npos);
  const auto list = harness::parse_fault_list(
      "# faults\nlink=0-1@5   # the first link\n\n  drop=1->3#2\n", cube, "f.txt");
  REQUIRE(list.size() == 2);
  CHECK(list[1].text == "drop=1->3#2");
  try {
    harness::parse_fault_list("link=0-1@5\nstall=9@0+1\n", cube, "f.txt");
    FAIL("a tile off the fabric was accepted");
  } catch (const input_error& e) {
    CHECK(std::string(e.what()).rfind("f.txt line 2: --fault 'stall=9@0+1'", 0) == 0);
  }
}

TEST_CASE("the injector drops, corrupts and cuts by its rules", "[faults]") {
  const fabric mesh = fabric::mesh(1, 4);  // 0 - 1 - 2 - 3, XY routes along the row
  harness::fault_injector inj{
      mesh,
      {harness::parse_fault("drop=0->3#2", mesh), harness::parse_fault("corrupt=3->0#1", mesh),
       harness::parse_fault("link=1-2@100", mesh)}};
  msg_header h{};
  h.kind = msg_kind::data;
  h.src = 0;
  h.dst = 3;
  h.blocks = 1;
  std::vector<std::byte> payload(8 + 10, std::byte{0});
  // 0 -> 3 crosses 1 -> 2. Message 1 passes; message 2 is doomed when it enters.
  CHECK(inj.admit(h, 1, 0));
  CHECK(inj.admit(h, 2, 0));
  CHECK(inj.deliver(h, 1, payload, 0, 50));
  CHECK_FALSE(inj.deliver(h, 2, payload, 0, 50));
  // Entering before the link fails and arriving after: cut in flight.
  CHECK(inj.admit(h, 3, 90));
  CHECK_FALSE(inj.deliver(h, 3, payload, 90, 120));
  // Entering after: undeliverable, it never enters.
  CHECK_FALSE(inj.admit(h, 4, 100));
  // 3 -> 0 runs the other way (3 -> 2 -> 1 -> 0), clear of the failed link 1 -> 2; the
  // corrupt fault flips the middle data byte: directory 8 bytes, then 10, so byte 13.
  msg_header back = h;
  back.src = 3;
  back.dst = 0;
  write_dir(payload.data(), 0, dir_entry{42, 10});
  CHECK(inj.admit(back, 5, 200));
  CHECK(inj.deliver(back, 5, payload, 200, 250));
  CHECK(payload[13] == std::byte{0xff});
  REQUIRE(inj.losses().size() == 4);
  CHECK(inj.losses()[0].cause == harness::loss_cause::dropped);
  CHECK(inj.losses()[1].cause == harness::loss_cause::cut);
  CHECK(inj.losses()[2].cause == harness::loss_cause::undeliverable);
  CHECK(inj.losses()[3].block == 42);
  CHECK(inj.losses()[3].byte == 5);
  CHECK(inj.loss_text(inj.losses()[2]) ==
        "tile 3 never got block 0 from tile 0 (step 0): undeliverable: link 1->2 down since "
        "cycle 100 (fault link=1-2@100)");
  CHECK(inj.effects()[2].messages == 2);
}

TEST_CASE("a stall holds its tile from the first time it wants to run to the stall's end",
          "[faults]") {
  const fabric ring = fabric::ring(4);
  harness::fault_injector inj{
      ring,
      {harness::parse_fault("stall=2@10+30", ring), harness::parse_fault("stall=2@35+10", ring)}};
  CHECK(inj.resume_at(2, 5) == 5);
  CHECK(inj.resume_at(1, 20) == 20);
  // 20 falls in the first stall, whose end (40) falls in the second (35..45).
  CHECK(inj.resume_at(2, 20) == 45);
  CHECK(inj.effects()[0].held_cycles == 20);
  CHECK(inj.effects()[1].held_cycles == 5);
  CHECK(inj.resume_at(2, 45) == 45);
}

TEST_CASE("a collective survives a lost and a damaged message under the reliable protocol",
          "[faults][reliable]") {
  using machine = fw::local_machine<8, 16, 32, 8>;
  static machine m;  // large: keep it off the stack
  fw::collective_params c;
  c.coll = fw::collective::allgather;
  c.alg = fw::tb_algorithm::ring;
  c.f = fabric::ring(8);
  c.bytes = 16;
  executor_config cfg;
  cfg.proto = protocol::reliable;
  using kind = machine::fabric_type::fault_kind;
  for (const kind k : {kind::drop, kind::corrupt}) {
    const fw::local_result r = m.run_with_fault(c, cfg, k, 3, 4, 2);
    CHECK(m.fault_acted());
    CHECK(r.status == fw::local_status::verified);
    CHECK(r.reliable.retransmissions >= 1);
    const fw::local_result raw = m.run_with_fault(c, executor_config{}, k, 3, 4, 2);
    CHECK(raw.status != fw::local_status::verified);
  }
}
