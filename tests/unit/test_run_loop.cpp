// The Verilator testbenches' shared run loop (tb/common/run_loop.hpp) and command line
// (tb/common/tb_main.hpp), driven by a fake clock and a fake testbench: every verdict,
// the cycle it is taken in, and the shared options, with no Verilated model.
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "run_loop.hpp"
#include "tb_main.hpp"

using namespace tessera::tb;

namespace {

constexpr std::uint64_t never = ~std::uint64_t{0};

// sim_control's interface over a cycle count.
struct fake_clock {
  std::uint64_t cycle = 0;
  unsigned settles = 0;
  unsigned edges = 0;
  unsigned rises = 0;
  std::uint64_t finish_in = never;  // the cycle whose edge runs the RTL's $finish

  void settle() { ++settles; }
  void edge() {
    ++edges;
    ++cycle;
  }
  void rise() {
    ++rises;
    ++cycle;
  }
  std::uint64_t now() const { return cycle; }
  bool finished() const { return cycle > finish_in; }
};

// Owes `owed` items and delivers one in every cycle from `first_move` to before
// `last_move`, once its input is due (`not_before`); `fail_in` fails a check in that cycle.
struct fake_bench {
  std::uint64_t owed = 3;
  std::uint64_t first_move = 0;
  std::uint64_t last_move = never;
  std::uint64_t not_before = 0;
  std::uint64_t fail_in = never;
  std::uint64_t delivered = 0;
  std::vector<std::uint64_t> driven;  // the cycle of every drive()
  bool failed_ = false;

  void drive(std::uint64_t now) { driven.push_back(now); }
  bool sample(std::uint64_t now) {
    if (now == fail_in) failed_ = true;
    if (now < first_move || now >= last_move || now < not_before) return false;
    ++delivered;
    return true;
  }
  bool done(std::uint64_t) const { return delivered >= owed; }
  bool failed() const { return failed_; }
  bool waiting_for_time(std::uint64_t now) const { return now < not_before; }
  std::string deadlock_report() const { return " item " + std::to_string(delivered) + " waits"; }
  std::string timeout_report() const { return " item " + std::to_string(delivered) + " owed"; }
};

static_assert(run_hooks<fake_bench>);
static_assert(run_clock<fake_clock>);

}  // namespace

TEST_CASE("run_loop passes when the testbench is done, one drive and edge a cycle",
          "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  const run_outcome out = run_loop(clock, tb, {100, 10, clocking::edge});
  CHECK(out.result == verdict::pass);
  CHECK(out.cycles == 3);
  CHECK(out.report.empty());
  CHECK(exit_code(out.result) == exit_pass);
  CHECK(tb.driven == std::vector<std::uint64_t>{0, 1, 2});
  CHECK(clock.settles == 3);
  CHECK(clock.edges == 3);
  CHECK(clock.rises == 0);
}

TEST_CASE("run_loop counts cycles from its start and clocks rise() when asked", "[tb][run_loop]") {
  fake_clock clock;
  clock.cycle = 40;  // reset and set-up cycles before the loop
  fake_bench tb;
  const run_outcome out = run_loop(clock, tb, {100, 10, clocking::rise});
  CHECK(out.result == verdict::pass);
  CHECK(out.cycles == 3);
  CHECK(tb.driven == std::vector<std::uint64_t>{0, 1, 2});
  CHECK(clock.rises == 3);
  CHECK(clock.edges == 0);
}

TEST_CASE("run_loop reports a deadlock after stall_limit quiet cycles, before the edge",
          "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  tb.first_move = never;
  const run_outcome out = run_loop(clock, tb, {1000, 10, clocking::edge});
  CHECK(out.result == verdict::deadlock);
  CHECK(out.cycles == 11);  // 11 cycles without progress since cycle 0
  CHECK(clock.edges == 11);
  CHECK(out.report == "deadlock: no progress for 10 cycles; item 0 waits");
  CHECK(exit_code(out.result) == exit_fail);
}

TEST_CASE("run_loop's watchdog counts from the last progress", "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  tb.owed = 1000;
  tb.last_move = 2;
  const run_outcome out = run_loop(clock, tb, {1000, 5, clocking::edge});
  CHECK(out.result == verdict::deadlock);
  CHECK(out.cycles == 7);  // the last progress in cycle 1, then 6 > 5 quiet cycles
}

TEST_CASE("run_loop: waiting for a scheduled cycle is not a deadlock", "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  tb.not_before = 50;  // nothing moves before cycle 50, far past the stall limit
  const run_outcome out = run_loop(clock, tb, {1000, 10, clocking::edge});
  CHECK(out.result == verdict::pass);
  CHECK(out.cycles == 53);
}

TEST_CASE("run_loop reports a timeout with what is still owed", "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  tb.owed = 1000;
  const run_outcome out = run_loop(clock, tb, {20, 10, clocking::edge});
  CHECK(out.result == verdict::timeout);
  CHECK(out.cycles == 20);
  CHECK(tb.driven.size() == 20);
  CHECK(out.report == "timeout after 20 cycles: item 20 owed");
  CHECK(exit_code(out.result) == exit_fail);
}

