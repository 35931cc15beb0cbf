// run_isolated_process: the text, exit status and signal of a forked child,
// and the byte bound on what it writes. (The children use no Catch2.)
#include <csignal>
#include <stdexcept>
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "tessera/schedule/isolated.hpp"

using tessera::isolated_result;
using tessera::run_isolated_process;

TEST_CASE("run_isolated_process returns a child's text and exit status", "[isolated]") {
  const isolated_result a = run_isolated_process([] { return std::string("hello\n"); });
  CHECK(a.ok());
  CHECK(a.text == "hello\n");
  CHECK(a.exit_status == 0);

  const isolated_result b = run_isolated_process([] {
    return std::pair<std::string, int>{"{\"verified\": false}", 1};
  });
  CHECK(b.ok());
  CHECK(b.text == "{\"verified\": false}");
  CHECK(b.exit_status == 1);
}

TEST_CASE("run_isolated_process turns an exception into an error text", "[isolated]") {
  const isolated_result r =
      run_isolated_process([]() -> std::string { throw std::runtime_error("no fabric"); });
  CHECK(r.exited);
  CHECK(r.exit_status == 70);
  CHECK(r.text == "error: no fabric");
}

TEST_CASE("run_isolated_process reports the signal that ended a child", "[isolated]") {
  const isolated_result r = run_isolated_process([]() -> std::string {
    std::raise(SIGTERM);
    return "never";
  });
  CHECK_FALSE(r.ok());
  CHECK_FALSE(r.exited);
  CHECK(r.signal == SIGTERM);
  CHECK(r.text.empty());
}

TEST_CASE("run_isolated_process stops a child that writes past the bound", "[isolated]") {
  // 1 MiB of text against a 4 KiB bound: the parent keeps 4 KiB and kills the child.
  const isolated_result r =
      run_isolated_process([] { return std::string(std::size_t{1} << 20, 'x'); }, 4096);
  CHECK_FALSE(r.ok());
  CHECK(r.too_long);
  CHECK(r.text.size() == 4096);
}
