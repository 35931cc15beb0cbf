#include "tessera/analytic/analysis.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "tessera/analytic/closed_form.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::analytic {

contention_formula contention_formula_for(std::string_view algorithm, const fabric& f) {
  if (f.kind != fabric_kind::mesh) return contention_formula::none;
  // Thakur derives f(i) for PEX with power-of-two sides and for GEN on any mesh. On a
  // power-of-two mesh PEX-GEN and PEX-GEN-SHIFT (shift 0) are PEX step for step.
  const bool xor_schedule = algorithm == "pex" || algorithm == "pairwise" ||
                            algorithm == "pex-gen" || algorithm == "pex-gen-shift";
  if (xor_schedule && std::has_single_bit(f.tiles())) return contention_formula::thakur_pex;
  if (algorithm == "gen" || algorithm == "linear") return contention_formula::thakur_gen;
  return contention_formula::none;
}

circuit_formula circuit_formula_for(std::string_view algorithm, const fabric& f) {
  if (f.kind != fabric_kind::hypercube) return circuit_formula::none;
  if (algorithm == "aap") return circuit_formula::boppana_aap;
  if (algorithm == "aap-prime") return circuit_formula::boppana_aap_prime;
  return circuit_formula::none;
}

namespace {

std::uint64_t elements(std::uint64_t bytes, double width) {
  return static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / width));
}

void circuit_estimate(const fabric& f, const schedule& s, const model_params& m, analysis& a) {
  const slot_schedule& sl = *a.slots;
  std::vector<double> slot_time(sl.slots, 0.0);
  for (std::size_t i = 0; i < a.list.all.size(); ++i) {
    const transfer& tr = a.list.all[i];
    const std::uint32_t hops = distance(f, tile_id{tr.src}, tile_id{tr.dst});
    const double t = boppana_message(m.xi, m.tau, hops, elements(tr.bytes, m.width));
    double& cur = slot_time[sl.slot_of[i] - 1];
    cur = std::max(cur, t);
  }
  double total = 0;
  for (double t : slot_time)
    total += t;
  a.est.boppana = total;

  const auto formula = circuit_formula_for(s.algorithm, f);
  if (formula == circuit_formula::none) return;
  const std::uint64_t k = elements(s.block_bytes, m.width);
  a.est.boppana_paper = formula == circuit_formula::boppana_aap
                            ? boppana_aap(f.dim, k, m.xi, m.tau)
                            : boppana_aap_prime(f.dim, k, m.xi, m.tau);
}

}  // namespace

analysis analyze(const schedule& s, const fabric& f, switching sw, const model_params& m) {
  analysis a;
  a.sw = sw;
  a.list = extract_transfers(s);
  a.transfers = a.list.all.size();
  a.per_round = round_loads(f, a.list);
  a.rounds = static_cast<std::uint32_t>(a.per_round.size());
  for (const auto& r : a.per_round)
    a.max_link_load = std::max(a.max_link_load, r.max_link_load);

  const auto formula = contention_formula_for(s.algorithm, f);
  for (const auto& r : a.per_round) {
    std::uint32_t paper = 0;
    if (formula == contention_formula::thakur_pex) paper = thakur_f_pex(r.step, f.cols);
    if (formula == contention_formula::thakur_gen) paper = thakur_f_gen(r.step, f.cols, f.tiles());
    if (formula != contention_formula::none) a.paper_f.push_back(paper);

    if (r.transfers == 0) continue;
    const double bytes = static_cast<double>(r.max_bytes);
    const double beta = r.all_exchange ? m.ex() : m.sr();
    a.est.alphabeta += m.alpha + m.beta * bytes;
    a.est.thakur += thakur_step(m.alpha, bytes, beta, m.sat(), r.max_link_load);
    if (formula != contention_formula::none) {
      a.est.thakur_paper =
          a.est.thakur_paper.value_or(0.0) + thakur_step(m.alpha, bytes, beta, m.sat(), paper);
    }
  }

  if (sw == switching::circuit) {
    a.slots = schedule_slots(f, a.list);
    a.steps = a.slots->slots;
    circuit_estimate(f, s, m, a);
  } else {
    a.steps = a.rounds;
  }
  return a;
}

}  // namespace tessera::analytic
