// A communication pattern on the TLM platform: a list of transfers, each a message
// of `bytes` from src to dst posted at `start` (Bokhari's contention experiment,
// §2.3, is one). Every tile posts all its receives at time 0, then posts each send
// at its start time without waiting for earlier ones, as Bokhari's experiment did.
// Every byte delivered is checked against a pattern keyed by (transfer, byte).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/harness/harness.hpp"
#include "tessera/harness/pattern.hpp"
#include "tessera/net/energy.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/tlm/platform.hpp"

namespace tessera::tlm_models {

using harness::pattern_transfer;

struct transfer_timing {
  std::uint64_t posted{0};
  std::uint64_t started{0};
  std::uint64_t delivered{0};
};

struct pattern_outcome {
  bool completed{false};
  bool verified{false};         // and at least one byte was checked
  bool nothing_checked{false};  // completed, nothing wrong, every transfer 0 bytes
  std::uint64_t bytes_checked{0};
  std::uint64_t cycles{0};                 // last delivery
  std::uint64_t control_messages{0};       // UNFORCED reserves and acks
  std::string failure;                     // names the transfer, tile and byte
  std::vector<transfer_timing> transfers;  // in the pattern's order
  std::vector<net::link_stat> links;
  net::contention_stat contention{};
  net::energy_counts energy;  // the events that cost energy (net/energy.hpp)
  std::vector<harness::fault_report> faults;
  std::vector<harness::lost_report> lost;
  std::uint64_t lost_total{0};
};

// The byte `offset` of transfer `index` carries.
constexpr std::byte pattern_byte(std::uint64_t index, std::uint64_t offset) {
  return static_cast<std::byte>((index * 131 + offset * 7 + 3) & 0xff);
}

// Throws input_error for transfers that name tiles outside the fabric or need more
// memory than the platform allows.
pattern_outcome run_pattern(const fabric& f, const std::vector<pattern_transfer>& transfers,
                            const platform_options& o);

}  // namespace tessera::tlm_models
