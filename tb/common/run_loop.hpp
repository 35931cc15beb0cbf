#pragma once

// The cycle loop every Verilator testbench runs: the clock, the cycle timeout, the
// no-progress watchdog and the verdict live here once; what a testbench drives, checks
// and reports comes in through its hooks. No Verilator header is needed, so the loop is
// unit-tested with a fake clock (tests/unit/test_run_loop.cpp).
//
// One cycle, `now` counted from the loop's start:
//   done(now)?               pass
//   now reached the timeout? timeout, with timeout_report()
//   drive(now); clock.settle(); sample(now)   (true: the cycle made progress)
//   failed()?                failed: the testbench reports its own errors
//   no progress for more than stall_limit cycles and not waiting_for_time(now)?
//                            deadlock, with deadlock_report()
//   the clock edge (edge(), or rise() for a model with nothing on the falling edge)
//   the RTL called $finish or $stop (a failed assertion)? failed
// The verdicts are taken before the edge, on the state the testbench just sampled, so a
// report shows the cycle that stopped the run.
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "tb_main.hpp"

namespace tessera::tb {

enum class verdict { pass, failed, deadlock, timeout };

inline int exit_code(verdict v) {
  return v == verdict::pass ? exit_pass : exit_fail;
}

// What a testbench gives the loop. sample() may count anything seen since the previous
// sample as progress (a testbench that reads registered outputs before driving does).
template <class T>
concept run_hooks = requires(T& tb, const T& ctb, std::uint64_t now) {
  tb.drive(now);
  { tb.sample(now) } -> std::convertible_to<bool>;
  { tb.done(now) } -> std::convertible_to<bool>;
  { ctb.failed() } -> std::convertible_to<bool>;
  // True while some input is held back on purpose until a later cycle, so that a quiet
  // network is not a deadlock.
  { ctb.waiting_for_time(now) } -> std::convertible_to<bool>;
  // Who waits for what, and what is still owed: appended to the verdict's line.
  { tb.deadlock_report() } -> std::convertible_to<std::string>;
  { tb.timeout_report() } -> std::convertible_to<std::string>;
};

// sim_control (sim_control.hpp) in the testbenches.
template <class T>
concept run_clock = requires(T& clock, const T& cclock) {
  clock.settle();
  clock.edge();
  clock.rise();
  { cclock.now() } -> std::convertible_to<std::uint64_t>;
  { cclock.finished() } -> std::convertible_to<bool>;
};

inline constexpr std::uint64_t no_watchdog = std::numeric_limits<std::uint64_t>::max();

enum class clocking { edge, rise };

struct run_limits {
  std::uint64_t timeout = 0;                // cycles from the loop's start
  std::uint64_t stall_limit = no_watchdog;  // quiet cycles before a deadlock
  clocking clock = clocking::edge;
};

struct run_outcome {
  verdict result = verdict::pass;
  std::uint64_t cycles = 0;  // the cycle the run stopped in, from the loop's start
  std::string report;        // the line a deadlock, a timeout or the RTL's stop prints
};

template <run_clock Clock, run_hooks Hooks>
run_outcome run_loop(Clock& clock, Hooks& tb, const run_limits& limits) {
  const std::uint64_t start = clock.now();
  std::uint64_t last_progress = 0;
  for (;;) {
    const std::uint64_t now = clock.now() - start;
    if (tb.done(now)) return {verdict::pass, now, {}};
    if (now >= limits.timeout)
      return {verdict::timeout, now,
              "timeout after " + std::to_string(limits.timeout) + " cycles:" + tb.timeout_report()};
    tb.drive(now);
    clock.settle();
    if (tb.sample(now)) last_progress = now;
    if (tb.failed()) return {verdict::failed, now, {}};
    if (now - last_progress > limits.stall_limit && !tb.waiting_for_time(now))
      return {verdict::deadlock, now,
              "deadlock: no progress for " + std::to_string(limits.stall_limit) + " cycles;" +
                  tb.deadlock_report()};
    if (limits.clock == clocking::rise)
      clock.rise();
    else
      clock.edge();
    if (clock.finished())
      return {verdict::failed, now,
              "the RTL stopped the simulation ($finish, or a failed assertion) in cycle " +
                  std::to_string(now)};
  }
}

// Prints a stopped run's line as "<tb>: <report>" on stderr; returns the exit code.
inline int print_verdict(std::string_view tb, const run_outcome& outcome) {
  if (!outcome.report.empty()) std::cerr << tb << ": " << outcome.report << '\n';
  return exit_code(outcome.result);
}

}  // namespace tessera::tb
