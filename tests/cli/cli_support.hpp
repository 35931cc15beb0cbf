// What every CLI test needs: run a command in-process and look at its streams.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"

namespace tessera::test {

struct cli_result {
  int code;
  std::string out;
  std::string err;
};

inline cli_result run_cli(const std::vector<std::string>& argv) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = tessera::cli::run(argv, out, err);
  return {code, out.str(), err.str()};
}

// The contract's error form: exactly one line.
inline bool one_line(const std::string& s) {
  return !s.empty() && s.back() == '\n' && s.find('\n') == s.size() - 1;
}

}  // namespace tessera::test
