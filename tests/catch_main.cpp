// Catch2's implementation, compiled once for every test binary, and the one call into it
// the runners make: the host tests' main() (catch_runner.cpp) and the SystemC tests'
// sc_main() (tests/tlm/sc_catch_main.cpp). Catch2 v2 declares its Session only beside
// its implementation, so the runners call this instead.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_run.hpp"

int tessera_catch_run(int argc, char* argv[]) {
  return Catch::Session().run(argc, argv);
}
