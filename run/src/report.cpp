#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <string>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/edst_bcast.hpp"
#include "tessera/schedule/verdict.hpp"

namespace tessera::run::detail {

std::optional<edst_plan> plan_edst(run_config& r, double beta, double tau) {
  fw::tree_family fam{};
  if (!fw::is_edst(r.c, fam)) return std::nullopt;
  edst_plan e;
  e.family = fam;
  e.trees = fw::info(fam).trees;
  e.depth = fw::family_depth(fam, r.c.f);
  const double L = r.c.bytes;
  const double d = e.trees;
  const double h = e.depth;
  const std::uint32_t most = r.c.bytes / e.trees;  // every packet keeps a byte
  if (most == 0) {
    throw input_error("--bytes " + std::to_string(r.c.bytes) + " is less than one byte per tree (" +
                      std::to_string(e.trees) + " trees)");
  }
  auto slots = [&](std::uint32_t q) { return fw::edst_slots(fam, r.c.f, q); };
  auto time = [&](std::uint32_t q) {
    return static_cast<double>(slots(q)) * (beta + tau * std::ceil(L / (d * q)));
  };
  if (r.packets > 0) {
    if (r.packets > most) {
      throw input_error("--packets " + std::to_string(r.packets) + " is more than the " +
                        std::to_string(most) + " bytes of each tree's part (--bytes " +
                        std::to_string(r.c.bytes) + " over " + std::to_string(e.trees) + " tree" +
                        (e.trees > 1 ? "s" : "") + ")");
    }
    e.packets = r.packets;
  } else {
    // Bermond92 §2.1: b is least at q* = sqrt((h - 1) tau L / (d beta)); take the better
    // whole count next to it.
    e.automatic = true;
    const double star = beta > 0 ? std::sqrt((h - 1) * tau * L / (d * beta)) : most;
    const auto lo =
        static_cast<std::uint32_t>(std::clamp(std::floor(star), 1.0, static_cast<double>(most)));
    const std::uint32_t hi = std::min(lo + 1, most);
    e.packets = time(hi) < time(lo) ? hi : lo;
  }
  r.c.packets = e.packets;
  e.slots = slots(e.packets);
  e.pipeline = static_cast<double>(e.slots) * (beta + tau * L / (d * e.packets));
  const double root = std::sqrt((h - 1) * beta) + std::sqrt(tau * L / d);
  e.b = root * root;
  if (fam == fw::tree_family::saad_schultz && tau > 0 && h > 1) {
    e.l0 = beta / (2 * tau) * h * h / (h - 1);
    e.paper = L <= e.l0 ? e.b
                        : e.b + tau * L / 2 + std::sqrt(beta * tau * L * (h - 1) / 2) -
                              h / 2 * (beta + std::sqrt(beta * tau * L / (2 * (h - 1))));
  }
  return e;
}

void put_edst(nlohmann::ordered_json& j, const edst_plan& e) {
  j["packets"] = e.packets;
  j["packets_automatic"] = e.automatic;
  j["trees"] = e.trees;
  j["tree_depth"] = e.depth;
  j["pipeline"] = {{"formula", e.family == fw::tree_family::saad_schultz
                                   ? "max(h + q - 1, 2q + line - 1) (beta + tau L / (d q))"
                                   : "(h + q - 1) (beta + tau L / (d q))"},
                   {"slots", e.slots},
                   {"cycles", e.pipeline}};
  j["b"] = {{"formula", "(sqrt((h - 1) beta) + sqrt(tau L / d))^2"},
            {"source", "Bermond92 §2.1"},
            {"cycles", e.b}};
  if (e.family == fw::tree_family::saad_schultz && e.l0 > 0) {
    j["saad_schultz"] = {{"L0", e.l0},
                         {"regime", e.b == e.paper ? "L <= L0: the fill-in hides in the empty phase"
                                                   : "L > L0: the fill-in outlasts the pipeline"},
                         {"source", "Bermond92 §2.3"},
                         {"cycles", e.paper}};
  }
}

void print_edst(std::ostream& os, const edst_plan& e) {
  os << "  trees       " << e.trees << " of depth " << e.depth << ", " << e.packets
     << " packets per tree" << (e.automatic ? " (from the optimum of b)" : "") << '\n';
  os << "  pipeline    " << e.slots << " slots = " << e.pipeline << " cycles; b(L, h, d) = " << e.b
     << '\n';
  if (e.family == fw::tree_family::saad_schultz && e.l0 > 0) {
    os << "  fill-in     L0 = " << e.l0 << " bytes; Bermond92 §2.3 gives " << e.paper
       << " cycles\n";
  }
}

std::string collective_title(const run_config& r) {
  if (r.own_contract) return r.contract_name + " (the image's own contract)";
  return std::string(fw::info(r.c.coll).name) + " (" + r.algorithm + ")";
}

void put_collective(nlohmann::ordered_json& j, const run_config& r) {
  if (r.own_contract) {
    // An image's own contract: its name, and the blocks' size, type and reduction.
    j["collective"] = r.contract_name;
    j["algorithm"] = "image";
    j["contract"] = "image";
    j["bytes"] = r.c.bytes;
    j["type"] = std::string(info(r.c.type).name);
    j["op"] = std::string(reduce_op_name(r.c.rop));
    j["protocol"] = std::string(protocol_name(r.proto));
    j["prepost"] = r.prepost;
    return;
  }
  const fw::collective_info& ci = fw::info(r.c.coll);
  j["collective"] = std::string(ci.name);
  j["algorithm"] = r.algorithm;
  if (ci.rooted) j["root"] = r.c.root;
  if (r.c.coll == fw::collective::shift) j["shift"] = r.c.shift;
  j["bytes"] = r.c.bytes;
  if (ci.reduction) {
    j["type"] = std::string(info(r.c.type).name);
    j["op"] = std::string(reduce_op_name(r.c.rop));
  }
  j["protocol"] = std::string(protocol_name(r.proto));
  j["prepost"] = r.prepost;
  if (r.choice) {
    nlohmann::ordered_json c;
    c["chosen"] = r.choice->ranked.front().algorithm;
    c["runner_up"] = r.choice->ranked.size() > 1
                         ? nlohmann::ordered_json(r.choice->ranked[1].algorithm)
                         : nlohmann::ordered_json(nullptr);
    c["engine"] = r.choice->engine;
    c["estimates"] = nlohmann::ordered_json::array();
    for (const auto& e : r.choice->ranked) {
      c["estimates"].push_back(
          {{"algorithm", e.algorithm}, {"cycles", e.cycles}, {"same_schedule", e.same_schedule}});
    }
    j["algorithm_choice"] = c;
  }
}

void print_choice(std::ostream& os, const run_config& r) {
  if (!r.choice) return;
  const auto& ranked = r.choice->ranked;
  const auto& best = ranked.front();
  auto names = [](const algorithm_estimate& e) {
    std::string s = e.algorithm;
    for (const auto& n : e.same_schedule)
      s += "=" + n;
    return s;
  };
  os << "  auto        " << names(best) << ", estimated " << std::fixed << std::setprecision(0)
     << best.cycles << " cycles (" << r.choice->engine << ")";
  if (ranked.size() > 1) {
    const auto& next = ranked[1];
    os << "; runner-up " << names(next) << " " << next.cycles << " (+" << std::setprecision(1)
       << 100.0 * (next.cycles - best.cycles) / best.cycles << " %)";
  }
  os << std::defaultfloat << std::setprecision(6) << '\n';
}

void put_outcome(nlohmann::ordered_json& j, const harness::run_outcome& o, double us_per_cycle) {
  j["cycles"] = o.cycles;
  if (us_per_cycle > 0) j["time_us"] = static_cast<double>(o.cycles) * us_per_cycle;
  j["verified"] = o.verified;
  j["completed"] = o.completed;
  j["bytes_checked"] = o.bytes_checked;
  if (!o.verified && !o.nothing_checked) j["failure"] = o.failure;
  j["messages"] = o.data_messages;
  j["control_messages"] = o.control_messages;
  j["dropped"] = o.dropped;
  j["memory_bytes"] = o.memory_bytes;
  if (o.timed_out) j["timed_out"] = true;
  if (!o.faults.empty()) put_faults(j, o.faults, o.lost, o.lost_total);
  if (o.reliable.acks_sent > 0 || o.reliable.retransmissions > 0) {
    j["reliable"] = {{"retransmissions", o.reliable.retransmissions},
                     {"timeout_cycles", o.reliable.timeout_cycles},
                     {"rejected_damaged", o.reliable.rejected_damaged},
                     {"rejected_duplicate", o.reliable.rejected_duplicate},
                     {"rejected_gap", o.reliable.rejected_gap},
                     {"acks", o.reliable.acks_sent}};
  }
}

void put_faults(nlohmann::ordered_json& j, const std::vector<harness::fault_report>& faults,
                const std::vector<harness::lost_report>& lost, std::uint64_t lost_total) {
  auto fs = nlohmann::ordered_json::array();
  for (const harness::fault_report& f : faults) {
    nlohmann::ordered_json e{{"fault", f.fault}, {"kind", f.kind}, {"acted", f.acted}};
    if (f.acted) e["first_cycle"] = f.first_cycle;
    if (f.kind == "stall") {
      e["held_cycles"] = f.held_cycles;
    } else {
      e["messages"] = f.messages;
    }
    fs.push_back(std::move(e));
  }
  j["faults"] = std::move(fs);
  auto ls = nlohmann::ordered_json::array();
  for (const harness::lost_report& l : lost) {
    ls.push_back({{"tile", l.tile},
                  {"source", l.source},
                  {"block", l.block},
                  {"step", l.step},
                  {"kind", l.kind},
                  {"cycle", l.cycle},
                  {"cause", l.cause},
                  {"fault", l.fault}});
  }
  j["lost"] = std::move(ls);
  if (lost_total > lost.size()) j["lost_omitted"] = lost_total - lost.size();
}

void print_faults(std::ostream& os, const std::vector<harness::fault_report>& faults,
                  std::uint64_t lost_total) {
  for (const harness::fault_report& f : faults) {
    os << "  fault       " << f.fault << ": ";
    if (!f.acted) {
      os << "did not act\n";
    } else if (f.kind == "stall") {
      os << "held the tile " << f.held_cycles << " cycles from cycle " << f.first_cycle << '\n';
    } else {
      os << f.messages << " message" << (f.messages == 1 ? "" : "s") << " from cycle "
         << f.first_cycle << '\n';
    }
  }
  if (!faults.empty()) os << "  lost        " << lost_total << " messages\n";
}

// per_transfer[]: the first 4096 messages, or all of them with --transfers.
void put_transfers(nlohmann::ordered_json& j, const std::vector<harness::transfer_record>& all,
                   bool every) {
  const std::size_t limit = every ? all.size() : 4096;
  auto arr = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < all.size() && i < limit; ++i) {
    const auto& t = all[i];
    arr.push_back({{"src", t.header.src},
                   {"dst", t.header.dst},
                   {"kind", std::string(msg_kind_name(t.header.kind))},
                   {"step", t.header.tag},
                   {"bytes", t.header.bytes},
                   {"start", t.start},
                   {"end", t.end}});
  }
  j["per_transfer"] = std::move(arr);
  if (limit < all.size()) j["per_transfer_omitted"] = all.size() - limit;
}

