// What `tessera run` was asked to do, parsed once and shared by the models: the
// alpha-beta host model (cmd_run.cpp) and the TLM platform (cmd_run_tlm.cpp, built
// only with SystemC).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/firmware/collective.hpp"
#include "tessera/nic/harness.hpp"
#include "tessera/nic/schedule_run.hpp"
#include "tessera/runtime/message.hpp"

namespace tessera::cli {

struct run_request {
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
};

// The collective part of the JSON report (collective, algorithm, root, ...).
void put_collective(nlohmann::ordered_json& j, const run_request& r);
// cycles .. memory_bytes of a collective run; us_per_cycle > 0 adds time_us.
void put_outcome(nlohmann::ordered_json& j, const nic::run_outcome& o, double us_per_cycle);
// per_step and per_tile.
void put_steps_tiles(nlohmann::ordered_json& j, const nic::run_outcome& o);
// The text report's cycles, verification, messages and steps lines.
void print_outcome(std::ostream& os, const nic::run_outcome& o);

// Reads and prepares --schedule FILE for the fabric; input_error names the problem.
nic::prepared_schedule load_schedule_file(const run_request& r);

// Runs on the TLM platform; throws input_error when this build has no SystemC.
int run_tlm(const run_request& r, std::ostream& out, std::ostream& err);

// `tessera reproduce thakur --model tlm`: every cell of Tables 2-6 on the platform with
// the delta preset (cmd_run_tlm.cpp); input_error without SystemC.
int reproduce_thakur_tlm(bool json, std::ostream& out, std::ostream& err);

}  // namespace tessera::cli
