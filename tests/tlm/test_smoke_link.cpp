#include "smoke_link.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using tessera::tlm_models::smoke_link;
using tessera::tlm_models::smoke_transfer;
using tessera::tlm_models::smoke_write;

std::vector<unsigned char> bytes_of(std::string_view text) {
  return {text.begin(), text.end()};
}

}  // namespace

TEST_CASE("smoke link delivers a write intact after issue delay plus target latency",
          "[tlm][smoke]") {
  const sc_time issue_delay(3, SC_NS);
  const sc_time target_latency(7, SC_NS);
  const smoke_write sent{0x40, bytes_of("tessera")};

  smoke_link link("link", issue_delay, target_latency,
                  {{tlm::TLM_WRITE_COMMAND, sent.address, sent.data}});
  sc_core::sc_start();

  REQUIRE(link.target.writes().size() == 1);
  CHECK(link.target.writes().front() == sent);
  REQUIRE(link.initiator.completions().size() == 1);
  CHECK(link.initiator.completions().front().status == tlm::TLM_OK_RESPONSE);
  CHECK(sc_core::sc_time_stamp() == issue_delay + target_latency);
}

TEST_CASE("smoke link completes transfer k at k times the summed delays", "[tlm][smoke]") {
  const sc_time issue_delay(2, SC_NS);
  const sc_time target_latency(5, SC_NS);
  const std::vector<smoke_write> sent{
      {0x0, bytes_of("a")}, {0x100, bytes_of("all-to-all")}, {0x8, bytes_of("")}};

  std::vector<smoke_transfer> transfers;
  for (const smoke_write& write : sent) {
    transfers.push_back({tlm::TLM_WRITE_COMMAND, write.address, write.data});
  }
  smoke_link link("link", issue_delay, target_latency, transfers);
  sc_core::sc_start();

  CHECK(link.target.writes() == sent);
  const auto& completions = link.initiator.completions();
  REQUIRE(completions.size() == sent.size());
  for (std::size_t k = 0; k < completions.size(); ++k) {
    CAPTURE(k);
    CHECK(completions[k].status == tlm::TLM_OK_RESPONSE);
    CHECK(completions[k].time == static_cast<double>(k + 1) * (issue_delay + target_latency));
  }
  CHECK(sc_core::sc_time_stamp() ==
        static_cast<double>(sent.size()) * (issue_delay + target_latency));
}

TEST_CASE("smoke target rejects a read but still charges its latency", "[tlm][smoke]") {
  const sc_time issue_delay(1, SC_NS);
  const sc_time target_latency(4, SC_NS);

  smoke_link link("link", issue_delay, target_latency,
                  {{tlm::TLM_READ_COMMAND, 0x0, bytes_of("xxxx")}});
  sc_core::sc_start();

  CHECK(link.target.writes().empty());
  REQUIRE(link.initiator.completions().size() == 1);
  CHECK(link.initiator.completions().front().status == tlm::TLM_COMMAND_ERROR_RESPONSE);
  CHECK(sc_core::sc_time_stamp() == issue_delay + target_latency);
}