void put_steps_tiles(nlohmann::ordered_json& j, const harness::run_outcome& o) {
  auto steps = nlohmann::ordered_json::array();
  for (const auto& s : o.steps) {
    steps.push_back({{"step", s.step},
                     {"start", s.start},
                     {"end", s.end},
                     {"cycles", s.end - s.start},
                     {"messages", s.messages},
                     {"bytes", s.bytes}});
  }
  j["per_step"] = std::move(steps);
  auto tiles = nlohmann::ordered_json::array();
  for (std::size_t t = 0; t < o.tiles.size(); ++t) {
    tiles.push_back({{"tile", t},
                     {"finish", o.tiles[t].finish},
                     {"messages", o.tiles[t].messages},
                     {"bytes", o.tiles[t].bytes},
                     {"peak_blocks", o.tiles[t].peak_blocks}});
  }
  j["per_tile"] = std::move(tiles);
}

std::string verified_text(bool verified, bool nothing_checked, std::uint64_t bytes_checked) {
  if (verified) return "yes, " + std::to_string(bytes_checked) + " bytes checked";
  if (nothing_checked) return "no, " + std::string(nothing_checked_text);
  return "NO";
}

void print_outcome(std::ostream& os, const harness::run_outcome& o) {
  os << "  cycles      " << o.cycles << '\n';
  os << "  verified    " << verified_text(o.verified, o.nothing_checked, o.bytes_checked) << '\n';
  os << "  messages    " << o.data_messages << " data, " << o.control_messages << " control, "
     << o.dropped << " dropped\n";
  print_faults(os, o.faults, o.lost_total);
  if (o.reliable.acks_sent > 0 || o.reliable.retransmissions > 0) {
    os << "  reliable    " << o.reliable.retransmissions << " retransmissions ("
       << o.reliable.timeout_cycles << " cycles of expired timers), " << o.reliable.rejected_damaged
       << " damaged, " << o.reliable.rejected_duplicate << " duplicates, "
       << o.reliable.rejected_gap << " out of order, " << o.reliable.acks_sent << " acks\n";
  }
  os << "  steps       " << o.steps.size() << '\n';
  const std::size_t listed = o.steps.size() <= 16 ? o.steps.size() : 16;
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& s = o.steps[i];
    os << "    step " << s.step << ": cycles " << s.start << ".." << s.end << " ("
       << s.end - s.start << "), " << s.messages << " messages, " << s.bytes << " bytes\n";
  }
  if (listed < o.steps.size()) os << "    ... " << o.steps.size() - listed << " more steps\n";
}

}  // namespace tessera::run::detail
