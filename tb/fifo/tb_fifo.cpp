// tb_fifo: Verilator testbench for rtl_models/rtl/tsr_fifo.sv.
//
//   tb_fifo [--depth N] [--words N] [--in-idle P] [--out-stall P] [--no-stall]
//           [--seed N] [--timeout CYCLES] [--trace FILE.fst]
//
// Exit 0 when every word arrives once, in order, and the cycle count holds; 1 on a
// failed check or timeout; 2 on bad arguments. The cycles run in tb/common/run_loop.hpp.

#include <charconv>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "../common/run_loop.hpp"
#include "../common/sim_control.hpp"
#include "../common/tb_main.hpp"
#include "fifo_driver.hpp"
#include "fifo_monitor.hpp"
#include "fifo_scoreboard.hpp"
#include "tessera/rtl_tops/fifo_top.hpp"

namespace {

using namespace tessera::tb;
using namespace tessera::rtl_tops;

struct options : common_options {
  unsigned depth = 4;
  std::uint64_t words = 2000;
  double in_idle = 0.3;
  double out_stall = 0.3;
};

// A pushed word reaches the registered output one edge later. At Depth 1 ready_o stays
// low while the single entry is full, so a word can enter only every second cycle.
constexpr std::uint64_t fifo_latency = 1;

std::uint64_t word_interval(unsigned depth) {
  return depth >= 2 ? 1 : 2;
}

// Cycles from the first cycle after reset through the edge that delivers the last word,
// when neither side ever holds back.
std::uint64_t unstalled_cycles(std::uint64_t words, unsigned depth) {
  if (words == 0) return 0;
  return fifo_latency + (words - 1) * word_interval(depth) + 1;
}

// Distinct words, so that a repeated or lost word cannot hide behind an equal neighbour:
// multiplying by an odd constant is a bijection modulo 2^32.
std::vector<std::uint32_t> make_words(std::uint64_t count, std::uint64_t seed) {
  const auto mask = static_cast<std::uint32_t>(seed * 0x9e3779b97f4a7c15ULL >> 32);
  std::vector<std::uint32_t> words;
  words.reserve(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    words.push_back((static_cast<std::uint32_t>(k) * 0x2545f491U) ^ mask);
  }
  return words;
}

bool parse_probability(std::string_view text, double& value) {
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  return error == std::errc{} && end == last && value >= 0.0 && value < 1.0;
}

std::string own_option(options& opts, std::string_view arg, std::string_view value) {
  if (arg == "--no-stall") {
    opts.in_idle = 0.0;
    opts.out_stall = 0.0;
    return {};
  }
  std::uint64_t n = 0;
  bool ok = true;
  if (arg == "--depth") {
    ok = parse_number(value, n) && n <= 0xffffffffU;
    opts.depth = static_cast<unsigned>(n);
  } else if (arg == "--words") {
    ok = parse_number(value, opts.words) && opts.words <= (1ULL << 32);
  } else if (arg == "--in-idle") {
    ok = parse_probability(value, opts.in_idle);
  } else if (arg == "--out-stall") {
    ok = parse_probability(value, opts.out_stall);
  } else {
    return "unknown option " + std::string(arg);
  }
  if (!ok) return "bad value for " + std::string(arg) + ": '" + std::string(value) + "'";
  return {};
}

// sim_control clocks a Verilated model's clk_i and rst_ni. The FIFO's model class depends
// on its depth and sits behind rtl_tops::fifo_top, so this shows it as such a model.
struct fifo_clocked {
  fifo_top& dut;
  CData& clk_i;
  CData& rst_ni;
  void eval() { dut.eval(); }
#if TESSERA_RTL_TRACE_FST
  void trace(VerilatedFstC* fst, int levels) {
    dut.trace(*fst, levels);
  }
#endif
};

// The FIFO's hooks for run_loop. Done `drain` cycles after the last word, so that an
// invented extra word would surface.
class fifo_bench {
 public:
  fifo_bench(fifo_pins& pins, const std::vector<std::uint32_t>& words, const options& opts,
             std::uint64_t drain)
      : driver_(pins, words, opts.in_idle, opts.out_stall, opts.seed),
        monitor_(pins),
        scoreboard_(opts.depth, words),
        words_(words.size()),
        drain_(drain) {
    driver_.idle();
  }

