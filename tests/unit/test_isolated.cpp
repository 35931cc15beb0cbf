// run_isolated_process and run_isolated_pool: the text, exit status and signal of a
// forked child, the byte bound on what it writes, and the pool's width. (The children
// use no Catch2.)
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "tessera/common/isolated.hpp"

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

TEST_CASE("run_isolated_pool: every task's text and status, by index, at most jobs at once",
          "[isolated]") {
  // Twelve tasks through three slots; texts of different lengths, statuses i % 3.
  const std::size_t n = 12;
  std::vector<isolated_result> got(n);
  std::vector<int> calls(n, 0);
  tessera::run_isolated_pool(
      n, 3,
      [](std::size_t i) {
        return std::pair<std::string, int>{std::string(1000 * (i + 1), char('a' + i)),
                                           static_cast<int>(i % 3)};
      },
      [&](std::size_t i, isolated_result r) {
        ++calls[i];
        got[i] = std::move(r);
      });
  for (std::size_t i = 0; i < n; ++i) {
    INFO("task " << i);
    CHECK(calls[i] == 1);
    CHECK(got[i].ok());
    CHECK(got[i].exit_status == static_cast<int>(i % 3));
    CHECK(got[i].text == std::string(1000 * (i + 1), char('a' + i)));
  }
}

TEST_CASE("run_isolated_pool: no more than jobs children alive at once", "[isolated]") {
  // Each child sleeps before it writes. When one ends, the children still alive are the
  // parent's processes in /proc that are not zombies; with the one just reaped they are
  // at most `jobs`.
  auto live_children = [] {
    std::size_t k = 0;
    const std::string me = std::to_string(::getpid());
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
      std::ifstream st(e.path() / "stat");
      std::string line;
      if (!std::getline(st, line) || line.rfind(')') == std::string::npos) continue;
      std::istringstream rest(line.substr(line.rfind(')') + 1));  // after "pid (comm)"
      std::string state, ppid;
      if (rest >> state >> ppid && ppid == me && state != "Z") ++k;
    }
    return k;
  };
  std::size_t peak = 0;
  tessera::run_isolated_pool(
      6, 2,
      [](std::size_t) {
        ::usleep(50000);
        return std::string("x");
      },
      [&](std::size_t, const isolated_result& r) {
        CHECK(r.ok());
        peak = std::max(peak, live_children() + 1);  // this one was just reaped
      });
  CHECK(peak >= 1);
  CHECK(peak <= 2);
}

TEST_CASE("run_isolated_pool: signals, exceptions, the byte bound, and nothing to run",
          "[isolated]") {
  std::vector<isolated_result> got(3);
  tessera::run_isolated_pool(
      3, 8,
      [](std::size_t i) -> std::string {
        if (i == 0) std::raise(SIGTERM);
        if (i == 1) throw std::runtime_error("no fabric");
        return std::string(std::size_t{1} << 20, 'x');
      },
      [&](std::size_t i, isolated_result r) { got[i] = std::move(r); }, 4096);
  CHECK_FALSE(got[0].exited);
  CHECK(got[0].signal == SIGTERM);
  CHECK(got[1].exit_status == 70);
  CHECK(got[1].text == "error: no fabric");
  CHECK(got[2].too_long);
  CHECK(got[2].text.size() == 4096);

  int calls = 0;
  tessera::run_isolated_pool(
      0, 2, [](std::size_t) { return std::string(); },
      [&](std::size_t, const isolated_result&) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("run_isolated_pool: a child holds no descriptor but its own pipe and stdio",
          "[isolated]") {
  std::array<int, 2> fds{};
  REQUIRE(::pipe(fds.data()) == 0);
  std::vector<std::string> got(4);
  tessera::run_isolated_pool(
      4, 4,
      [&](std::size_t) -> std::string {
        const bool closed = ::fcntl(fds[0], F_GETFD) == -1 && ::fcntl(fds[1], F_GETFD) == -1;
        return std::string(closed ? "closed" : "open") + (::fcntl(2, F_GETFD) != -1 ? " 2" : "");
      },
      [&](std::size_t i, const isolated_result& r) { got[i] = r.text; });
  for (const std::string& t : got)
    CHECK(t == "closed 2");
  // A lone run keeps what it inherits.
  CHECK(run_isolated_process([&] {
          return std::string(::fcntl(fds[0], F_GETFD) != -1 ? "open" : "closed");
        }).text == "open");
  ::close(fds[0]);
  ::close(fds[1]);
}
