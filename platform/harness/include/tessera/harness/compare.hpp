// Message-by-message comparison of two runs of one workload on two models (tessera
// crosscheck). A message is named by what the tile runtime gives it, not by when it
// happened: its source, destination, kind and step, and how many messages with the
// same four came before it from that source. Two models that run the same op streams
// post the same messages, so the names match even where the times differ.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::harness {

struct message_times {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::string kind;       // "data", "reserve", ... or "transfer" for a pattern's
  std::uint64_t step{0};  // the op's step tag, or a pattern's transfer index
  std::uint64_t bytes{0};
  std::uint64_t start{0};      // the model started it (start-up began, or it left the queue)
  std::uint64_t delivered{0};  // its tail reached the destination
};

struct divergence {
  std::uint32_t src{0};
  std::uint32_t dst{0};
  std::string kind;
  std::uint64_t step{0};
  std::uint64_t occurrence{0};  // 0 for the first message with these four
  // Per model, nullopt where that model has no such message.
  std::optional<message_times> a;
  std::optional<message_times> b;
};

struct comparison {
  std::uint64_t messages{0};   // names both runs have
  std::uint64_t unmatched{0};  // names only one run has
  std::uint64_t differing{0};  // matched messages whose start or delivery differ
  std::uint64_t max_delta{0};  // largest |start| or |delivery| difference of a match
  // The differing or unmatched message that happened first (least start in either run).
  std::optional<divergence> first;
  [[nodiscard]] bool identical() const { return unmatched == 0 && differing == 0; }
};

comparison compare_runs(const std::vector<message_times>& a, const std::vector<message_times>& b);

}  // namespace tessera::harness
