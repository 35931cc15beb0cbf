// Pieces of a run's report that several results share: the collective's fields, the
// outcome of the tile runtime, faults, transfers, steps and tiles, and an edst
// broadcast's pipeline plan.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/harness/faults.hpp"
#include "tessera/harness/harness.hpp"
#include "tessera/run/choose.hpp"
#include "tessera/run/config.hpp"
#include "tessera/run/run.hpp"
#include "tessera/schedule/verdict.hpp"

namespace tessera::run::detail {

// An edst broadcast's pipeline (Bermond, Michallon, Trystram, §2.1), for the report.
struct edst_plan {
  fw::tree_family family{};
  std::uint32_t trees{0};  // d
  std::uint32_t depth{0};  // h
  std::uint32_t packets{0};
  bool automatic{false};
  std::uint64_t slots{0};  // pipeline slots: h + q - 1 (Saad-Schultz: with the fill-in)
  double pipeline{0};      // slots * (beta + tau L / (d q))
  double b{0};             // b(L, h, d)
  // Saad-Schultz only (§2.3): L0 = beta D^2 / (2 tau (D - 1)), and the paper's time:
  // b(L, D, 2) for L <= L0, b + tau L/2 + sqrt(beta tau L (D-1)/2)
  // - D/2 (beta + sqrt(beta tau L / (2 (D-1)))) above.
  double l0{0};
  double paper{0};
};

// For an edst broadcast, sets r.c.packets (from r.packets, or the optimum of b(L, h, d)
// for this beta and tau, in cycles) and returns the plan; nullopt otherwise. `bytes` is
// the L the wire carries (--bytes, even when --payload-bytes samples it).
std::optional<edst_plan> plan_edst(run_config& r, double beta, double tau);
void put_edst(nlohmann::ordered_json& j, const edst_plan& e);
void print_edst(std::ostream& os, const edst_plan& e);

// The collective part of the JSON report (collective, algorithm, root, ...).
// "allgather (ring)", or an image's own contract by its name.
std::string collective_title(const run_config& r);
void put_collective(nlohmann::ordered_json& j, const run_config& r);
// --algorithm auto: the choice and its runner-up, one line (nothing without a choice).
void print_choice(std::ostream& os, const run_config& r);
// cycles .. memory_bytes of a collective run; us_per_cycle > 0 adds time_us. With
// faults: faults[] and lost[]; under the reliable protocol: reliable{}.
void put_outcome(nlohmann::ordered_json& j, const harness::run_outcome& o, double us_per_cycle);
void put_faults(nlohmann::ordered_json& j, const std::vector<harness::fault_report>& faults,
                const std::vector<harness::lost_report>& lost, std::uint64_t lost_total);
void print_faults(std::ostream& os, const std::vector<harness::fault_report>& faults,
                  std::uint64_t lost_total);
// per_transfer[]: the first 4096 messages, or all of them with `every`.
void put_transfers(nlohmann::ordered_json& j, const std::vector<harness::transfer_record>& all,
                   bool every);
// per_step and per_tile.
void put_steps_tiles(nlohmann::ordered_json& j, const harness::run_outcome& o);
// The verification line's value: "yes, N bytes checked", "NO", or that there was nothing
// to check.
std::string verified_text(bool verified, bool nothing_checked, std::uint64_t bytes_checked);
// The text report's cycles, verification, messages and steps lines.
void print_outcome(std::ostream& os, const harness::run_outcome& o);

// A run_result that owns the config its Result (a class with json(), write_text(),
// verified(), failure() and note(), built from the config) refers to.
template <class Result>
class owning final : public run_result {
 public:
  explicit owning(run_config r) : r_(std::move(r)), res_(r_) {}
  [[nodiscard]] nlohmann::ordered_json json() const override { return res_.json(); }
  void write_text(std::ostream& os) const override { res_.write_text(os); }
  [[nodiscard]] bool verified() const override { return res_.verified(); }
  [[nodiscard]] bool nothing_checked() const override {
    if constexpr (requires(const Result& x) { x.nothing_checked(); }) {
      return res_.nothing_checked();
    } else {
      return false;
    }
  }
  [[nodiscard]] std::string failure() const override { return res_.failure(); }
  [[nodiscard]] std::string note() const override {
    if (nothing_checked()) return std::string(nothing_checked_text);
    return res_.note();
  }
  [[nodiscard]] trace_data trace() const override {
    if constexpr (requires(const Result& x) { x.trace(); }) {
      return res_.trace();
    } else {
      return {};
    }
  }

 private:
  run_config r_;
  Result res_;
};

// The platform models' part of run(): tlm and rtl (run_platform.cpp, or its refusal in a
// build without SystemC).
std::unique_ptr<run_result> run_platform(run_config r);
bool platform_available();
// The platform's engine and parameters for the config (choose.hpp's timing_of).
timing platform_timing(const run_config& r);

}  // namespace tessera::run::detail
