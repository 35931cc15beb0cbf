// `tessera reproduce`: the seed papers' results recomputed beside the papers' values
// (docs/reproduction.md). A front end names a paper and its options and gets the report,
// which prints itself (report.hpp); the exit status is 1 when a row misses its tolerance.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/reproduce/report.hpp"

namespace tessera::reproduce {

// Grama et al.'s slides on the alpha-beta model.
struct grama_options {
  std::uint64_t ts{100};  // start-up, cycles
  std::uint64_t tw{2};    // cycles a byte
};

// Boppana and Raghavendra on the iPSC/860 preset.
struct boppana_options {
  std::string model{"tlm"};     // the circuit engine, or "rtl": the Verilated cube
  std::uint32_t k{100};         // bytes a message for AAP and Table 1 (the paper's example)
  std::uint32_t k_prime{1000};  // for AAP': the paper needs k > xi + (n-1) tau = 292
};

// Bermond, Michallon and Trystram on the MegaNode preset.
struct bermond_options {
  // The store-and-forward engine, or "rtl": the Verilated tori, which are 4 x 4 and 8 x 8
  // and carry packets of at most 256 bytes, so only n = 4, 8 and L <= 512 run there.
  std::string model{"tlm"};
  std::uint32_t n_min{4};  // n x n tori, n_min..n_max
  std::uint32_t n_max{16};
  std::vector<std::uint32_t> lengths{512, 4096, 32768};  // L, bytes, for the rows
  std::vector<std::uint32_t> figure_sizes{4, 8, 12, 16};
  std::vector<std::uint32_t> figure_lengths{256, 1024, 4096, 16384, 65536};
};

// Bokhari on the ipsc860 preset.
struct bokhari_options {
  std::string model{"tlm"};  // the circuit engine, or "rtl": the Verilated cube
  std::vector<std::uint32_t> message_bytes{0, 100, 101, 200, 400, 700, 1000};  // Figure 2
  std::vector<std::uint32_t> contention_bytes{0, 250, 500, 750, 1000};         // Figure 4
  // §6 (tlm only: the RTL cube is full duplex): the six implementations on d-cubes,
  // d = 1..d_max, blocks 2^0..2^12 bytes, each point the maximum of `seeds` runs with
  // operating-system jitter of mean `jitter` cycles, seeds 1..seeds (Figures 10-11);
  // the envelopes of Figures 12-13 on the 5-cube over `envelope_seeds` runs.
  bool implementations{true};
  std::uint32_t d_max{7};
  std::uint32_t seeds{8};
  std::uint32_t envelope_seeds{20};
  std::vector<std::uint32_t> envelope_bytes{1000, 2000, 3000, 4000};
  std::uint64_t jitter{25};
  unsigned jobs{1};  // runs at once (each a child process)
};

// Thakur, Choudhary and Fox on the delta fit.
struct thakur_options {
  // "tlm": the wormhole mesh with the delta preset; "analytic": Thakur's step model.
  std::string model{"tlm"};
  std::set<std::uint32_t> tables;  // 2..6; empty: every table
  unsigned jobs{1};                // tlm: cells run at once (each a child process)
};

// The delta preset's free numbers fitted with the TLM platform on Table 2's 4 x 4 column
// (docs/delta.md). At alpha = 0 the PEX cells take X(L) cycles. Rendezvous messages (4,
// 8 and 16 KB): T(L) = 15 alpha + beta_sat X(L), least squares. Eager messages (256 B
// and 1 KB): T(L) = 15 (alpha_eager + copy L) + beta_sat X(L), through both cells. The
// protocols change at the crossover of the two start-ups, which must fall between 1 KB
// and 4 KB (else the fit throws).
struct delta_platform_fit {
  double alpha_us{0};
  double beta_sat_us{0};  // us per byte cycle
  double alpha_eager_us{0};
  double copy_us_per_byte{0};
  double rms_s{0};  // residual over the five cells, with the cycle values below
  std::uint64_t alpha_cycles{0};
  std::uint64_t alpha_eager_cycles{0};
  std::uint64_t eager_copy{0};   // cycles per 1024 bytes
  std::uint64_t eager_bytes{0};  // the crossover: alpha_eager + copy L = alpha
};
delta_platform_fit fit_delta_platform(unsigned jobs);

struct options {
  thakur_options thakur;
  grama_options grama;
  bokhari_options bokhari;
  boppana_options boppana;
  bermond_options bermond;
};

// The papers by the names the CLI takes, in the order `all` runs them.
const std::vector<std::string_view>& papers();

// The report of one paper. Throws input_error for a paper not in papers().
paper_report run(std::string_view paper, const options& o);

}  // namespace tessera::reproduce
