// `tessera run`'s options, read into the library's run_config (tessera/run/config.hpp):
// what the CLI parses before it calls run::run(), which runs the config on its model.
#pragma once

#include <cstdint>
#include <ostream>
#include <set>
#include <string>

#include "args.hpp"
#include "tessera/run/config.hpp"

namespace tessera::cli {

struct run_request {
  run::run_config config;
  bool json{false};
};

// Every option checked on its own and against the others, and the input files read;
// input_error names the offending value. What depends on the model (the machine, the
// switching, --param values) is checked by run::run().
run_request parse_request(const args& a);

// `tessera reproduce thakur --model tlm`: every cell of Tables 2-6 on the platform with
// the delta preset (cmd_reproduce_tlm.cpp); input_error without SystemC.
// Thakur's measured tables by author and title, for the JSON "source".
extern const char* const thakur_source;
// "Tables 2-6" for every table (empty), else "Table 2" or "Tables 2, 5".
std::string thakur_tables_name(const std::set<std::uint32_t>& tables);
// `tables` empty: every table (2..6).
int reproduce_thakur_tlm(const std::set<std::uint32_t>& tables, bool json, std::ostream& out,
                         std::ostream& err);

}  // namespace tessera::cli
