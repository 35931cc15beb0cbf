// What every CLI test needs: run a command in-process and look at its streams.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
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

// The built binary in its own process (stderr dropped): what a user sees on stdout
// and the exit status. SystemC elaborates once per process, so every --model tlm
// run in a test goes through here.
inline cli_result run_binary(const std::string& args) {
  const std::string cmd = std::string(TESSERA_CLI) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return {-1, "", "popen failed"};
  std::string out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, ""};
}

// The same with stderr captured instead of stdout.
inline cli_result run_binary_err(const std::string& args) {
  const std::string cmd = std::string(TESSERA_CLI) + " " + args + " 2>&1 >/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return {-1, "", "popen failed"};
  std::string err;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    err.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, "", err};
}

// The contract's error form: exactly one line.
inline bool one_line(const std::string& s) {
  return !s.empty() && s.back() == '\n' && s.find('\n') == s.size() - 1;
}

}  // namespace tessera::test
