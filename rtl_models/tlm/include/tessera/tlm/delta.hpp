// Thakur, Choudhary, Fox (000_59d2238f27277512.txt) Tables 2-6 on the TLM platform:
// every cell is a complete exchange on a wormhole mesh with the `delta` preset, run
// in its own process (SystemC elaborates once per process). The preset's two free
// numbers, the start-up alpha and the byte time beta_sat (= beta / 2, gamma = 1), are
// fitted by least squares to Table 2's 4 x 4 column with the platform itself: at
// alpha = 0 the model's time for L-byte blocks is X(L) byte cycles, and with a start-up
// per message it is S alpha + beta_sat X(L), S = steps; every other cell is then a
// prediction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/tlm/platform.hpp"

namespace tessera::tlm_models {

struct delta_cell {
  std::uint32_t table{0};
  fw::a2a_algorithm alg{fw::a2a_algorithm::pex};
  std::uint32_t rows{0};
  std::uint32_t cols{0};
  std::uint32_t bytes{0};
  double paper_s{0};
  bool fitted{false};  // Table 2, 4 x 4
};

// The 125 cells of Tables 2-6 in table, column, row order.
std::vector<delta_cell> delta_cells();

struct cell_run {
  bool ok{false};  // the run finished and every byte verified
  std::uint64_t cycles{0};
  std::string failure;
};

// One complete exchange of `bytes`-byte blocks in a child process; each block
// carries a verified sample of min(bytes, 64) bytes (the wire is charged in full).
cell_run run_delta_cell(fw::a2a_algorithm alg, std::uint32_t rows, std::uint32_t cols,
                        std::uint32_t bytes, const platform_options& o);

struct delta_tlm_fit {
  double alpha_us{0};
  double beta_sat_us{0};  // us per byte cycle
  double rms_s{0};        // residual over the five fitted cells, with alpha rounded
  std::uint64_t alpha_cycles{0};
};

// `o` is the wormhole delta preset; its alpha is ignored (the fit sets it).
delta_tlm_fit fit_delta_tlm(const platform_options& o);

}  // namespace tessera::tlm_models
