#pragma once

// What every Verilator testbench's main shares: its exit codes, whole-string number
// parsing for its options, the options every testbench takes (--timeout, --seed,
// --trace, --help), the refusal of --trace in a build without FST tracing, and the seed
// and replay command a run ends with.
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "tessera/common/shell.hpp"

namespace tessera::tb {

inline constexpr int exit_pass = 0;   // every check held
inline constexpr int exit_fail = 1;   // a check failed, a deadlock or a timeout
inline constexpr int exit_usage = 2;  // bad arguments

// When --help (or -h) is among the arguments, prints the testbench's usage on stdout and
// returns true: main then exits 0 without building its model.
inline bool answer_help(int argc, char* argv[], std::string_view usage) {
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

// Walks "--name value" pairs, and the names in `flags` alone: on_option(name, value)
// returns an error or "" (a flag's value is empty). Returns the first error, or "missing
// value after --name" for a name at the end.
template <class OnOption>
std::string parse_options(int argc, char* argv[], OnOption on_option,
                          std::initializer_list<std::string_view> flags = {}) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view name = argv[i];
    std::string_view value;
    bool flag = false;
    for (const std::string_view f : flags)
      flag = flag || f == name;
    if (!flag) {
      if (i + 1 >= argc) return "missing value after " + std::string(name);
      value = argv[++i];
    }
    if (std::string e = on_option(name, value); !e.empty()) return e;
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

namespace detail {
// The testbench's name and seed, once its command line was read and it is to run.
inline std::optional<std::pair<std::string, std::uint64_t>> ran;
}  // namespace detail

// The options every testbench takes. A testbench's own options struct derives from it.
struct common_options {
  std::optional<std::uint64_t> timeout;  // cycles; empty: the testbench's default
  std::uint64_t seed = 1;
  std::string trace_path;
};

// What the shared command line needs to know of a testbench.
struct testbench_info {
  std::string_view name;     // "tb_mesh": the prefix of its errors
  std::string_view usage;    // "usage: tb_mesh ...", its description and its own options
  std::string_view timeout;  // what --timeout defaults to, for the usage
  std::initializer_list<std::string_view> flags = {};  // its options that take no value
};

inline std::string usage_text(const testbench_info& tb) {
  return std::string(tb.usage) +
         "\ncommon options:\n"
         "  --timeout C       a timeout after C cycles (default: " +
         std::string(tb.timeout) +
         ")\n"
         "  --seed S          seed of every random choice (default 1)\n"
         "  --trace FILE.fst  write an FST waveform (a build with TESSERA_RTL_TRACE=ON)\n"
         "  --help, -h        this text\n"
         "exit status: 0 pass, 1 a failed check, a deadlock or a timeout, 2 bad arguments\n";
}

// Reads the command line: --help prints the usage; --timeout, --seed and --trace go into
// `common`; every other option goes to own(name, value), which returns an error or ""
// (and "unknown option --x" for a name it does not know). Returns the exit code when main
// should stop (after the usage, or after "<name>: <error>" on stderr), nothing when it
// should run.
template <class OwnOption>
std::optional<int> parse_command_line(int argc, char* argv[], const testbench_info& tb,
                                      common_options& common, OwnOption own) {
  if (answer_help(argc, argv, usage_text(tb))) return exit_pass;
  const auto on_option = [&](std::string_view a, std::string_view v) -> std::string {
    if (a == "--trace") {
      common.trace_path = v;
      return {};
    }
    if (a != "--timeout" && a != "--seed") return own(a, v);
    std::uint64_t n = 0;
    if (!parse_number(v, n))
      return "bad value for " + std::string(a) + ": '" + std::string(v) + "'";
    if (a == "--timeout")
      common.timeout = n;
    else
      common.seed = n;
    return {};
  };
  if (const std::string e = parse_options(argc, argv, on_option, tb.flags); !e.empty()) {
    std::cerr << tb.name << ": " << e << '\n';
    return exit_usage;
  }
  if (trace_unavailable(tb.name, common.trace_path)) return exit_usage;
  detail::ran = {std::string(tb.name), common.seed};
  return std::nullopt;
}

// A testbench's main returns through this: once its command line was read and it ran
// (exit 0 or 1), it prints "<name>: seed S" on stdout, the seed of every random choice
// it made, and on a failure "<name>: replay: <the same command> --seed S" on stderr, so
// a failing random run can be run again exactly. Bad arguments (exit 2) and --help print
// nothing more.
//   static int testbench(int argc, char* argv[]) { ... parse_command_line ... }
//   int main(int argc, char* argv[]) { return finish(argc, argv, testbench(argc, argv)); }
inline int finish(int argc, char* argv[], int rc) {
  if (!detail::ran || (rc != exit_pass && rc != exit_fail)) return rc;
  const auto& [name, seed] = *detail::ran;
  std::cout << name << ": seed " << seed << std::endl;
  if (rc == exit_fail) {
    std::string cmd = sh_word(argv[0]);
    for (int i = 1; i < argc; ++i) {
      const std::string_view a = argv[i];
      if (a == "--seed" && i + 1 < argc) {
        ++i;  // the seed goes last
        continue;
      }
      cmd += ' ' + sh_word(a);
    }
    std::cerr << name << ": replay: " << cmd << " --seed " << seed << std::endl;
  }
  return rc;
}

}  // namespace tessera::tb
