#pragma once

// What every Verilator testbench's main shares: its exit codes, whole-string number
// parsing for its options, and the refusal of --trace in a build without FST tracing.
#include <charconv>
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>

namespace tessera::tb {

inline constexpr int exit_pass = 0;   // every check held
inline constexpr int exit_fail = 1;   // a check failed, a deadlock or a timeout
inline constexpr int exit_usage = 2;  // bad arguments

// When --help (or -h) is among the arguments, prints the testbench's usage on stdout and
// returns true: main then exits 0 without building its model.
inline bool answer_help(int argc, char* argv[], const char* usage) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return true;
    }
  }
  return false;
}

// True when all of s is a decimal number; v then holds it.
inline bool parse_number(std::string_view s, std::uint64_t& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc{} && end == s.data() + s.size();
}

// Walks "--name value" pairs: on_option(name, value) returns an error or "". Returns the
// first error, or "missing value after --name" for a name at the end.
template <class OnOption>
std::string parse_options(int argc, char* argv[], OnOption on_option) {
  for (int i = 1; i < argc; i += 2) {
    const std::string_view name = argv[i];
    if (i + 1 >= argc) return "missing value after " + std::string(name);
    if (std::string e = on_option(name, std::string_view(argv[i + 1])); !e.empty()) return e;
  }
  return {};
}

// True (after a one-line error) when --trace was asked of a build without tracing.
inline bool trace_unavailable([[maybe_unused]] std::string_view tb,
                              [[maybe_unused]] const std::string& trace_path) {
#if TESSERA_RTL_TRACE_FST
  return false;
#else
  if (trace_path.empty()) return false;
  std::cerr << tb << ": --trace needs a build with TESSERA_RTL_TRACE=ON\n";
  return true;
#endif
}

}  // namespace tessera::tb
