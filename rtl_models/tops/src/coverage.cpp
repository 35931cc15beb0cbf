#include "tessera/rtl_tops/coverage.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include <unistd.h>

#include <verilated.h>
#if TESSERA_RTL_COVERAGE
#include <verilated_cov.h>
#endif

namespace tessera::rtl_tops {

bool coverage_built() {
  return TESSERA_RTL_COVERAGE != 0;
}

coverage_dump::~coverage_dump() {
#if TESSERA_RTL_COVERAGE
  // One file per context: the process, the time and a count keep runs of one test
  // command (and of ctest -j) from writing over each other.
  static std::atomic<unsigned> serial{0};
  const char* dir = std::getenv("TESSERA_RTL_COVERAGE_DIR");
  const bool wanted = dir != nullptr && *dir != '\0';
  std::error_code failed;  // a folder that cannot be made: nothing written
  if (wanted) std::filesystem::create_directories(dir, failed);
  if (wanted && !failed) {
    const auto ns = std::chrono::steady_clock::now().time_since_epoch().count();
    const std::string name = std::to_string(::getpid()) + "-" + std::to_string(ns) + "-" +
                             std::to_string(serial++) + ".dat";
    // Every point, the instances of a module counted together (Verilator's default).
    context_.coveragep()->write((std::string(dir) + "/cov-" + name).c_str());
    // The user cover points again, per instance: one inside a generate loop (per port,
    // VC or requester) is one point per index there, which the default would merge.
    // scripts/coverage.py reads them from these files.
    context_.coveragep()->clearNonMatch("v_user/");
    context_.coveragep()->forcePerInstance(true);
    context_.coveragep()->write((std::string(dir) + "/user-" + name).c_str());
  }
  // The points count in the model's own memory, which goes next.
  context_.coveragep()->clear();
#else
  (void)context_;
#endif
}

}  // namespace tessera::rtl_tops
