// What `tessera run` was asked to do, parsed once and shared by the models: the
// alpha-beta host model (cmd_run.cpp) and the TLM platform (cmd_run_tlm.cpp, built
// only with SystemC).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_options.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/nic/faults.hpp"
#include "tessera/nic/harness.hpp"
#include "tessera/nic/schedule_run.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::cli {

struct run_request {
  workload_kind workload{workload_kind::collective};
  std::string fabric_spec;
  fw::collective_params c;  // c.f is set even for --pattern
  bool has_collective{false};
  std::string algorithm;
  std::string model{"alphabeta"};
  protocol proto{protocol::raw};
  bool prepost{false};
  bool send_ahead{false};
  std::vector<std::pair<std::string, std::string>> params;  // --param, in order
  std::optional<std::string> switching;
  std::optional<std::string> machine;
  std::optional<std::string> pattern;  // file
  std::optional<std::string> traffic;  // kind; the options below go with it
  std::optional<std::string> rate, packet_flits, cycles, warmup, seed, hotspot;
  std::optional<std::string> payload_bytes;  // tlm: bytes carried per --bytes timed
  std::optional<std::string> routes;         // tlm store-forward: forwarding table file
  std::optional<std::string> schedule_file;  // a schedule JSON instead of a collective
  bool json{false};
  bool all_transfers{false};
  std::uint32_t packets{0};  // --packets of an edst broadcast; 0: from b(L, h, d)'s optimum
  std::vector<nic::fault_spec> faults;  // --fault and --fault-file
};

// An edst broadcast's pipeline (002 §2.1), for the report.
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

// For an edst broadcast, sets r.c.packets (from --packets, or the optimum of b(L, h, d)
// for this beta and tau, in cycles) and returns the plan; nullopt otherwise. `bytes` is
// the L the wire carries (--bytes, even when --payload-bytes samples it).
std::optional<edst_plan> plan_edst(run_request& r, double beta, double tau);
void put_edst(nlohmann::ordered_json& j, const edst_plan& e);
void print_edst(std::ostream& os, const edst_plan& e);

// The collective part of the JSON report (collective, algorithm, root, ...).
void put_collective(nlohmann::ordered_json& j, const run_request& r);
// cycles .. memory_bytes of a collective run; us_per_cycle > 0 adds time_us. With
// faults: faults[] and lost[]; under the reliable protocol: reliable{}.
void put_outcome(nlohmann::ordered_json& j, const nic::run_outcome& o, double us_per_cycle);
void put_faults(nlohmann::ordered_json& j, const std::vector<nic::fault_report>& faults,
                const std::vector<nic::lost_report>& lost, std::uint64_t lost_total);
void print_faults(std::ostream& os, const std::vector<nic::fault_report>& faults,
                  std::uint64_t lost_total);
// per_transfer[]: the first 4096 messages, or all of them with --transfers.
void put_transfers(nlohmann::ordered_json& j, const std::vector<nic::transfer_record>& all,
                   bool every);
// per_step and per_tile.
void put_steps_tiles(nlohmann::ordered_json& j, const nic::run_outcome& o);
// The text report's cycles, verification, messages and steps lines.
void print_outcome(std::ostream& os, const nic::run_outcome& o);

// Reads and prepares --schedule FILE for the fabric; input_error names the problem.
nic::prepared_schedule load_schedule_file(const run_request& r);

// Whether this build has the model (the registry lists every model; tlm needs SystemC).
bool model_available(std::string_view model);

// Runs on the TLM platform; throws input_error when this build has no SystemC.
int run_tlm(const run_request& r, std::ostream& out, std::ostream& err);

// `tessera reproduce thakur --model tlm`: every cell of Tables 2-6 on the platform with
// the delta preset (cmd_run_tlm.cpp); input_error without SystemC.
// Thakur's measured tables by author and title, for the JSON "source".
extern const char* const thakur_source;
// "Tables 2-6" for every table (empty), else "Table 2" or "Tables 2, 5".
std::string thakur_tables_name(const std::set<std::uint32_t>& tables);
// `tables` empty: every table (2..6).
int reproduce_thakur_tlm(const std::set<std::uint32_t>& tables, bool json, std::ostream& out,
                         std::ostream& err);

}  // namespace tessera::cli