  void drive(std::uint64_t) { driver_.drive(); }
  bool sample(std::uint64_t now) {
    const fifo_sample sample = monitor_.sample();
    scoreboard_.check(sample, now);
    driver_.on_edge(sample.push);
    return sample.push || sample.pop;
  }
  bool done(std::uint64_t now) {
    if (scoreboard_.complete() && !finished_at_) finished_at_ = now;
    return finished_at_ && now >= *finished_at_ + drain_;
  }
  bool failed() const { return scoreboard_.failed(); }
  // Random back-pressure may hold both sides for any time: the FIFO runs without a
  // watchdog, and only the timeout reports.
  bool waiting_for_time(std::uint64_t) const { return false; }
  std::string deadlock_report() const { return timeout_report(); }
  std::string timeout_report() const {
    return " " + std::to_string(scoreboard_.delivered()) + " of " + std::to_string(words_) +
           " words delivered";
  }

  const std::string& error() const { return scoreboard_.error(); }
  // The cycle after the edge that delivered the last word.
  std::optional<std::uint64_t> finished_at() const { return finished_at_; }

 private:
  fifo_driver driver_;
  fifo_monitor monitor_;
  fifo_scoreboard scoreboard_;
  std::size_t words_;
  std::uint64_t drain_;
  std::optional<std::uint64_t> finished_at_;
};

std::string join(const std::vector<unsigned>& values) {
  std::string text;
  for (unsigned value : values)
    text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text;
}

}  // namespace

constexpr const char* usage =
    "usage: tb_fifo [--depth N] [--words N] [--in-idle P] [--out-stall P] [--no-stall]\n"
    "               [common options]\n"
    "\n"
    "Drives the Verilated FIFO (Vtsr_fifo_d1, Vtsr_fifo_d4) with random back-pressure on\n"
    "both sides; every word must arrive once, in order. With --no-stall the cycle count\n"
    "must be exact (depth 1 moves a word every two cycles, deeper FIFOs one a cycle).\n";

static int testbench(int argc, char* argv[]) {
  options opts;
  const testbench_info info{
      "tb_fifo", usage, "1000 + 50 x the cycles without back-pressure", {"--no-stall"}};
  if (const auto stop = parse_command_line(
          argc, argv, info, opts,
          [&](std::string_view a, std::string_view v) { return own_option(opts, a, v); }))
    return *stop;

  const auto context = std::make_unique<VerilatedContext>();
  // Random initial register and memory contents, so a missing reset shows up.
  context->randReset(2);
  context->randSeed(static_cast<int>(opts.seed & 0x7fffffff));
  context->traceEverOn(!opts.trace_path.empty());

  const std::unique_ptr<fifo_top> dut = make_fifo_top(opts.depth, *context);
  if (!dut) {
    std::cerr << "tb_fifo: no model for --depth " << opts.depth << "; built depths are "
              << join(fifo_depths()) << '\n';
    return exit_usage;
  }

  const bool stalls = opts.in_idle > 0.0 || opts.out_stall > 0.0;
  const std::uint64_t minimum_cycles = unstalled_cycles(opts.words, opts.depth);
  // Each side that holds back with probability p slows the run by about 1 / (1 - p), so
  // 50x covers the probabilities the tests use.
  const std::uint64_t timeout = opts.timeout.value_or(1000 + 50 * minimum_cycles);

  const std::vector<std::uint32_t> words = make_words(opts.words, opts.seed);
  fifo_clocked clocked{*dut, dut->pins().clk_i, dut->pins().rst_ni};
  sim_control<fifo_clocked> sim(*context, clocked);
#if TESSERA_RTL_TRACE_FST
  if (!opts.trace_path.empty()) sim.open_trace(opts.trace_path);
#endif
  fifo_bench bench(dut->pins(), words, opts, opts.depth + 2);
  sim.reset(4);
  const run_outcome outcome = run_loop(sim, bench, {timeout, no_watchdog, clocking::edge});
  dut->final();

  std::string failure = outcome.report;
  if (outcome.result == verdict::failed && failure.empty()) failure = bench.error();
  const std::optional<std::uint64_t> finished_at = bench.finished_at();
  if (outcome.result == verdict::pass) {
    if (!stalls && *finished_at != minimum_cycles) {
      failure = "took " + std::to_string(*finished_at) + " cycles, expected exactly " +
                std::to_string(minimum_cycles);
    } else if (*finished_at < minimum_cycles) {
      failure = "took " + std::to_string(*finished_at) + " cycles, fewer than the minimum " +
                std::to_string(minimum_cycles);
    }
  }

  const std::string run = "depth=" + std::to_string(opts.depth) +
                          " words=" + std::to_string(opts.words) +
                          " seed=" + std::to_string(opts.seed);
  if (!failure.empty()) {
    std::cerr << "tb_fifo: FAIL " << run << ": " << failure << '\n';
    return exit_fail;
  }
  std::cout << "tb_fifo: PASS " << run << " cycles=" << *finished_at
            << (stalls ? " minimum=" : " expected=") << minimum_cycles << '\n';
  return exit_pass;
}

int main(int argc, char* argv[]) {
  return finish(argc, argv, testbench(argc, argv));
}
