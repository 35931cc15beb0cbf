// tb_fifo: Verilator testbench for rtl_models/rtl/tsr_fifo.sv.
//
//   tb_fifo [--depth N] [--words N] [--seed N] [--in-idle P] [--out-stall P] [--no-stall]
//           [--timeout CYCLES] [--trace FILE.fst]
//
// Exit 0 when every word arrives once, in order, and the cycle count holds; 1 on a
// failed check or timeout; 2 on bad arguments.

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "../common/tb_main.hpp"
#include "fifo_driver.hpp"
#include "fifo_dut.hpp"
#include "fifo_monitor.hpp"
#include "fifo_scoreboard.hpp"
#include "sim_control.hpp"

namespace {

using namespace tessera::tb;

struct options {
  unsigned depth = 4;
  std::uint64_t words = 2000;
  std::uint64_t seed = 1;
  double in_idle = 0.3;
  double out_stall = 0.3;
  std::optional<std::uint64_t> timeout;
  std::string trace_path;
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

template <class T>
bool parse_number(std::string_view text, T& value) {
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  return error == std::errc{} && end == last;
}

bool parse_probability(std::string_view text, double& value) {
  return parse_number(text, value) && value >= 0.0 && value < 1.0;
}

// Returns an error message, empty on success.
std::string parse_options(int argc, char* argv[], options& opts) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--no-stall") {
      opts.in_idle = 0.0;
      opts.out_stall = 0.0;
      continue;
    }
    static constexpr std::string_view valued[] = {"--depth",     "--words",   "--seed", "--in-idle",
                                                  "--out-stall", "--timeout", "--trace"};
    if (std::find(std::begin(valued), std::end(valued), arg) == std::end(valued)) {
      return "unknown option " + std::string(arg);
    }
    if (i + 1 >= argc) return "missing value after " + std::string(arg);
    const std::string_view value = argv[++i];
    bool ok = true;
    if (arg == "--depth") {
      ok = parse_number(value, opts.depth);
    } else if (arg == "--words") {
      ok = parse_number(value, opts.words) && opts.words <= (1ULL << 32);
    } else if (arg == "--seed") {
      ok = parse_number(value, opts.seed);
    } else if (arg == "--in-idle") {
      ok = parse_probability(value, opts.in_idle);
    } else if (arg == "--out-stall") {
      ok = parse_probability(value, opts.out_stall);
    } else if (arg == "--timeout") {
      std::uint64_t cycles = 0;
      ok = parse_number(value, cycles);
      opts.timeout = cycles;
    } else {
      opts.trace_path = value;
    }
    if (!ok) return "bad value for " + std::string(arg) + ": '" + std::string(value) + "'";
  }
  return {};
}

std::string join(const std::vector<unsigned>& values) {
  std::string text;
  for (unsigned value : values)
    text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text;
}

}  // namespace

constexpr const char* usage =
    "usage: tb_fifo [--depth N] [--words N] [--seed N] [--in-idle P] [--out-stall P]\n"
    "               [--no-stall] [--timeout CYCLES] [--trace FILE.fst]\n"
    "\n"
    "Drives the Verilated FIFO (Vtsr_fifo_d1, Vtsr_fifo_d4) with random back-pressure on\n"
    "both sides; every word must arrive once, in order. With --no-stall the cycle count\n"
    "must be exact (depth 1 moves a word every two cycles, deeper FIFOs one a cycle).\n"
    "exit status: 0 pass, 1 a failed check or a timeout, 2 bad arguments\n";

int main(int argc, char* argv[]) {
  if (answer_help(argc, argv, usage)) return exit_pass;
  options opts;
  if (const std::string error = parse_options(argc, argv, opts); !error.empty()) {
    std::cerr << "tb_fifo: " << error << '\n';
    return exit_usage;
  }
#if !TESSERA_RTL_TRACE_FST
  if (!opts.trace_path.empty()) {
    std::cerr << "tb_fifo: --trace needs a build with TESSERA_RTL_TRACE=ON\n";
    return exit_usage;
  }
#endif

  const auto context = std::make_unique<VerilatedContext>();
  // Random initial register and memory contents, so a missing reset shows up.
  context->randReset(2);
  context->randSeed(static_cast<int>(opts.seed & 0x7fffffff));
  context->traceEverOn(!opts.trace_path.empty());

  const std::unique_ptr<fifo_dut> dut = make_fifo_dut(opts.depth, *context);
  if (!dut) {
    std::cerr << "tb_fifo: no model for --depth " << opts.depth << "; built depths are "
              << join(fifo_depths()) << '\n';
    return exit_usage;
  }

  const bool stalls = opts.in_idle > 0.0 || opts.out_stall > 0.0;
  const std::uint64_t minimum_cycles = unstalled_cycles(opts.words, opts.depth);
  // Each side that holds back with probability p slows the run by about 1 / (1 - p), so
  // 50x covers the probabilities the tests use; --timeout overrides it.
  const std::uint64_t timeout = opts.timeout.value_or(1000 + 50 * minimum_cycles);
  // After the last word, run long enough that an invented extra word would surface.
  const std::uint64_t drain_cycles = opts.depth + 2;

  const std::vector<std::uint32_t> words = make_words(opts.words, opts.seed);
  sim_control sim(*context, *dut, timeout);
#if TESSERA_RTL_TRACE_FST
  if (!opts.trace_path.empty()) sim.open_trace(opts.trace_path);
#endif
  fifo_driver driver(dut->pins(), words, opts.in_idle, opts.out_stall, opts.seed);
  fifo_monitor monitor(dut->pins());
  fifo_scoreboard scoreboard(opts.depth, words);

  driver.idle();
  sim.reset(4);

  std::optional<std::uint64_t> finished_at;
  std::string failure;
  while (true) {
    if (scoreboard.complete() && !finished_at) finished_at = sim.cycles();
    if (finished_at && sim.cycles() >= *finished_at + drain_cycles) break;
    if (sim.timed_out()) {
      failure = "timeout after " + std::to_string(sim.cycles()) + " cycles with " +
                std::to_string(scoreboard.delivered()) + " of " + std::to_string(opts.words) +
                " words delivered";
      break;
    }
    driver.drive();
    sim.settle();
    const fifo_sample sample = monitor.sample();
    scoreboard.check(sample, sim.cycles());
    if (scoreboard.failed()) {
      failure = scoreboard.error();
      break;
    }
    driver.on_edge(sample.push);
    sim.step();
    if (context->gotFinish()) {
      failure = "the RTL stopped the simulation (a failed assertion?) at cycle " +
                std::to_string(sim.cycles());
      break;
    }
  }
  dut->final();

  if (failure.empty() && finished_at) {
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
