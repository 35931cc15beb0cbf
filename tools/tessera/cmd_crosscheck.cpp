// `tessera crosscheck --models A,B <run options>`: one workload on two models, compared
// message by message (tessera/harness/compare.hpp). SystemC elaborates once per process,
// so each model runs in a child process of its own (fork), which hands its run's JSON
// back through a pipe.

#include <algorithm>
#include <array>
#include <filesystem>
#include <iostream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "run_options.hpp"
#include "run_request.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/common/isolated.hpp"
#include "tessera/harness/compare.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/run/run.hpp"

namespace tessera::cli {

command_line crosscheck_command_line() {
  command_line c(
      "crosscheck", "tessera crosscheck --models A,B [--tolerance N|P%] [--json] <run options>",
      R"(Runs one workload (the options of `tessera run`, without --model) on two models and
compares every message: its start and its delivery cycle. A message is named by its
source, destination, kind and step and how many such came before it, so the two runs'
messages pair up even where their times differ. A --traffic run's messages are its
packets (the step is the packet's number at its source).)");
  c.group("crosscheck")
      .value("models", "A,B",
             "two of: alphabeta, tlm, rtl (`tessera models`); a model twice is allowed")
      .value("tiles", "A,B",
             "each model's tiles: native (default) or cortex-m4 (the tile image on an ISS core "
             "per tile, docs/tiles.md); one value applies to both; the processor's --param "
             "values (cpu_mhz, fabric_mhz, cpi, quantum) and --firmware go to the cortex-m4 side "
             "only")
      .value("tolerance", "T",
             "the runs agree when no message differs by more than T cycles, or by more than P % "
             "of the longer run's cycles (default 0: exact)")
      .flag("json",
            "one JSON object: models[] (model, cycles, verified, exit_status), messages, "
            "unmatched, differing, identical, max_delta_cycles, tolerance_cycles, agree, "
            "first_divergence (null, or src, dst, kind, step, occurrence and each model's start "
            "and delivered)")
      .brief_group("run options",
                   "the workload and the options of tessera run (tessera run --help), given to "
                   "both models; every message is compared, so --transfers is not taken");
  // Each model runs in a child process that writes no trace and no heat map: trace a
  // model's run with tessera run.
  const std::set<std::string> one_run{"trace",   "timeline",       "trace-tiles",  "trace-window",
                                      "heatmap", "heatmap-metric", "heatmap-steps"};
  std::set<std::string> left_out = one_run;
  left_out.insert({"model", "tiles", "json", "transfers", "gdb"});
  declare_run_options(c, left_out, false);
  for (const std::string& name : one_run) {
    c.refuse(name, "--" + name +
                       " does not go with crosscheck (it compares two runs; trace or draw one "
                       "model's run with tessera run)");
  }
  c.refuse("gdb",
           "--gdb does not go with crosscheck (its two runs are child processes; debug a tile in "
           "one model's run with tessera run)");
  c.refuse("transfers",
           "--transfers does not go with crosscheck (it compares every message already; list "
           "one model's transfers with tessera run --transfers)");
  c.refuse("model", "crosscheck takes --models A,B, not --model")
      .footer(
          "exit status: 0 both runs verified (or had nothing to check) and agree within the\n"
          "tolerance, 1 they differ or a run failed, 2 bad input (the run's own refusal, or\n"
          "crosscheck's).");
  return c;
}

namespace {

// A byte bound on a child's report: per_transfer of a large complete exchange runs to
// hundreds of megabytes.
constexpr std::size_t max_report_bytes = std::size_t{1} << 30;

struct model_run {
  std::string model;
  int status{0};
  nlohmann::json report;
};

// The options read once per model (so bad input is refused before anything runs), then
// the run in a child process: SystemC elaborates once per process. With `cpu_side_only`
// (this model's tiles are native, the other's cortex-m4) the processor's options go to
// the other model only; with native tiles on both, they reach the run, which refuses them.
// The per-VC statistics of two runs' channels (docs/wormhole.md, "Statistics"), where both
// count them: the channels compared, those whose counts differ, and the first of those.
struct vc_comparison {
  std::size_t compared{0};
  std::size_t differing{0};
  std::string first;  // "link 5->6 E" or "inject 3", with both sides' counts
};

vc_comparison compare_vc_stats(const model_run& a, const model_run& b) {
  vc_comparison out;
  const auto key = [](const nlohmann::json& l) {
    const std::string name = l.value("link", std::string{});
    const auto from = l.value("from", 0U);
    const auto to = l.value("to", 0U);
    return from == to ? name + " " + std::to_string(from)
                      : "link " + std::to_string(from) + "->" + std::to_string(to) + " " + name;
  };
  std::map<std::string, nlohmann::json> theirs;
  for (const auto& l : b.report.value("links", nlohmann::json::array()))
    if (l.contains("vcs")) theirs[key(l)] = l["vcs"];
  if (theirs.empty()) return out;
  std::map<std::string, nlohmann::json> ours;
  for (const auto& l : a.report.value("links", nlohmann::json::array()))
    if (l.contains("vcs")) ours[key(l)] = l["vcs"];
  if (ours.empty()) return out;
  for (const auto& [k, v] : ours) {
    ++out.compared;
    const auto it = theirs.find(k);
    if (it != theirs.end() && it->second == v) continue;
    ++out.differing;
    if (out.first.empty()) {
      out.first = k + ": " + a.model + " " + v.dump() + ", " + b.model + " " +
                  (it == theirs.end() ? std::string("(none)") : it->second.dump());
    }
  }
  for (const auto& [k, v] : theirs) {
    if (ours.count(k) != 0) continue;
    ++out.compared;
    ++out.differing;
    if (out.first.empty()) out.first = k + ": " + a.model + " (none), " + b.model + " " + v.dump();
  }
  return out;
}

// The energy events of two runs (docs/ppa.md, "Energy"), where both count them: per
// router and per link, the places compared, those whose counts differ, and the first.
vc_comparison compare_energy(const model_run& a, const model_run& b) {
  vc_comparison out;
  if (!a.report.contains("energy") || !b.report.contains("energy")) return out;
  const auto places = [](const nlohmann::json& e) {
    std::map<std::string, nlohmann::json> m;
    for (const auto& r : e.value("routers", nlohmann::json::array()))
      m["router " + std::to_string(r.value("tile", 0U))] = r.value("events", nlohmann::json{});
    for (const auto& l : e.value("links", nlohmann::json::array())) {
      m["link " + std::to_string(l.value("from", 0U)) + "->" + std::to_string(l.value("to", 0U)) +
        " " + l.value("link", std::string{})] = l.value("units", 0ULL);
    }
    return m;
  };
  const auto ours = places(a.report["energy"]);
  const auto theirs = places(b.report["energy"]);
  const auto differ = [&](const std::string& k, const nlohmann::json* x, const nlohmann::json* y) {
    ++out.differing;
    if (out.first.empty()) {
      out.first = k + ": " + a.model + " " + (x != nullptr ? x->dump() : "(none)") + ", " +
                  b.model + " " + (y != nullptr ? y->dump() : "(none)");
    }
  };
  for (const auto& [k, v] : ours) {
    ++out.compared;
    const auto it = theirs.find(k);
    if (it == theirs.end()) {
      differ(k, &v, nullptr);
    } else if (it->second != v) {
      differ(k, &v, &it->second);
    }
  }
  for (const auto& [k, v] : theirs) {
    if (ours.count(k) != 0) continue;
    ++out.compared;
    differ(k, nullptr, &v);
  }
  return out;
}

model_run run_model(const std::string& model, const std::string& other,
                    const std::vector<std::string>& options, const std::string& tiles,
                    bool cpu_side_only) {
  std::vector<std::string> argv{"--model", model};
  if (tiles != "native") {
    argv.emplace_back("--tiles");
    argv.emplace_back(tiles);
  }
  if (!cpu_side_only) {
    argv.insert(argv.end(), options.begin(), options.end());
  } else {
    // The processor's parameters describe the Cortex-M4 side only.
    auto cpu_param = [](const std::string& kv) {
      for (const models::param& q : models::cpu_params_table())
        if (kv.rfind(std::string(q.key) + "=", 0) == 0) return true;
      return false;
    };
    for (std::size_t i = 0; i < options.size(); ++i) {
      if ((options[i] == "--param" && i + 1 < options.size() && cpu_param(options[i + 1])) ||
          (options[i] == "--firmware" && i + 1 < options.size())) {
        ++i;
        continue;
      }
      argv.push_back(options[i]);
    }
  }
  argv.emplace_back("--json");
  // Every message: a pattern run lists every transfer anyway.
  const bool pattern = std::any_of(options.begin(), options.end(), [](const std::string& o) {
    return o == "--pattern" || o.rfind("--pattern=", 0) == 0;
  });
  if (!pattern) argv.emplace_back("--transfers");
  command_line run_cl = run_command_line();
  const args a(run_cl, argv);
  run_request q = parse_request(a);
  // Both runs take both models' own defaults: the RTL torus's packet size on the TLM
  // side too, so the two cut messages alike and compare message by message.
  q.config.default_models.push_back(other);
  std::cout.flush();
  std::cerr.flush();
  const tessera::isolated_result child = tessera::run_isolated_process(
      [&]() -> std::pair<std::string, int> {
        try {
          const std::unique_ptr<run::run_result> res = run::run(std::move(q.config));
          return {res->json().dump(), res->exit_status()};
        } catch (const input_error& e) {
          return {nlohmann::json{{"error", e.what()}}.dump(), 2};
        } catch (const std::bad_alloc&) {
          return {nlohmann::json{{"error", "out of memory"}}.dump(), 2};
        } catch (const std::exception& e) {
          return {nlohmann::json{{"error", "internal error (please report it with the command): " +
                                               shown(e.what(), 200)}}
                      .dump(),
                  2};
        }
      },
      max_report_bytes);
  if (!child.failure.empty())
    throw input_error("crosscheck: --model " + model + ": " + child.failure);
  if (child.too_long)
    throw input_error("crosscheck: a model's report exceeds 1 GiB; run a smaller workload");
  if (!child.exited) {
    throw input_error("crosscheck: the --model " + model + " run ended abnormally (signal " +
                      std::to_string(child.signal) + ")");
  }
  model_run r;
  r.model = tiles == "native" ? model : model + " (" + tiles + ")";
  r.status = child.exit_status;
  const std::string& text = child.text;
  r.report = parse_json_text(text, "the --model " + model + " report");
  if (r.status == 2) {
    const auto e = r.report.find("error");
    throw input_error(e != r.report.end() && e->is_string() ? e->get<std::string>()
                                                            : "--model " + model + ": bad input");
  }
  return r;
}

std::vector<harness::message_times> messages_of(const model_run& r) {
  const auto it = r.report.find("per_transfer");
  if (it == r.report.end() || !it->is_array()) {
    throw input_error("crosscheck: the --model " + r.model + " run lists no messages");
  }
  std::vector<harness::message_times> out;
  out.reserve(it->size());
  for (const auto& e : *it) {
    harness::message_times m;
    m.src = e.at("src").get<std::uint32_t>();
    m.dst = e.at("dst").get<std::uint32_t>();
    m.bytes = e.at("bytes").get<std::uint64_t>();
    if (e.contains("transfer")) {  // a pattern's transfer: named by its index
      m.kind = "transfer";
      m.step = e.at("transfer").get<std::uint64_t>();
      m.start = e.at("started").get<std::uint64_t>();
      m.delivered = e.at("delivered").get<std::uint64_t>();
    } else {
      m.kind = e.at("kind").get<std::string>();
      m.step = e.at("step").get<std::uint64_t>();
      m.start = e.at("start").get<std::uint64_t>();
      m.delivered = e.at("end").get<std::uint64_t>();
    }
    out.push_back(std::move(m));
  }
  return out;
}

// "N" cycles or "P%" of the longer run.
struct tolerance {
  std::uint64_t cycles{0};
  double percent{-1};
};

tolerance parse_tolerance(const std::string& text) {
  tolerance t;
  if (!text.empty() && text.back() == '%') {
    const std::string num = text.substr(0, text.size() - 1);
    char* end = nullptr;
    const double v = std::strtod(num.c_str(), &end);
    if (num.empty() || end == nullptr || *end != '\0' || !(v >= 0.0 && v <= 100.0))
      throw input_error("--tolerance '" + shown(text) + "' is not N cycles or P% with P in 0..100");
    t.percent = v;
    return t;
  }
  t.cycles = parse_count("tolerance", text, std::uint64_t{1} << 60);
  return t;
}

nlohmann::ordered_json times_json(const std::string& model, const harness::message_times& m) {
  return {{"model", model}, {"start", m.start}, {"delivered", m.delivered}};
}

}  // namespace

int cmd_crosscheck(const args& opts, std::ostream& out, std::ostream& err) {
  const bool json = opts.flag("json");
  const std::optional<std::string> models_text = opts.get("models");
  const std::optional<std::string> tol_text = opts.get("tolerance");
  const std::optional<std::string> tiles_text = opts.get("tiles");
  // The run options, in their order, for each model's run.
  std::vector<std::string> options;
  for (const std::string& name : opts.given()) {
    if (name == "models" || name == "tolerance" || name == "tiles" || name == "json" ||
        name == "help") {
      continue;  // crosscheck's own
    }
    if (opts.flag(name)) {
      options.push_back("--" + name);
      continue;
    }
    for (const std::string& v : opts.all(name)) {
      options.push_back("--" + name);
      options.push_back(v);
    }
  }
  if (!models_text)
    throw input_error("crosscheck needs --models A,B (two of: alphabeta, tlm, rtl)");
  const auto comma = models_text->find(',');
  if (comma == std::string::npos || models_text->find(',', comma + 1) != std::string::npos)
    throw input_error("--models '" + shown(*models_text) + "' is not two models A,B");
  const std::array<std::string, 2> names{models_text->substr(0, comma),
                                         models_text->substr(comma + 1)};
  for (const std::string& m : names) {
    if (models::find_model(m) == nullptr)
      throw input_error("--models: '" + shown(m) + "' is not a model (tessera models lists them)");
    run::runnable_model(m);  // a closed form moves no data to compare
    if (!run::model_available(m))
      throw input_error("--models: '" + m + "' is not available in this build");
  }
  // Each model's run reads the input files itself: a pipe or a device would give the
  // second run nothing, or something else.
  for (const char* name : {"schedule", "pattern", "routes", "fault-file"}) {
    for (const std::string& path : opts.all(name)) {
      std::error_code ec;
      if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
        throw input_error("crosscheck: --" + std::string(name) + " '" + shown(path) +
                          "' is not a regular file; crosscheck reads it once for each model "
                          "(save it to a file)");
      }
    }
  }
  const tolerance tol = tol_text ? parse_tolerance(*tol_text) : tolerance{};
  // --tiles A,B: each model's tiles (native or cortex-m4); one value: both.
  std::array<std::string, 2> tiles{"native", "native"};
  if (tiles_text) {
    const auto c = tiles_text->find(',');
    tiles = c == std::string::npos
                ? std::array<std::string, 2>{*tiles_text, *tiles_text}
                : std::array<std::string, 2>{tiles_text->substr(0, c), tiles_text->substr(c + 1)};
    for (const std::string& t : tiles) {
      if (t != "native" && t != "cortex-m4")
        throw input_error("--tiles '" + shown(*tiles_text) +
                          "' is not A,B of native and cortex-m4");
    }
  }

  auto cpu_side_only = [&](std::size_t i) {
    return tiles[i] == "native" && tiles[1 - i] != "native";
  };
  const model_run a = run_model(names[0], names[1], options, tiles[0], cpu_side_only(0));
  const model_run b = run_model(names[1], names[0], options, tiles[1], cpu_side_only(1));
  const harness::comparison c = harness::compare_runs(messages_of(a), messages_of(b));

  auto cycles_of = [](const model_run& r) { return r.report.value("cycles", std::uint64_t{0}); };
  auto verified_of = [](const model_run& r) { return r.report.value("verified", false); };
  const std::uint64_t longest = std::max(cycles_of(a), cycles_of(b));
  const std::uint64_t allowed =
      tol.percent >= 0
          ? static_cast<std::uint64_t>(tol.percent / 100.0 * static_cast<double>(longest))
          : tol.cycles;
  // Where every message agrees exactly, so must every channel's per-VC counts.
  const bool exact = c.unmatched == 0 && c.differing == 0;
  const vc_comparison vc = exact ? compare_vc_stats(a, b) : vc_comparison{};
  // And so must the energy events each model counted, router by router and link by link.
  const vc_comparison en = exact ? compare_energy(a, b) : vc_comparison{};
  const bool agree =
      c.unmatched == 0 && c.max_delta <= allowed && vc.differing == 0 && en.differing == 0;
  // A run with nothing to check (every message 0 bytes) passes unverified, as `run` does.
  const bool ok = agree && a.status == 0 && b.status == 0;

  if (json) {
    nlohmann::ordered_json j;
    j["command"] = "crosscheck";
    auto ms = nlohmann::ordered_json::array();
    for (const model_run* r : {&a, &b}) {
      ms.push_back({{"model", r->model},
                    {"cycles", cycles_of(*r)},
                    {"verified", verified_of(*r)},
                    {"exit_status", r->status}});
    }
    j["models"] = std::move(ms);
    j["messages"] = c.messages;
    j["unmatched"] = c.unmatched;
    j["differing"] = c.differing;
    j["identical"] = c.identical();
    j["max_delta_cycles"] = c.max_delta;
    j["tolerance_cycles"] = allowed;
    j["vc_stats"] = {{"channels", vc.compared}, {"differing", vc.differing}};
    if (!vc.first.empty()) j["vc_stats"]["first"] = vc.first;
    j["energy_events"] = {{"places", en.compared}, {"differing", en.differing}};
    if (!en.first.empty()) j["energy_events"]["first"] = en.first;
    j["agree"] = agree;
    if (c.first) {
      const harness::divergence& d = *c.first;
      auto per = nlohmann::ordered_json::array();
      if (d.a) per.push_back(times_json(a.model, *d.a));
      if (d.b) per.push_back(times_json(b.model, *d.b));
      j["first_divergence"] = {{"src", d.src},
                               {"dst", d.dst},
                               {"kind", d.kind},
                               {"step", d.step},
                               {"occurrence", d.occurrence},
                               {"models", std::move(per)}};
    } else {
      j["first_divergence"] = nullptr;
    }
    out << j.dump(2) << '\n';
  } else {
    std::ostringstream os;
    os << "crosscheck " << a.model << " against " << b.model << '\n';
    for (const model_run* r : {&a, &b}) {
      os << "  " << r->model << ": " << cycles_of(*r) << " cycles, "
         << (verified_of(*r)  ? "verified"
             : r->status == 0 ? "nothing to check"
                              : "NOT verified")
         << '\n';
    }
    os << "  messages    " << c.messages << " compared, " << c.differing << " differ, "
       << c.unmatched << " in one run only\n";
    os << "  max delta   " << c.max_delta << " cycles (tolerance " << allowed << ")\n";
    if (vc.compared != 0) {
      os << "  VC stats    " << vc.compared << " channels compared, " << vc.differing
         << " differ\n";
      if (!vc.first.empty()) os << "  first VC difference: " << vc.first << '\n';
    }
    if (en.compared != 0) {
      os << "  energy      " << en.compared << " routers and links compared, " << en.differing
         << " differ\n";
      if (!en.first.empty()) os << "  first energy difference: " << en.first << '\n';
    }
    if (c.first) {
      const harness::divergence& d = *c.first;
      os << "  first divergence: " << d.kind << ' ' << d.src << " -> " << d.dst << " step "
         << d.step << " #" << d.occurrence << ':';
      if (d.a) os << ' ' << a.model << ' ' << d.a->start << ".." << d.a->delivered;
      if (!d.a) os << ' ' << a.model << " (none)";
      if (d.b) os << ", " << b.model << ' ' << d.b->start << ".." << d.b->delivered;
      if (!d.b) os << ", " << b.model << " (none)";
      os << '\n';
    }
    os << "  "
       << (c.identical() ? "identical"
           : agree       ? "agree within the tolerance"
                         : "DIFFER")
       << '\n';
    out << os.str();
  }
  for (const model_run* r : {&a, &b}) {
    if (r->status != 0) {
      err << "tessera: --model " << r->model << ": "
          << r->report.value("failure", std::string("the run did not verify")) << '\n';
    }
  }
  if (!agree && vc.differing != 0) {
    err << "tessera: " << a.model << " and " << b.model << " count different per-VC statistics on "
        << vc.differing << " of " << vc.compared << " channels, first " << vc.first << '\n';
  } else if (!agree && en.differing != 0) {
    err << "tessera: " << a.model << " and " << b.model << " count different energy events at "
        << en.differing << " of " << en.compared << " routers and links, first " << en.first
        << '\n';
  } else if (!agree) {
    err << "tessera: " << a.model << " and " << b.model << " differ: " << c.differing
        << " messages by up to " << c.max_delta << " cycles, " << c.unmatched
        << " in one run only\n";
  }
  return ok ? 0 : 1;
}

}  // namespace tessera::cli
