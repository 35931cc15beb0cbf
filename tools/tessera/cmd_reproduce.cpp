#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output_file.hpp"
#include "run_request.hpp"
#include "tessera/analytic/thakur_delta.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/pictures/figure.hpp"
#include "tessera/reproduce/html.hpp"
#include "tessera/reproduce/reproduce.hpp"

namespace tessera::cli {

command_line reproduce_command_line() {
  command_line c(
      "reproduce", R"(tessera reproduce <paper>|all [--model analytic|tlm|rtl] [--table N[,N...]]
                         [--seeds N] [--envelope-seeds N] [--jobs N]
                         [--plots DIR] [--html FILE] [--json])",
      R"(A seed paper's measured results recomputed beside the paper's values. Every row holds
the paper's value (published, or its formula evaluated), the simulated one, the
deviation, the tolerance it must meet and its verdict: pass, known deviation (it misses
its tolerance as the reproduce library's table of known deviations says, still at the
value docs/reproduction.md analysed) or fail. The exit status is 0 when no row fails,
1 when one does: a row missing its tolerance unlisted, a listed row whose value moved, or
a listed row that now passes (a stale entry), each named on stderr, one line a row.

papers:
  bokhari  Bokhari, "Complete Exchange on the iPSC-860" (ICASE 91-4): the message
           times t(m, d) of section 2.2 (FORCED and UNFORCED, d = 1..7, m = 0..1000,
           Figure 2) and the eight paths through one edge of section 2.3 (Figure 4), on
           the TLM circuit-switched 7-cube with the ipsc860 preset; the step counts of
           the naive (3n/2 - 2), linear, pairwise and stable charts (section 4,
           Figures 6-9); the six complete-exchange implementations of section 6
           (linear, stable, pairwise_F, standard_F, pairwise_U, standard_U) on
           d = 1..7 for blocks of 2^0..2^12 bytes with seeded operating-system jitter,
           each point the maximum of --seeds runs (Figures 10-11): the hull of
           optimality, the UNFORCED jumps, and the envelopes of Figures 12-13 on the
           5-cube (--envelope-seeds runs); about two minutes on two cores. --model rtl:
           the rows of sections 2-4 on the Verilated cube (about a minute); section 6
           needs the circuit engine's half-duplex interface and is left out.
  boppana  Boppana, Raghavendra, "Optimal and Practical Routing Methods for a Massive
           Data Movement Operation on Hypercubes" (1990): T_aap for n = 1..7 (k = 100)
           on the TLM circuit-switched hypercube with the paper's iPSC/860 constants
           (the ipsc860-boppana preset), eta at n = 7, T_aap' (k = 1000), and the
           lower bounds of Table 1 against the simulated operations. --model rtl:
           the same rows on the Verilated cube (about three minutes).
  bermond  Bermond, Michallon, Trystram, "Broadcasting in wraparound meshes with
           parallel monodirectional links" (1992): the pipelined broadcast on the five
           tree families for n x n tori, n = 4..16, on the TLM store-and-forward torus
           with the meganode preset, against b(L, h, d), the trees' depths and the
           Saad-Schultz fill-in threshold L0. --model rtl: the rows the Verilated
           tori can run (n = 4 and 8, L = 512; about a minute and a half).
  grama    Grama, Gupta, Karypis, Kumar, "Basic Communication Operations" (slides):
           the cost formula of every operation the runtime implements (broadcast,
           reduce, all-gather, reduce-scatter, all-reduce, prefix, scatter, gather,
           all-to-all, circular shift) on ring, mesh and hypercube, against the
           collective run on the alpha-beta model (ts 100, tw 2): exact, and within
           the slides' upper bound where they give one.
  thakur   Tables 2-6 of Thakur, Choudhary, Fox, "Complete Exchange on a Wormhole
           Routed Mesh" (1993): complete exchange on the Touchstone Delta (PEX,
           PEX-GEN, PEX-GEN-SHIFT, GEN), alpha and beta fitted by least squares on
           Table 2's 4 x 4 column (the delta fit), every other cell a prediction. The
           rows: each table's mean error against the Delta model's 10 % target, PEX
           against GEN at 4 KB and more, and the paper's comparisons (sections 4-5)
           cell by cell where the measurement separates them. --model tlm (default):
           every cell a complete exchange on the TLM wormhole mesh with the delta
           preset (docs/delta.md: a half-duplex NIC, eager and rendezvous messages),
           fitted with the platform on that column (about a minute on two
           cores). --model analytic: the paper's model T = sum over steps of alpha +
           L max(beta, f beta_sat), gamma = 1, f the exact per-step link load.)");
  c.add({"paper", "PAPER",
         "bokhari, boppana, bermond, grama, thakur, or all (every paper, each on its default "
         "model)",
         false, 0, true})
      .value("model", "M",
             "bokhari, boppana, bermond: tlm (default) or rtl; thakur: tlm (default) or "
             "analytic; grama has one model")
      .value("table", "N[,N...]",
             "thakur: only these tables (2..6; default all); the fit is the same")
      .value("seeds", "N",
             "bokhari, all: runs a point of Figures 10-11, jitter seeds 1..N (default 8; the "
             "paper: 100 to 1000)")
      .value("envelope-seeds", "N", "bokhari, all: runs a point of Figures 12-13 (default 20)")
      .value("jobs", "N",
             "bokhari and all (section 6), thakur on tlm: runs at once, each a child process "
             "(default: the machine's cores, at most 16)")
      .value("plots", "DIR", "write the paper's figures as DIR/<figure>.svg")
      .value("html", "FILE",
             "one self-contained page: the rows with their verdicts, the figures inline")
      .flag("json", "one JSON object on stdout (below)")
      .footer(R"(all: every paper above, each on its default model. Exit 1 when any row fails.

JSON: {"command", "paper", "title", "model", "rows_total", "rows_passed", "rows_known",
"rows_failed" (fails only), "pass" (no fail), "problems" (the stderr lines), "rows":
[{"id", "source", "what", "unit", "paper", "simulated", "deviation", "tolerance":
{"kind", "value", "why"}, "pass" (within tolerance), "verdict" ("pass", "known
deviation", "fail"), known deviations: "reason", "doc", "analysed" (a value, or [lo,
hi] for a seeded row), "formula"}], "figures": [{"id", "title", "source", "x_label",
"y_label", "log_x", "log_y", "series": [{"name", "paper", "points"}]}]}; all:
{"rows_total", "rows_passed", "rows_known", "rows_failed", "pass", "papers": [one per
paper]}. thakur adds
"fit", "cells": [{"table", "algorithm", "mesh", "bytes", "paper", "simulated",
"deviation", "fitted"}] (tlm: "cycles", "verified") and "tables": [{"table",
"mean_abs_deviation", "max_abs_deviation"}]; its times are in seconds, deviation =
(simulated - paper) / paper.
)")
      .on_stray([](const std::string& word) {
        return "reproduce takes one paper, got '" + shown(word) + "' too";
      });
  return c;
}
namespace {

// Every figure of r as DIR/<id>.svg; the directory is made if missing.
void write_plots(const std::string& dir, const reproduce::paper_report& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw input_error("--plots '" + dir + "' is not a directory that can be made");
  for (const reproduce::figure& f : r.figures) {
    write_output_file("--plots", dir + "/" + f.id + ".svg", pictures::to_svg(f));
  }
}

}  // namespace