TEST_CASE("run_loop: without a watchdog a quiet run ends in the timeout", "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  tb.first_move = never;
  const run_outcome out = run_loop(clock, tb, {500, no_watchdog, clocking::edge});
  CHECK(out.result == verdict::timeout);
  CHECK(out.cycles == 500);
}

TEST_CASE("run_loop stops on a failed check in its cycle, before the edge", "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  tb.owed = 1000;
  tb.fail_in = 7;
  const run_outcome out = run_loop(clock, tb, {1000, 10, clocking::edge});
  CHECK(out.result == verdict::failed);
  CHECK(out.cycles == 7);
  CHECK(clock.edges == 7);
  CHECK(out.report.empty());  // the testbench prints its own errors
  CHECK(exit_code(out.result) == exit_fail);
}

TEST_CASE("run_loop fails when the RTL stops the simulation", "[tb][run_loop]") {
  fake_clock clock;
  clock.finish_in = 4;
  fake_bench tb;
  tb.owed = 1000;
  const run_outcome out = run_loop(clock, tb, {1000, 10, clocking::edge});
  CHECK(out.result == verdict::failed);
  CHECK(out.cycles == 4);
  CHECK(out.report.find("the RTL stopped the simulation") == 0);
}

TEST_CASE("run_loop: a testbench done before its first cycle runs none", "[tb][run_loop]") {
  fake_clock clock;
  fake_bench tb;
  tb.owed = 0;
  const run_outcome out = run_loop(clock, tb, {0, 10, clocking::edge});
  CHECK(out.result == verdict::pass);
  CHECK(out.cycles == 0);
  CHECK(tb.driven.empty());
}

namespace {

struct parsed {
  std::optional<int> stop;
  common_options common;
  std::vector<std::string> own;  // "name=value"
  std::string out;               // what went to stdout
};

parsed parse(std::vector<std::string> args) {
  std::vector<char*> argv{const_cast<char*>("tb_test")};
  for (std::string& a : args)
    argv.push_back(a.data());
  parsed p;
  const testbench_info info{
      "tb_test", "usage: tb_test [--own X] [--flag] [common options]\n", "1234", {"--flag"}};
  std::ostringstream out;
  std::streambuf* const old = std::cout.rdbuf(out.rdbuf());
  std::streambuf* const old_err = std::cerr.rdbuf(out.rdbuf());
  p.stop = parse_command_line(static_cast<int>(argv.size()), argv.data(), info, p.common,
                              [&](std::string_view a, std::string_view v) -> std::string {
                                if (a != "--own" && a != "--flag")
                                  return "unknown option " + std::string(a);
                                p.own.push_back(std::string(a) + "=" + std::string(v));
                                return {};
                              });
  std::cout.rdbuf(old);
  std::cerr.rdbuf(old_err);
  p.out = out.str();
  return p;
}

}  // namespace

TEST_CASE("the shared command line takes --timeout, --seed and the testbench's own options",
          "[tb][options]") {
  const parsed p = parse({"--own", "7", "--timeout", "500", "--flag", "--seed", "42"});
  CHECK_FALSE(p.stop.has_value());
  CHECK(p.common.timeout == 500);
  CHECK(p.common.seed == 42);
  CHECK(p.common.trace_path.empty());
  CHECK(p.own == std::vector<std::string>{"--own=7", "--flag="});

  const parsed defaults = parse({});
  CHECK_FALSE(defaults.stop.has_value());
  CHECK_FALSE(defaults.common.timeout.has_value());
  CHECK(defaults.common.seed == 1);
}

TEST_CASE("the shared command line refuses bad arguments with exit 2", "[tb][options]") {
  CHECK(parse({"--timeout", "soon"}).stop == exit_usage);
  CHECK(parse({"--timeout", "soon"}).out == "tb_test: bad value for --timeout: 'soon'\n");
  CHECK(parse({"--seed"}).out == "tb_test: missing value after --seed\n");
  CHECK(parse({"--other", "1"}).out == "tb_test: unknown option --other\n");
#if !TESSERA_RTL_TRACE_FST
  // A build without FST tracing says so instead of running without the waveform.
  CHECK(parse({"--trace", "x.fst"}).stop == exit_usage);
#endif
}

TEST_CASE("options: --help prints the testbench's usage and the common options, exit 0",
          "[tb][options]") {
  const parsed p = parse({"--own", "7", "--help"});
  CHECK(p.stop == exit_pass);
  CHECK(p.own.empty());  // nothing parsed: main stops before building its model
  CHECK(p.out.find("usage: tb_test [--own X] [--flag] [common options]\n") == 0);
  CHECK(p.out.find("--timeout C       a timeout after C cycles (default: 1234)") !=
        std::string::npos);
  CHECK(p.out.find("--seed S") != std::string::npos);
  CHECK(p.out.find("--trace FILE.fst") != std::string::npos);
  CHECK(p.out.find("exit status: 0 pass, 1 a failed check, a deadlock or a timeout") !=
        std::string::npos);
}
