#include "tessera/run/choose.hpp"

#include <algorithm>
#include <utility>

#include "report.hpp"
#include "tessera/analytic/link_load.hpp"
#include "tessera/analytic/transfers.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/models/estimate.hpp"
#include "tessera/schedule/build.hpp"

namespace tessera::run {
namespace {

// Two schedules whose tiles run the same op streams (same peers, sizes and rounds).
bool same_ops(const schedule& a, const schedule& b) {
  if (a.programs.size() != b.programs.size()) return false;
  for (std::size_t t = 0; t < a.programs.size(); ++t) {
    const auto& x = a.programs[t].ops;
    const auto& y = b.programs[t].ops;
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (x[i].kind != y[i].kind || x[i].to != y[i].to || x[i].from != y[i].from ||
          x[i].send_bytes != y[i].send_bytes || x[i].recv_bytes != y[i].recv_bytes ||
          x[i].step != y[i].step || x[i].count != y[i].count) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

timing timing_of(const run_config& config) {
  const models::model_info* m = models::find_model(config.model);
  if (m != nullptr && models::is_platform(*m)) return detail::platform_timing(config);
  timing t;
  t.sw = models::switching::ideal;
  for (const auto& [key, val] : config.params) {
    if (models::find_param(models::switching::ideal, key) != nullptr)
      models::set_param(t.params, models::switching::ideal, key, val);
  }
  return t;
}

algorithm_choice choose_algorithm(const run_config& config) {
  if (config.c.coll != fw::collective::alltoall) {
    throw input_error("--algorithm auto chooses among the alltoall algorithms; give " +
                      std::string(fw::info(config.c.coll).name) + " an algorithm by name");
  }
  const timing tm = timing_of(config);
  const fabric& f = config.c.f;
  algorithm_choice out;
  out.engine = std::string(models::switching_name(tm.sw));
  std::vector<schedule> kept;
  // Per kept schedule: its rounds and its largest round link load, for ties.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ties;
  for (const auto& a : fw::a2a_algorithms) {
    if (!fw::a2a_supported(a.alg, f)) continue;
    if (config.c.pair_sync && !fw::a2a_has_exchanges(a.alg)) continue;
    schedule s = build_alltoall(a.alg, f, config.c.bytes);
    bool same = false;
    for (std::size_t k = 0; k < kept.size() && !same; ++k) {
      if (same_ops(kept[k], s)) {
        out.ranked[k].same_schedule.emplace_back(a.name);
        same = true;
      }
    }
    if (same) continue;
    const models::engine_estimate e = models::estimate_on_engine(s, f, tm.sw, tm.params);
    if (!e.complete) continue;  // not reached: every catalog schedule completes
    out.ranked.push_back({std::string(a.name), e.cycles, {}});
    // Equal estimates (the ideal network has no links to contend for) go to the
    // schedule with fewer rounds, then to the one whose rounds load the links least:
    // each costs where the estimate does not look (a round's stragglers, contention).
    const auto rounds = analytic::round_loads(f, analytic::extract_transfers(s));
    std::uint32_t load = 0;
    for (const auto& r : rounds)
      load = std::max(load, r.max_link_load);
    ties.emplace_back(static_cast<std::uint32_t>(rounds.size()), load);
    kept.push_back(std::move(s));
  }
  if (out.ranked.empty()) throw input_error("--algorithm auto: no alltoall algorithm applies");
  std::vector<std::size_t> order(out.ranked.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    const double a = out.ranked[x].cycles;
    const double b = out.ranked[y].cycles;
    return a != b ? a < b : ties[x] < ties[y];
  });
  std::vector<algorithm_estimate> ranked;
  ranked.reserve(order.size());
  for (std::size_t i : order)
    ranked.push_back(std::move(out.ranked[i]));
  out.ranked = std::move(ranked);
  return out;
}

}  // namespace tessera::run
