// harness::compare_runs, the message-by-message comparison behind tessera crosscheck:
// messages are paired by name (source, destination, kind, step, occurrence), never by
// position, and every difference is counted against hand-made runs.
#include <catch2/catch.hpp>

#include "tessera/harness/compare.hpp"

namespace {

using tessera::harness::compare_runs;
using tessera::harness::message_times;

message_times msg(std::uint32_t src, std::uint32_t dst, std::uint64_t step, std::uint64_t start,
                  std::uint64_t delivered) {
  return message_times{src, dst, "data", step, 64, start, delivered};
}

}  // namespace

TEST_CASE("compare: the same messages in another order are identical", "[compare]") {
  const std::vector<message_times> a{msg(0, 1, 1, 0, 10), msg(1, 0, 1, 0, 12),
                                     msg(0, 1, 2, 12, 20)};
  const std::vector<message_times> b{a[2], a[0], a[1]};
  const auto c = compare_runs(a, b);
  CHECK(c.identical());
  CHECK(c.messages == 3);
  CHECK(c.max_delta == 0);
  CHECK_FALSE(c.first.has_value());
}

TEST_CASE("compare: repeated names pair up in order of start", "[compare]") {
  // Two messages 0 -> 1 of one step: the earlier pairs with the earlier.
  const std::vector<message_times> a{msg(0, 1, 1, 5, 15), msg(0, 1, 1, 20, 30)};
  const std::vector<message_times> b{msg(0, 1, 1, 20, 33), msg(0, 1, 1, 5, 15)};
  const auto c = compare_runs(a, b);
  CHECK(c.messages == 2);
  CHECK(c.differing == 1);
  CHECK(c.max_delta == 3);  // 33 - 30
  REQUIRE(c.first.has_value());
  CHECK(c.first->occurrence == 1);
  CHECK(c.first->a->delivered == 30);
  CHECK(c.first->b->delivered == 33);
}

TEST_CASE("compare: the first divergence is the earliest, and unmatched ones count", "[compare]") {
  const std::vector<message_times> a{msg(0, 1, 1, 0, 10), msg(2, 3, 1, 4, 14),
                                     msg(1, 2, 2, 30, 40)};
  const std::vector<message_times> b{msg(0, 1, 1, 0, 10), msg(2, 3, 1, 6, 14), msg(3, 2, 2, 1, 9)};
  const auto c = compare_runs(a, b);
  CHECK(c.messages == 2);   // 0->1 and 2->3
  CHECK(c.differing == 1);  // 2->3 started at 4 and at 6
  CHECK(c.unmatched == 2);  // 1->2 only in a, 3->2 only in b
  CHECK(c.max_delta == 2);
  CHECK_FALSE(c.identical());
  REQUIRE(c.first.has_value());
  // Earliest start among the differences: 3->2 at 1 (b only), before 2->3 at 4.
  CHECK(c.first->src == 3);
  CHECK(c.first->dst == 2);
  CHECK_FALSE(c.first->a.has_value());
  CHECK(c.first->b->start == 1);
}

TEST_CASE("compare: kinds and steps are part of the name", "[compare]") {
  message_times ack = msg(0, 1, 1, 0, 10);
  ack.kind = "ack";
  const std::vector<message_times> a{msg(0, 1, 1, 0, 10)};
  const std::vector<message_times> b{ack};
  const auto c = compare_runs(a, b);
  CHECK(c.messages == 0);
  CHECK(c.unmatched == 2);
}
