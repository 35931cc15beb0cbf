// Static analysis of a schedule on a fabric: no simulation, only routes, slots,
// link loads and the papers' closed-form costs.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tessera/analytic/link_load.hpp"
#include "tessera/analytic/slots.hpp"
#include "tessera/analytic/transfers.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/schedule/schedule.hpp"

namespace tessera::analytic {

// The closed forms here cover wormhole, circuit and store-forward switching.
using ::tessera::switching;

// Model parameters in cycles (docs/analysis.md gives the defaults' derivation).
struct model_params {
  double alpha{100.0};             // start-up per message (Thakur alpha, Grama ts)
  double beta{1.0};                // cycles per byte, uncontended (Grama tw)
  std::optional<double> beta_ex;   // Thakur: per byte in a pairwise exchange (default beta)
  std::optional<double> beta_sr;   // Thakur: per byte, send and receive to different tiles
  std::optional<double> beta_sat;  // Thakur: per byte on a saturated link (default beta / 2)
  double xi{154.0};                // Boppana: circuit start-up
  double tau{23.0};                // Boppana: path set-up per hop
  double width{1.0};               // bytes per element (per cycle) on a circuit link

  [[nodiscard]] double ex() const { return beta_ex.value_or(beta); }
  [[nodiscard]] double sr() const { return beta_sr.value_or(beta); }
  [[nodiscard]] double sat() const { return beta_sat.value_or(beta / 2); }
};

// Which of the papers' closed forms apply to a schedule.
enum class contention_formula : std::uint8_t { none, thakur_pex, thakur_gen };
enum class circuit_formula : std::uint8_t { none, boppana_aap, boppana_aap_prime };

struct estimates {
  double alphabeta{0};                  // sum over rounds of alpha + beta * largest message
  double thakur{0};                     // sum over rounds of Thakur's T with the exact f(i)
  std::optional<double> thakur_paper;   // the same with the paper's f(i)
  std::optional<double> boppana;        // circuit: sum over slots of the slowest message
  std::optional<double> boppana_paper;  // circuit: the paper's T_aap or T_aap'
};

struct analysis {
  switching sw{switching::wormhole};
  std::uint32_t steps{0};  // circuit: slots; otherwise the algorithm's rounds
  std::uint32_t rounds{0};
  std::uint32_t max_link_load{0};  // largest round load over all rounds
  std::uint64_t transfers{0};
  std::vector<round_load> per_round;
  std::vector<std::uint32_t> paper_f;  // per round, when a Thakur formula applies
  std::optional<slot_schedule> slots;  // circuit only
  estimates est;
  transfer_list list;
};

// Picks the formulas that the papers state for this algorithm on this fabric.
contention_formula contention_formula_for(std::string_view algorithm, const fabric& f);
circuit_formula circuit_formula_for(std::string_view algorithm, const fabric& f);

analysis analyze(const schedule& s, const fabric& f, switching sw, const model_params& m);

}  // namespace tessera::analytic
