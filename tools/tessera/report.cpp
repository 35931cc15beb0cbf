#include "report.hpp"

#include <iomanip>
#include <map>
#include <sstream>

#include "tessera/analytic/chart.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/runtime/routing.hpp"
#include "tessera/schedule/resolve.hpp"

namespace tessera::cli {
namespace {

using nlohmann::json;

std::string link_text(const fabric& f, link_id l) {
  const auto e = endpoints(f, l);
  return std::to_string(e.from.value()) + ">" + std::to_string(e.to.value());
}

json params_json(const analytic::model_params& m) {
  return {{"alpha", m.alpha},    {"beta", m.beta}, {"beta_ex", m.ex()}, {"beta_sr", m.sr()},
          {"beta_sat", m.sat()}, {"xi", m.xi},     {"tau", m.tau},      {"width", m.width}};
}

std::string cycles(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(0) << v;
  return os.str();
}

}  // namespace

analyze_result run_analysis(workload w) {
  analyze_result r;
  r.w = std::move(w);
  // What the schedule moves, decided as `run` decides it: sizes that clash are refused.
  r.bytes_checked = resolve_schedule(r.w.sched).bytes_checked;
  r.check = check_schedule(r.w.sched);
  r.verdict = verdict_of(r.check.ok(), r.bytes_checked);
  r.an = analytic::analyze(r.w.sched, r.w.fab, r.w.sw, r.w.params);
  return r;
}

std::string load_histogram(const analytic::analysis& an) {
  std::map<std::uint32_t, std::uint32_t> h;
  for (const auto& r : an.per_round) {
    if (r.transfers > 0) ++h[r.max_link_load];
  }
  std::string out;
  for (const auto& [load, n] : h) {
    if (!out.empty()) out += ' ';
    out += std::to_string(load);
    out += ':';
    out += std::to_string(n);
  }
  return out;
}

json to_json(const analyze_result& r) {
  const auto& an = r.an;
  const fabric& f = r.w.fab;
  json j;
  j["command"] = "analyze";
  j["fabric"] = r.w.fabric_spec;
  j["tiles"] = f.tiles();
  j["collective"] = r.w.collective;
  j["algorithm"] = r.w.algorithm;
  j["switching"] = std::string(models::switching_name(an.sw));
  j["bytes"] = r.w.bytes;
  j["steps"] = an.steps;
  j["rounds"] = an.rounds;
  j["transfers"] = an.transfers;
  j["max_link_load"] = an.max_link_load;
  j["delivers_all_blocks"] = r.check.delivers_all_blocks;
  // As `run` reports them: verified needs a data byte to check.
  j["verified"] = r.verdict == verdict::verified;
  j["bytes_checked"] = r.bytes_checked;
  j["check"] = {{"completed", r.check.completed},
                {"messages", r.check.messages},
                {"block_receipts", r.check.block_receipts},
                {"error_count", r.check.error_count},
                {"errors", r.check.errors}};
  if (!r.check.deadlock.empty()) {
    json d = json::array();
    for (const auto& s : r.check.deadlock) {
      d.push_back({{"tile", s.tile}, {"op", s.op_index}, {"waits_for", s.waits_for}});
    }
    j["check"]["deadlock"] = d;
    j["check"]["deadlock_cycle"] = r.check.deadlock_cycle;
  }

  json rounds = json::array();
  for (std::size_t i = 0; i < an.per_round.size(); ++i) {
    const auto& pr = an.per_round[i];
    json e = {{"step", pr.step},
              {"transfers", pr.transfers},
              {"max_link_load", pr.max_link_load},
              {"bytes", pr.max_bytes},
              {"max_hops", pr.max_hops}};
    if (pr.max_link_load > 0) e["hottest_link"] = link_text(f, pr.hottest);
    if (!an.paper_f.empty()) e["paper_f"] = an.paper_f[i];
    rounds.push_back(std::move(e));
  }
  if (an.slots) {
    // Circuit: a step is a slot; the rounds keep the contention the algorithm asks for.
    json slots = json::array();
    for (std::size_t s = 0; s < an.slots->transfers_per_slot.size(); ++s) {
      const auto n = an.slots->transfers_per_slot[s];
      slots.push_back({{"step", s + 1}, {"transfers", n}, {"max_link_load", n > 0 ? 1 : 0}});
    }
    j["per_step"] = std::move(slots);
    j["per_round"] = std::move(rounds);
    j["slots"] = {{"count", an.slots->slots},
                  {"delayed_transfers", an.slots->delayed},
                  {"min_link_reuse_gap", an.slots->min_reuse_gap},
                  {"stable", an.slots->min_reuse_gap == 0 || an.slots->min_reuse_gap >= 2}};
  } else {
    j["per_step"] = std::move(rounds);
  }

  json est = {{"alphabeta_cycles", an.est.alphabeta}, {"thakur_cycles", an.est.thakur}};
  if (an.est.thakur_paper) est["thakur_paper_f_cycles"] = *an.est.thakur_paper;
  if (an.est.boppana) est["boppana_cycles"] = *an.est.boppana;
  if (an.est.boppana_paper) est["boppana_paper_cycles"] = *an.est.boppana_paper;
  j["estimates"] = std::move(est);
  j["params"] = params_json(r.w.params);
  return j;
}

std::string to_text(const analyze_result& r) {
  const auto& an = r.an;
  const fabric& f = r.w.fab;
  std::ostringstream os;
  os << (r.w.collective.empty() ? "schedule" : r.w.collective)
     << (r.w.algorithm.empty() ? "" : " / " + r.w.algorithm) << " on " << r.w.fabric_spec << " ("
     << f.tiles() << " tiles), " << models::switching_name(an.sw) << " switching, ";
  if (r.w.bytes != 0) {
    os << r.w.bytes << " bytes per block\n";
  } else {
    os << "bytes per op as scheduled\n";
  }
  os << "  delivery check : ";
  if (r.verdict == verdict::failed) {
    os << "FAILED";
  } else {
    os << "every block delivered exactly once";
    if (r.verdict == verdict::nothing_checked) os << ", but " << nothing_checked_text;
  }
  os << " (" << r.check.messages << " messages, " << r.check.block_receipts << " block receipts, "
     << r.bytes_checked << " bytes to check)\n";
  for (const auto& e : r.check.errors)
    os << "    " << e << '\n';
  os << "  rounds         : " << an.rounds << '\n';
  if (an.slots) {
    os << "  slots (steps)  : " << an.slots->slots << "  (" << an.slots->delayed
       << " transfers delayed by conflicts)\n";
    os << "  link reuse gap : " << an.slots->min_reuse_gap
       << (an.slots->min_reuse_gap >= 2 || an.slots->min_reuse_gap == 0
               ? "  (stable: no link used in consecutive slots)\n"
               : "  (not stable)\n");
  }
  os << "  max link load  : " << an.max_link_load << "  (rounds by load " << load_histogram(an)
     << ")\n";
  os << "  estimates      : alpha-beta " << cycles(an.est.alphabeta) << ", Thakur (exact f) "
     << cycles(an.est.thakur);
  if (an.est.thakur_paper) os << ", Thakur (paper f) " << cycles(*an.est.thakur_paper);
  if (an.est.boppana) os << ", Boppana " << cycles(*an.est.boppana);
  if (an.est.boppana_paper) os << ", Boppana closed form " << cycles(*an.est.boppana_paper);
  os << " cycles\n\n";

  os << "  round transfers max_load" << (an.paper_f.empty() ? "" : " paper_f")
     << "  bytes  hottest\n";
  for (std::size_t i = 0; i < an.per_round.size(); ++i) {
    const auto& pr = an.per_round[i];
    os << std::setw(7) << pr.step << std::setw(10) << pr.transfers << std::setw(9)
       << pr.max_link_load;
    if (!an.paper_f.empty()) os << std::setw(8) << an.paper_f[i];
    os << std::setw(7) << pr.max_bytes << "  "
       << (pr.max_link_load ? link_text(f, pr.hottest) : "-") << '\n';
  }
  return os.str();
}

void require_chartable(const workload& w) {
  if (w.fab.tiles() > analytic::max_chart_tiles) {
    throw input_error("--chart on " + w.fabric_spec + " (" + std::to_string(w.fab.tiles()) +
                      " tiles): charts are limited to " +
                      std::to_string(analytic::max_chart_tiles) + " tiles");
  }
}

std::string chart_text(const analyze_result& r) {
  std::vector<std::uint32_t> number;
  if (r.an.slots) {
    number = r.an.slots->slot_of;
  } else {
    for (const auto& t : r.an.list.all)
      number.push_back(t.step);
  }
  return analytic::link_chart(r.w.fab, r.an.list, number);
}

std::string failure_line(const analyze_result& r) {
  if (!r.check.errors.empty()) return r.check.errors.front();
  return "schedule check failed";
}

}  // namespace tessera::cli
