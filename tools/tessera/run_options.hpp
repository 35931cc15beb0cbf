// Which `tessera run` options go with which workload and which model, in one table.
// An option given with a workload or model it does not apply to is refused by one
// rule (exit 2 naming both), so nothing is ever silently ignored.
#pragma once

#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "args.hpp"
#include "tessera/run/config.hpp"

namespace tessera::cli {

// What a run runs: exactly one of these options names it.
using run::workload_kind;

namespace on {  // bits of run_option::workloads
inline constexpr std::uint8_t collective = 1;
inline constexpr std::uint8_t schedule = 2;
inline constexpr std::uint8_t pattern = 4;
inline constexpr std::uint8_t traffic = 8;
inline constexpr std::uint8_t any = 15;
}  // namespace on

struct run_option {
  std::string_view name;
  std::string_view value_name;  // "F" in "--fabric F"; empty for a flag
  bool repeated;                // may be given several times
  std::uint8_t workloads;
  bool platform_only;      // needs a model of the timed platform (tlm, rtl)
  bool selector;           // names the workload
  std::string_view group;  // the heading `tessera run --help` lists it under
  std::string_view help;
};

std::span<const run_option> run_option_table();

// Declares the table's options on a command line (run, sweep, crosscheck), in its
// groups (or, not grouped, in the current one); `except` are left out (crosscheck's own
// --tiles, its refused --model).
void declare_run_options(command_line& c, const std::set<std::string>& except = {},
                         bool grouped = true);

std::string_view workload_option(workload_kind k);

// Without --model: the model the given options need. The first option only the timed
// platform takes (--machine, --pattern, --traffic, a --switching the default model does
// not drive, ...) makes it "tlm"; otherwise it is the config's default. The option is
// returned in `why` (empty when none).
std::string implied_model(const args& a, std::string& why);

// The workload the options name, after checking every given option against the
// table; input_error names the offending option and what it conflicts with.
workload_kind check_run_options(const args& a, std::string_view model);

}  // namespace tessera::cli
