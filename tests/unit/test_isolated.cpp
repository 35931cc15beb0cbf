// run_isolated_process: the text, exit status and signal of a forked child,
// and the byte bound on what it writes. (The children use no Catch2.)
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <future>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

TEST_CASE("run_isolated_process with close_inherited leaves a child no other descriptor",
          "[isolated]") {
  std::array<int, 2> fds{};
  REQUIRE(::pipe(fds.data()) == 0);
  auto probe = [&]() -> std::string {
    return ::fcntl(fds[0], F_GETFD) == -1 && ::fcntl(fds[1], F_GETFD) == -1 ? "closed" : "open";
  };
  CHECK(run_isolated_process(probe).text == "open");
  CHECK(run_isolated_process(probe, std::size_t{1} << 20, true).text == "closed");
  // Its own output still arrives, and the standard streams stay open.
  CHECK(run_isolated_process([] { return std::string(::fcntl(2, F_GETFD) != -1 ? "2" : "-"); },
                             std::size_t{1} << 20, true)
            .text == "2");
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST_CASE("run_isolated_process from several threads: each gets its own child's text",
          "[isolated]") {
  std::vector<std::future<isolated_result>> runs;
  for (int t = 0; t < 8; ++t) {
    runs.push_back(std::async(std::launch::async, [t] {
      return run_isolated_process(
          [t] { return std::string(static_cast<std::size_t>(1000 * (t + 1)), char('a' + t)); },
          std::size_t{1} << 20, true);
    }));
  }
  for (int t = 0; t < 8; ++t) {
    const isolated_result r = runs[static_cast<std::size_t>(t)].get();
    CHECK(r.ok());
    CHECK(r.text == std::string(static_cast<std::size_t>(1000 * (t + 1)), char('a' + t)));
  }
}
