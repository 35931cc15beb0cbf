// The host test binaries' main().
#include "catch_run.hpp"

int main(int argc, char* argv[]) {
  return tessera_catch_run(argc, argv);
}