int cmd_reproduce(const args& a, std::ostream& out, std::ostream& err) {
  const bool json_out = a.flag("json");
  const bool model_given = a.has("model");
  const std::string model = a.get("model").value_or(
      std::string(models::default_model(models::model_kind::platform).name));
  // The papers' rows run on a closed form or on the platform, not on a host network.
  using models::model_kind;
  const models::model_info* mi = models::find_model(model);
  if (mi == nullptr || mi->kind == model_kind::host_network) {
    throw input_error("--model '" + shown(model) + "' is not " +
                      models::model_names({model_kind::closed_form, model_kind::platform}, " or "));
  }
  const bool platform = models::is_platform(*mi);
  auto count = [&](const std::string& name, std::uint32_t lo,
                   std::uint32_t hi) -> std::optional<std::uint32_t> {
    const auto v = a.get(name);
    if (!v) return std::nullopt;
    std::uint32_t n = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc{} || end != v->data() + v->size() || v->empty() || n < lo || n > hi) {
      throw input_error("--" + name + " '" + shown(*v) + "' is not a whole number from " +
                        std::to_string(lo) + " to " + std::to_string(hi));
    }
    return n;
  };
  // Bokhari's section 6 (bokhari and all only).
  const std::optional<std::uint32_t> seeds = count("seeds", 1, 1000);
  const std::optional<std::uint32_t> envelope_seeds = count("envelope-seeds", 2, 1000);
  const std::optional<std::uint32_t> jobs = count("jobs", 1, 256);
  const std::string plots_dir = a.get("plots").value_or("");
  if (a.has("plots") && plots_dir.empty()) throw input_error("--plots needs a directory");
  const std::string html_file = a.get("html").value_or("");
  if (a.has("html") && html_file.empty()) throw input_error("--html needs a file");
  std::set<std::uint32_t> tables;  // empty: every table
  if (const auto list = a.get("table")) {
    std::istringstream in(*list);
    std::string item;
    bool any = false;
    while (std::getline(in, item, ',')) {
      if (item.size() != 1 || item[0] < '2' || item[0] > '6')
        throw input_error("--table '" + shown(item) + "' is not a table of Thakur's (2..6)");
      tables.insert(static_cast<std::uint32_t>(item[0] - '0'));
      any = true;
    }
    if (!any || list->back() == ',') {
      throw input_error("--table '" + shown(*list) +
                        "' is not a comma-separated list of tables (2..6)");
    }
  }
  std::vector<std::string> rest;
  if (const auto paper = a.get("paper")) rest.push_back(*paper);
  std::string available;
  for (const auto p : reproduce::papers())
    available += std::string(p) + ", ";
  available += "all";
  if (rest.empty()) throw input_error("reproduce needs a paper (available: " + available + ")");
  const auto& lib = reproduce::papers();
  const bool all = rest[0] == "all";
  if (!all && std::find(lib.begin(), lib.end(), rest[0]) == lib.end()) {
    throw input_error("paper '" + rest[0] +
                      "' has nothing to reproduce yet (available: " + available + ")");
  }
  const bool thakur = rest[0] == "thakur";
  // Bokhari's and Boppana's rows run on the circuit-switched hypercube, Bermond's on the
  // store-and-forward torus, which the TLM engines and the Verilated RTL both model;
  // Thakur's on his step model or the TLM mesh; Grama's on the alpha-beta model.
  const bool on_cube = rest[0] == "bokhari" || rest[0] == "boppana" || rest[0] == "bermond";
  if (!tables.empty() && !thakur)
    throw input_error("reproduce " + rest[0] + " takes no --table (Thakur's tables only)");
  if (model_given && !on_cube && !thakur) {
    throw input_error("reproduce " + rest[0] +
                      " takes no --model (its rows run on the model its paper's figures "
                      "need; thakur takes analytic or tlm, bokhari, boppana and bermond tlm "
                      "or rtl)");
  }
  if (model_given && on_cube && !platform) {
    throw input_error("reproduce " + rest[0] + ": --model '" + model + "' is not " +
                      models::model_names({model_kind::platform}, " or "));
  }
  // Thakur's tables run on meshes up to 16 x 32 on one engine, the wormhole mesh.
  if (thakur && platform &&
      !models::runs_on(*mi, models::switching::wormhole, fabric::mesh(16, 32))) {
    throw input_error("reproduce thakur: --model " + model +
                      " is not supported (Thakur's meshes reach 16x32; built: " +
                      (mi->built != nullptr ? mi->built(models::switching::wormhole) : "less") +
                      "): use " + models::model_names({model_kind::closed_form}) + " or " +
                      std::string(models::default_model(model_kind::platform).name));
  }
  // Bokhari's section 6 measures the iPSC/860's half-duplex interface.
  const bool section6 =
      (rest[0] == "bokhari" || all) &&
      !(model_given && !models::takes(*mi, models::switching::circuit, "half_duplex", 1));
  for (const auto& [given, name] : {std::pair{seeds.has_value(), "--seeds"},
                                    std::pair{envelope_seeds.has_value(), "--envelope-seeds"}}) {
    if (given && !section6) {
      throw input_error(std::string(name) +
                        " goes with reproduce bokhari or all on the tlm model (the runs of "
                        "Bokhari's section 6)");
    }
  }
  if (jobs && !section6 && !(thakur && platform)) {
    throw input_error(
        "--jobs goes with reproduce bokhari, thakur or all on the tlm model "
        "(the runs it spreads over processes)");
  }
  {
    reproduce::options opts;
    if (model_given && on_cube) {
      opts.bokhari.model = model;
      opts.boppana.model = model;
      opts.bermond.model = model;
    }
    if (thakur) opts.thakur.model = model;
    opts.thakur.tables = tables;
    if (seeds) opts.bokhari.seeds = *seeds;
    if (envelope_seeds) opts.bokhari.envelope_seeds = *envelope_seeds;
    const unsigned n = jobs ? *jobs : std::clamp(std::thread::hardware_concurrency(), 1U, 16U);
    opts.bokhari.jobs = n;
    opts.thakur.jobs = n;
    // The page's file is checked before the papers run (they take seconds).
    std::optional<output_file> page;
    if (!html_file.empty()) page.emplace("--html", html_file);
    // Progress, a line a paper as it ends, only when stderr is a terminal: redirected, stderr
    // carries the problems alone.
    const bool progress = isatty(STDERR_FILENO) != 0;
    const auto started = std::chrono::steady_clock::now();
    std::vector<reproduce::paper_report> reports;
    auto one = [&](std::string_view p) {
      if (progress) err << "reproduce: " << p << " ..." << std::flush;
      const auto t0 = std::chrono::steady_clock::now();
      reports.push_back(reproduce::run(p, opts));
      if (progress) {
        const auto& r = reports.back();
        const auto s = [](auto t) { return std::chrono::duration<double>(t).count(); };
        err << "\rreproduce: " << p << ": "
            << reproduce::counts_text(r.count(reproduce::verdict::pass),
                                      r.count(reproduce::verdict::known), r.failed())
            << " in " << std::fixed << std::setprecision(0)
            << s(std::chrono::steady_clock::now() - t0) << " s ("
            << s(std::chrono::steady_clock::now() - started) << " s in all)\n"
            << std::defaultfloat;
      }
    };
    if (all) {
      for (const auto p : lib)
        one(p);
    } else {
      one(rest[0]);
    }
    bool pass = true;
    std::size_t total = 0;
    std::size_t passed = 0;
    std::size_t known = 0;
    std::size_t failed = 0;
    for (const auto& r : reports) {
      if (!plots_dir.empty()) write_plots(plots_dir, r);
      pass = pass && r.pass();
      total += r.rows.size();
      passed += r.count(reproduce::verdict::pass);
      known += r.count(reproduce::verdict::known);
      failed += r.failed();
      // One line a problem, naming the row: an unlisted failure, a known deviation whose
      // value moved, a stale entry.
      for (const std::string& p : r.problems)
        err << "reproduce " << r.paper << ": " << p << "\n";
    }
    if (page) {
      page->stream() << reproduce::to_html(reports);
      page->close();
    }
    if (json_out) {
      nlohmann::ordered_json j{{"command", "reproduce"}};
      if (all) {
        j["paper"] = "all";
        j["rows_total"] = total;
        j["rows_passed"] = passed;
        j["rows_known"] = known;
        j["rows_failed"] = failed;
        j["pass"] = pass;
        auto arr = nlohmann::ordered_json::array();
        for (const auto& r : reports)
          arr.push_back(reproduce::to_json(r));
        j["papers"] = std::move(arr);
      } else {
        j.update(reproduce::to_json(reports.front()));
      }
      out << j.dump(2) << '\n';
    } else {
      for (std::size_t i = 0; i < reports.size(); ++i) {
        if (i > 0) out << "\n";
        reproduce::write_text(out, reports[i]);
      }
      if (all) {
        out << "\nall: " << reproduce::counts_text(passed, known, failed)
            << (pass ? "" : " (FAILED)") << "\n";
      }
    }
    return pass ? 0 : 1;
  }
}

}  // namespace tessera::cli
