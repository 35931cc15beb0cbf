// The Catch2 runner for every SystemC test. libsystemc provides main(), which sets
// SystemC up and calls sc_main, so the Catch session runs inside sc_main.
//
// SystemC elaborates once per process: run one test case per process, as ctest does
// through catch_discover_tests. Running the binary without a filter runs every case in
// one process and all but the first fail to elaborate.

#include <systemc>  // declares sc_main extern "C", which libsystemc's main() calls

#include "../catch_run.hpp"  // Catch2's implementation: tessera_catch (tests/catch_main.cpp)

int sc_main(int argc, char* argv[]) {
  return tessera_catch_run(argc, argv);
}
