// Bokhari, "Complete Exchange on the iPSC-860" (ICASE 91-4): the machine's single-message
// times (§2.2, Figure 2) and the edge-contention experiment (§2.3, Figure 4), on the TLM
// circuit-switched 7-cube with the ipsc860 preset (docs/machines.md derives it).
// The link-usage charts of §3-4 (Figures 6-9) come from the analytic slot model
// (tessera/analytic/slots.hpp). The six complete-exchange implementations of §6
// (Figures 10-13) run on the same engine with the preset's half-duplex interface (§5)
// and seeded operating-system jitter: the hull of optimality, the jumps of the UNFORCED
// curves, and the envelopes of linear, stable and pairwise_F.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "papers.hpp"
#include "tessera/analytic/closed_form.hpp"
#include "tessera/analytic/slots.hpp"
#include "tessera/analytic/transfers.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/run/run.hpp"
#include "tessera/schedule/build.hpp"

namespace tessera::reproduce {
namespace {

constexpr double us = 0.394;  // the preset's cycle: one byte
// The preset's constants (docs/machines.md): a message of m bytes over d hops takes
// xi + d (tau + 1) + m - 1 cycles; UNFORCED adds two one-element control messages.
constexpr double xi = 242;
constexpr double tau = 25;
constexpr double control_xi = 88;
// §6: the largest block plotted for standard_F, standard_U and pairwise_U, and for the
// others.
constexpr std::uint32_t small_max_bytes = 128;
constexpr std::uint32_t large_max_bytes = 4096;

// Bokhari §2.2.
double forced_us(double m, double d) {
  return 95 + 0.394 * m + 10.3 * d;
}
double unforced_us(double m, double d) {
  return m <= 100 ? forced_us(m, d) : 164 + 0.398 * m + 29.9 * d;
}
// The preset's time for the same message (a 0-byte message is one element).
double preset_us(double m, double d, bool unforced) {
  const auto k = static_cast<std::uint64_t>(m > 0 ? m : 1);
  double cycles = analytic::boppana_message(xi, tau, static_cast<std::uint32_t>(d), k);
  if (unforced && m > 100) cycles += 2 * (control_xi + d * (tau + 1));
  return cycles * us;
}

// §5-6: the six implementations of the complete exchange (Bokhari's table of §5) as
// `tessera run` spells them on the ipsc860 preset.
struct implementation {
  const char* name;
  const char* algorithm;
  protocol proto;
  bool prepost;    // FORCED: every receive posted, then a global synchronization
  bool pair_sync;  // a pair of zero-byte messages before every exchange
  bool small;      // plotted by the paper up to 2^7-byte blocks only (§6)
};
constexpr implementation linear_i{"linear", "linear", protocol::forced, true, false, false};
constexpr implementation stable_i{"stable", "stable", protocol::forced, true, false, false};
constexpr implementation pairwise_f{"pairwise_F", "pairwise", protocol::forced, true, true, false};
constexpr implementation standard_f{"standard_F", "standard", protocol::forced, true, true, true};
constexpr implementation pairwise_u{"pairwise_U", "pairwise", protocol::unforced,
                                    false,        false,      true};
constexpr implementation standard_u{"standard_U", "standard", protocol::unforced,
                                    false,        false,      true};
// Figure 13: pairwise_F with its pairwise synchronizations removed.
constexpr implementation pairwise_nosync{
    "pairwise_F without pairwise sync", "pairwise", protocol::forced, true, false, false};
const implementation* const six[] = {&linear_i,   &stable_i,   &pairwise_f,
                                     &standard_f, &pairwise_u, &standard_u};

// The maximum, mean and minimum of a point's runs (one a jitter seed), in us.
struct envelope {
  double max{0};
  double mean{0};
  double min{0};
  [[nodiscard]] double spread() const { return (max - min) / min; }
};

// Runs every (d, implementation, block) point `seeds` times, seeds 1..seeds, and keeps
// the envelope of each. The runs go to simulate_cycles_all together.
class exchange_points {
 public:
  exchange_points(const bokhari_options& o) : o_(o) {}
  void want(std::uint32_t d, const implementation& im, std::uint32_t block, std::uint32_t seeds) {
    points_.push_back({d, &im, block, seeds, {}});
  }
  void run() {
    std::vector<run::run_config> cfgs;
    for (const point& p : points_) {
      for (std::uint32_t s = 1; s <= p.seeds; ++s) {
        const std::string spec = "hypercube:" + std::to_string(p.d);
        run::run_config cfg = collective_config(spec, fabric::hypercube(p.d),
                                                fw::collective::alltoall, p.im->algorithm, p.block);
        cfg.model = o_.model;
        cfg.machine = "ipsc860";
        cfg.proto = p.im->proto;
        cfg.prepost = p.im->prepost;
        cfg.c.pair_sync = p.im->pair_sync;
        cfg.params = {{"jitter", std::to_string(o_.jitter)}, {"jitter_seed", std::to_string(s)}};
        cfgs.push_back(std::move(cfg));
      }
    }
    const std::vector<double> cycles = simulate_cycles_all(cfgs, o_.jobs);
    std::size_t at = 0;
    for (point& p : points_) {
      envelope e{0, 0, INFINITY};
      for (std::uint32_t s = 0; s < p.seeds; ++s) {
        const double t = cycles[at++] * us;  // NaN when a run did not verify
        e.max = std::isnan(t) || std::isnan(e.max) ? NAN : std::max(e.max, t);
        e.min = std::isnan(t) || std::isnan(e.min) ? NAN : std::min(e.min, t);
        e.mean += t / p.seeds;
      }
      p.e = e;
    }
  }
  [[nodiscard]] envelope at(std::uint32_t d, const implementation& im, std::uint32_t block,
                            std::uint32_t seeds) const {
    for (const point& p : points_)
      if (p.d == d && p.im == &im && p.block == block && p.seeds == seeds) return p.e;
    return {NAN, NAN, NAN};
  }

 private:
  struct point {
    std::uint32_t d;
    const implementation* im;
    std::uint32_t block;
    std::uint32_t seeds;
    envelope e;
  };
  const bokhari_options& o_;
  std::vector<point> points_;
};

// The implementation with the smallest maximum at (d, block) among those run there.
const implementation* best_at(const exchange_points& p, std::uint32_t d, std::uint32_t block,
                              std::uint32_t seeds) {
  const implementation* best = nullptr;
  double t = INFINITY;
  for (const implementation* im : six) {
    if (im->small && block > small_max_bytes) continue;
    const double m = p.at(d, *im, block, seeds).max;
    if (m < t) {
      t = m;
      best = im;
    }
  }
  return best;
}

// The rise of a curve from block a to 2a, per byte of block, over the rise from a/2 to a
// per byte (or, when a is the smallest block, the rise from 2a to 4a per byte): 1 for a
// time linear in the block, more for a jump between a and 2a.
double jump_ratio(const exchange_points& p, std::uint32_t d, const implementation& im,
                  std::uint32_t a, std::uint32_t seeds) {
  auto t = [&](std::uint32_t b) { return p.at(d, im, b, seeds).max; };
  const double rise = (t(2 * a) - t(a)) / a;
  const double ref = a >= 2 ? (t(a) - t(a / 2)) / (a / 2) : (t(4 * a) - t(2 * a)) / (2 * a);
  return rise / ref;
}

// Paths (1)..(8) of §2.3, all through edge 7 -> 15 of the 7-cube.
const std::uint32_t paths[8][2] = {{0, 127}, {1, 63}, {3, 31}, {7, 15},
                                   {5, 79},  {6, 47}, {2, 95}, {4, 111}};

// §6: Figures 10-13 and the text's claims about them.
void implementations(const bokhari_options& o, paper_report& r) {
  if (o.d_max < 1 || o.d_max > 7) throw input_error("reproduce bokhari: d_max must be 1..7");
  if (o.seeds < 1 || o.envelope_seeds < 2)
    throw input_error("reproduce bokhari: seeds must be at least 1, envelope seeds at least 2");
  const std::string runs = std::to_string(o.seeds);
  const std::string env_runs = std::to_string(o.envelope_seeds);
  exchange_points pts(o);
  std::vector<std::uint32_t> blocks;
  for (std::uint32_t b = 1; b <= large_max_bytes; b *= 2)
    blocks.push_back(b);
  for (std::uint32_t d = 1; d <= o.d_max; ++d) {
    for (const implementation* im : six) {
      for (const std::uint32_t b : blocks)
        if (!im->small || b <= small_max_bytes) pts.want(d, *im, b, o.seeds);
    }
  }
  const std::uint32_t env_d = std::min<std::uint32_t>(5, o.d_max);
  for (const implementation* im : {&linear_i, &stable_i, &pairwise_f, &pairwise_nosync})
    for (const std::uint32_t b : o.envelope_bytes)
      pts.want(env_d, *im, b, o.envelope_seeds);
  pts.run();

  const std::string max_of = ", the maximum of " + runs + " runs";
  auto cube = [](std::uint32_t d) { return "d = " + std::to_string(d); };
  auto best_row = [&](const char* source, std::uint32_t d, std::uint32_t block,
                      const implementation& want) {
    const implementation* best = best_at(pts, d, block, o.seeds);
    row c;
    c.id = "bokhari.hull.d" + std::to_string(d) + ".b" + std::to_string(block) + "." + want.name;
    c.source = source;
    c.what = cube(d) + ", " + std::to_string(block) + "-byte blocks: " + want.name +
             " is the fastest" + max_of + " (fastest: " + (best ? best->name : "none") + ")";
    c.paper = 1;
    c.simulated = best == &want ? 1 : 0;
    c.tol = tolerance::claim("the hull of optimality of Figures 10-11");
    r.rows.push_back(c);
  };

  // §6.5: the hull at d = 1, then pairwise_F for large blocks from d = 2 and standard_U
  // for the smallest from d = 3.
  best_row("§6.5, Figure 11", 1, 1, pairwise_u);
  best_row("§6.5, Figure 11", 1, large_max_bytes, linear_i);
  {
    bool never = true;
    for (const std::uint32_t b : blocks)
      never = never && best_at(pts, 1, b, o.seeds) != &pairwise_f;
    row c;
    c.id = "bokhari.hull.d1.pairwise_F-never";
    c.source = "§6.5, Figure 11";
    c.what =
        "d = 1: pairwise_F is the fastest at no block size (its pairwise "
        "synchronization is redundant there)";
    c.paper = 1;
    c.simulated = never ? 1 : 0;
    c.tol = tolerance::claim("the hull of optimality of Figure 11");
    r.rows.push_back(c);
  }
  for (std::uint32_t d = 2; d <= o.d_max; ++d)
    best_row(d <= 4 ? "§6.5, Figure 11" : "§6.5, Figure 10", d, large_max_bytes, pairwise_f);
  for (std::uint32_t d = 3; d <= o.d_max; ++d)
    best_row(d <= 4 ? "§6.5, Figure 11" : "§6.5, Figure 10", d, 1, standard_u);

  // §6.2: standard_U below standard_F for small blocks (no synchronization to pay).
  for (std::uint32_t d = 1; d <= o.d_max; ++d) {
    row c;
    c.id = "bokhari.standard_U-below-standard_F.d" + std::to_string(d);
    c.source = "§6.2";
    c.what = cube(d) + ", 1-byte blocks: standard_U faster than standard_F" + max_of;
    c.paper = 1;
    c.simulated = pts.at(d, standard_u, 1, o.seeds).max < pts.at(d, standard_f, 1, o.seeds).max;
    c.tol =
        tolerance::claim("\"standard_U is always better than standard_F for small block sizes\"");
    r.rows.push_back(c);
  }

  // §6.1: the jumps of the UNFORCED curves, where a message passes 100 bytes: pairwise_U
  // between 64 and 128 bytes, standard_U (messages of 2^(d-1) blocks) between 2^(7-d)
  // and 2^(8-d).
  for (std::uint32_t d = 1; d <= o.d_max; ++d) {
    for (const implementation* im : {&pairwise_u, &standard_u}) {
      const std::uint32_t a = im == &pairwise_u ? 64 : 1U << (7 - d);
      row x;
      x.id = "bokhari.jump." + std::string(im->name) + ".d" + std::to_string(d);
      x.source = "§6.1, Figures 10-11";
      x.what = cube(d) + ": " + im->name + "'s rise from " + std::to_string(a) + " to " +
               std::to_string(2 * a) + " bytes, per byte, over its rise per byte just " +
               (a >= 2 ? "below" : "above");
      x.unit = "x";
      x.paper = 2;
      x.simulated = jump_ratio(pts, d, *im, a, o.seeds);
      x.formula = "1 for a time linear in the block";
      x.tol = tolerance::at_least(
          "a \"drastic jump\" where messages pass 100 bytes: the per-byte rise at least doubles "
          "(a time linear in the block keeps it at 1)");
      r.rows.push_back(x);
    }
  }

  // §6.4: pairwise_U about twice as fast as pairwise_F below 100 bytes.
  for (std::uint32_t d = 1; d <= o.d_max; ++d) {
    double sum = 0;
    int k = 0;
    for (std::uint32_t b = 1; b < 100; b *= 2, ++k)
      sum +=
          std::log(pts.at(d, pairwise_f, b, o.seeds).max / pts.at(d, pairwise_u, b, o.seeds).max);
    row x;
    x.id = "bokhari.pairwise_F-over-pairwise_U.d" + std::to_string(d);
    x.source = "§6.4";
    x.what = cube(d) + ": pairwise_F / pairwise_U, blocks 1..64 bytes (geometric mean)";
    x.unit = "x";
    x.paper = 2;
    x.simulated = std::exp(sum / k);
    x.formula = "\"about twice as fast\"";
    x.tol = tolerance::relative(0.25, "\"about twice\": 1.5 to 2.5");
    r.rows.push_back(x);
  }

  // §6.3: stable's maximum below linear's for large ranges of sizes at d = 5..7: at least
  // three of the five blocks 2^8..2^12.
  for (std::uint32_t d = 5; d <= o.d_max; ++d) {
    int below = 0;
    std::string at;
    for (std::uint32_t b = 256; b <= large_max_bytes; b *= 2) {
      if (pts.at(d, stable_i, b, o.seeds).max < pts.at(d, linear_i, b, o.seeds).max) {
        ++below;
        at += (at.empty() ? "" : ", ") + std::to_string(b);
      }
    }
    row x;
    x.id = "bokhari.stable-below-linear.d" + std::to_string(d);
    x.source = "§6.3, Figure 10";
    x.what = cube(d) + ": blocks of 2^8..2^12 bytes where stable's maximum is below linear's (" +
             (at.empty() ? std::string("none") : at) + ")";
    x.unit = "of 5";
    x.paper = 3;
    x.simulated = below;
    x.tol = tolerance::at_least("\"for large ranges of message sizes\": most of the five");
    r.rows.push_back(x);
  }

  // Figures 12-13 on the 5-cube.
  const std::string env = cube(env_d) + ", " + env_runs + " runs, ";
  std::vector<envelope> lin, stab, pf, nosync;
  for (const std::uint32_t b : o.envelope_bytes) {
    lin.push_back(pts.at(env_d, linear_i, b, o.envelope_seeds));
    stab.push_back(pts.at(env_d, stable_i, b, o.envelope_seeds));
    pf.push_back(pts.at(env_d, pairwise_f, b, o.envelope_seeds));
    nosync.push_back(pts.at(env_d, pairwise_nosync, b, o.envelope_seeds));
  }
  for (std::size_t i = 0; i < o.envelope_bytes.size(); ++i) {
    const std::string blk = std::to_string(o.envelope_bytes[i]) + "-byte blocks";
    auto claim = [&](const char* key, const char* source, const std::string& what, bool holds,
                     const char* why) {
      row c;
      c.id = "bokhari.envelope.d" + std::to_string(env_d) + ".b" +
             std::to_string(o.envelope_bytes[i]) + "." + key;
      c.source = source;
      c.what = env + blk + ": " + what;
      c.paper = 1;
      c.simulated = holds ? 1 : 0;
      c.tol = tolerance::claim(why);
      r.rows.push_back(c);
    };
    claim("pairwise_F-spread", "§6.4, Figure 12",
          "pairwise_F's spread (max - min) / min is below linear's and stable's",
          pf[i].spread() < lin[i].spread() && pf[i].spread() < stab[i].spread(),
          "\"the envelope for pairwise_F is very tight\"");
    claim("stable-max", "§6.3, Figure 12", "stable's maximum is below linear's",
          stab[i].max < lin[i].max, "\"its average and maxima are well above stable\"");
    claim("stable-mean", "§6.3, Figure 12", "stable's average is below linear's",
          stab[i].mean < lin[i].mean, "\"its average and maxima are well above stable\"");
    claim("pairwise_F-band", "§6.4, Figure 13",
          "pairwise_F's band (max - min) is narrower than without pairwise sync",
          pf[i].max - pf[i].min < nosync[i].max - nosync[i].min,
          "\"with pairwise synchronization, all timings fall within a very narrow band\"");
  }
  {
    row c;
    c.id = "bokhari.envelope.d" + std::to_string(env_d) + ".nosync-band-grows";
    c.source = "§6.4, Figure 13";
    c.what = env + "without pairwise sync, the band (max - min) at " +
             std::to_string(o.envelope_bytes.back()) + " bytes is wider than at " +
             std::to_string(o.envelope_bytes.front());
    c.paper = 1;
    c.simulated = nosync.back().max - nosync.back().min > nosync.front().max - nosync.front().min;
    c.tol = tolerance::claim(
        "\"the difference between maximum and minimum values grows with block size\"");
    r.rows.push_back(c);
  }

  // The figures: one per cube for Figures 10-11, log-log as the paper draws them.
  for (std::uint32_t d = 1; d <= o.d_max; ++d) {
    figure f{
        .id = std::string(d >= 5 ? "bokhari-figure10-d" : "bokhari-figure11-d") + std::to_string(d),
        .title = "Bokhari: the six implementations, d = " + std::to_string(d) + " (maximum of " +
                 runs + " runs)",
        .source = std::string(d >= 5 ? "Figure 10" : "Figure 11") + " and section 6",
        .x_label = "block, bytes",
        .y_label = "time, us",
        .log_x = true,
        .log_y = true};
    for (const implementation* im : six) {
      series sr{im->name, false, {}, ""};
      for (const std::uint32_t b : blocks)
        if (!im->small || b <= small_max_bytes)
          sr.points.emplace_back(b, pts.at(d, *im, b, o.seeds).max);
      f.curves.push_back(std::move(sr));
    }
    r.figures.push_back(std::move(f));
  }
  auto envelopes = [&](figure& f, const implementation& im, const std::vector<envelope>& e) {
    series mx{std::string(im.name) + " maximum", false, {}, im.name};
    series mean{std::string(im.name) + " average", false, {}, im.name};
    series mn{std::string(im.name) + " minimum", false, {}, im.name};
    for (std::size_t i = 0; i < e.size(); ++i) {
      mx.points.emplace_back(o.envelope_bytes[i], e[i].max);
      mean.points.emplace_back(o.envelope_bytes[i], e[i].mean);
      mn.points.emplace_back(o.envelope_bytes[i], e[i].min);
    }
    f.curves.push_back(std::move(mx));
    f.curves.push_back(std::move(mean));
    f.curves.push_back(std::move(mn));
  };
  figure f12{.id = "bokhari-figure12",
             .title = "Bokhari: linear, stable and pairwise_F, " + cube(env_d) + " (" + env_runs +
                      " runs)",
             .source = "Figure 12 and section 6.3",
             .x_label = "block, bytes",
             .y_label = "time, us"};
  envelopes(f12, linear_i, lin);
  envelopes(f12, stable_i, stab);
  envelopes(f12, pairwise_f, pf);
  r.figures.push_back(std::move(f12));
  figure f13{.id = "bokhari-figure13",
             .title = "Bokhari: pairwise_F with and without pairwise synchronization, " +
                      cube(env_d) + " (" + env_runs + " runs)",
             .source = "Figure 13 and section 6.4",
             .x_label = "block, bytes",
             .y_label = "time, us"};
  envelopes(f13, pairwise_f, pf);
  envelopes(f13, pairwise_nosync, nosync);
  r.figures.push_back(std::move(f13));
}

}  // namespace

paper_report bokhari(const bokhari_options& o) {
  // The iPSC/860's interface is half duplex (the preset's half_duplex 1); a model whose
  // hardware is full duplex (its limit says why) runs the charts with it turned off, and
  // has no section 6, whose runs measure that interface.
  const models::model_info* mi = models::find_model(o.model);
  if (mi == nullptr) throw input_error("reproduce bokhari: --model '" + o.model + "' is not known");
  const models::model_limit* duplex =
      models::takes(*mi, models::switching::circuit, "half_duplex", 1)
          ? nullptr
          : models::find_limit(*mi, models::switching::circuit, "half_duplex");
  const bool section6 = duplex == nullptr && o.implementations;
  paper_report r;
  r.paper = "bokhari";
  r.model_name = o.model;
  r.title =
      "Bokhari, \"Complete Exchange on the iPSC-860\" (ICASE 91-4): message times and edge "
      "contention";
  // The preset's numbers as its table gives them (docs/machines.md).
  const run::machine_preset preset = run::find_machine_preset("ipsc860");
  std::ostringstream per_byte;
  per_byte << preset.us_per_cycle;
  r.model =
      o.model + ", circuit switching, preset ipsc860 (" + per_byte.str() + " us a byte, xi " +
      preset.param("xi") + ", tau " + preset.param("tau") + ", control_xi " +
      preset.param("control_xi") + ", xi_held " + preset.param("xi_held") +
      (preset.param("half_duplex") == "1"
           ? ", half duplex within " + preset.param("duplex_window") + " cycles"
           : std::string(", full duplex")) +
      ")" +
      (duplex != nullptr ? " with --param half_duplex=0 (" + std::string(duplex->why) + ")" : "") +
      "; the charts of sections 3-4 on the analytic slot model (unit slots, the "
      "lowest-numbered source wins a conflict)" +
      (section6
           ? "; section 6 with jitter " + std::to_string(o.jitter) +
                 " cycles (exponential, every message), seeds 1.." + std::to_string(o.seeds) +
                 " (envelopes 1.." + std::to_string(o.envelope_seeds) + ")"
           : std::string(
                 duplex != nullptr
                     ? "; section 6 needs the circuit engine's half-duplex "
                       "interface: --model " +
                           std::string(models::default_model(models::model_kind::platform).name)
                     : ""));

  // §3-4, Figures 6-9: the schedules' link-usage charts on the d-cube, n = 2^d.
  for (std::uint32_t d = 1; d <= 7; ++d) {
    const double n = std::pow(2.0, d);
    const fabric f = fabric::hypercube(d);
    auto chart = [&](fw::a2a_algorithm alg) {
      return analytic::schedule_slots(f, analytic::extract_transfers(build_alltoall(alg, f, 1)));
    };
    const std::string cube = ", n = " + std::to_string(static_cast<int>(n));
    struct alg_row {
      fw::a2a_algorithm alg;
      const char* name;
      const char* source;
      double steps;
      const char* formula;
    };
    const alg_row algs[] = {
        {fw::a2a_algorithm::naive, "naive", "§4, Figure 6: naive takes 3n/2 - 2 steps",
         3 * n / 2 - 2, "3n/2 - 2"},
        {fw::a2a_algorithm::linear, "linear", "§4.1, Figure 7: n - 1 steps, no contention", n - 1,
         "n - 1"},
        {fw::a2a_algorithm::pairwise, "pairwise", "§4.1, Figure 8: n - 1 steps, no contention",
         n - 1, "n - 1"},
        {fw::a2a_algorithm::stable, "stable", "§4.2, Figure 9: n steps, drift-tolerant", n, "n"},
    };
    for (const alg_row& a : algs) {
      const analytic::slot_schedule s = chart(a.alg);
      row x;
      x.id = "bokhari.slots." + std::string(a.name) + ".d" + std::to_string(d);
      x.source = a.source;
      x.what = std::string(a.name) + cube;
      x.unit = "steps";
      x.paper = a.steps;
      x.simulated = s.slots;
      x.formula = a.formula;
      x.tol = tolerance::exact("the chart's unit slots are the paper's time steps");
      r.rows.push_back(x);
      if (a.alg == fw::a2a_algorithm::linear || a.alg == fw::a2a_algorithm::pairwise) {
        row c;
        c.id = "bokhari.slots." + std::string(a.name) + ".d" + std::to_string(d) + ".no-wait";
        c.source = a.source;
        c.what = std::string(a.name) + cube + ": no transfer waits for a link";
        c.paper = 1;
        c.simulated = s.delayed == 0 ? 1 : 0;
        c.tol = tolerance::claim();
        r.rows.push_back(c);
      }
      if (a.alg == fw::a2a_algorithm::stable && d >= 2) {
        // "No column has two consecutive integers": no link is used in two
        // consecutive steps, so a drift of one step causes no contention.
        row c;
        c.id = "bokhari.slots.stable.d" + std::to_string(d) + ".no-reuse";
        c.source = a.source;
        c.what = "stable" + cube + ": no link used in two consecutive steps";
        c.paper = 1;
        c.simulated = s.min_reuse_gap >= 2 ? 1 : 0;
        c.tol = tolerance::claim();
        r.rows.push_back(c);
      }
    }
  }

  auto pattern_us = [&](const std::vector<harness::pattern_transfer>& t, protocol proto) {
    run::run_config cfg;
    cfg.model = o.model;
    cfg.machine = "ipsc860";
    cfg.workload = run::workload_kind::pattern;
    cfg.fabric_spec = "hypercube:7";
    cfg.c.f = fabric::hypercube(7);
    cfg.pattern = t;
    cfg.pattern_name = "reproduce bokhari";
    cfg.proto = proto;
    // One message, or paths whose tiles only send or only receive: the preset's
    // half-duplex interface never delays them, and the RTL cube has none.
    if (duplex != nullptr) cfg.params = {{"half_duplex", "0"}};
    return simulate_cycles(std::move(cfg)) * us;
  };

  // Figure 2: one message over d = 1..7 hops (node 0 to node 2^d - 1), FORCED and
  // UNFORCED, m over 0..1000 bytes.
  figure fig2{.id = "bokhari-figure2",
              .title = "Bokhari: the iPSC-860's message time by path length",
              .source = "Figure 2 and section 2.2: t = 95 + 0.394m + 10.3d us (FORCED)",
              .x_label = "m, bytes",
              .y_label = "time, us"};
  for (const bool unforced : {false, true}) {
    for (std::uint32_t d = 1; d <= 7; ++d) {
      const std::string proto = unforced ? "UNFORCED" : "FORCED";
      series paper_s{
          proto + " d = " + std::to_string(d) + ", paper", true, {}, proto + std::to_string(d)};
      series sim_s{proto + " d = " + std::to_string(d) + ", simulated",
                   false,
                   {},
                   proto + std::to_string(d)};
      for (const std::uint32_t m : o.message_bytes) {
        if (unforced && m <= 100) continue;  // identical to FORCED there (§2.2)
        const double sim = pattern_us({{0, (1U << d) - 1, m, 0}},
                                      unforced ? protocol::unforced : protocol::forced);
        row x;
        x.id = "bokhari.figure2." + std::string(unforced ? "unforced" : "forced") + ".d" +
               std::to_string(d) + ".m" + std::to_string(m);
        x.source = unforced ? "§2.2, UNFORCED, m > 100" : "§2.2, FORCED (Figure 2)";
        x.what = proto + ", d = " + std::to_string(d) + ", m = " + std::to_string(m);
        x.unit = "us";
        x.paper = unforced ? unforced_us(m, d) : forced_us(m, d);
        x.simulated = sim;
        x.formula = unforced ? "164 + 0.398m + 29.9d" : "95 + 0.394m + 10.3d";
        // One set of whole-cycle circuit parameters cannot take both slopes: the preset's
        // expression differs from Bokhari's by this much, derived from the constants
        // (a 0-byte message is one element).
        x.tol = tolerance::absolute(
            std::fabs(preset_us(m, d, unforced) - x.paper) + 1e-9,
            unforced ? "two control messages add 2 (88 + 26 d) cycles: 30.7 us a hop against "
                       "29.9, 0.394 us a byte against 0.398 (docs/machines.md)"
                     : "whole cycles of 0.394 us: 241 for the start-up (95.0 us), 26 a hop "
                       "(10.24 us against 10.3)");
        r.rows.push_back(x);
        if (d == 1 || d == 4 || d == 7) {
          paper_s.points.emplace_back(m, x.paper);
          sim_s.points.emplace_back(m, sim);
        }
      }
      if (!sim_s.points.empty()) {
        fig2.curves.push_back(std::move(sim_s));
        fig2.curves.push_back(std::move(paper_s));
      }
    }
  }
  r.figures.push_back(std::move(fig2));

  // Figure 4: paths (1)..(j) at once, FORCED, m = 1000: each added path adds time, and
  // the eight take more than seven times one ("more than seven times", §2.3).
  figure fig4{.id = "bokhari-figure4",
              .title = "Bokhari: eight paths through one edge",
              .source = "Figure 4 and section 2.3: paths (1)..(j) of the 7-cube, FORCED",
              .x_label = "m, bytes",
              .y_label = "time, us"};
  std::vector<double> at_1000(9, 0);
  for (std::uint32_t j = 1; j <= 8; ++j) {
    series sim_s{std::to_string(j) + (j == 1 ? " path" : " paths"), false, {}, ""};
    for (const std::uint32_t m : o.contention_bytes) {
      std::vector<harness::pattern_transfer> t;
      for (std::uint32_t p = 0; p < j; ++p)
        t.push_back({paths[p][0], paths[p][1], m, 0});
      const double sim = pattern_us(t, protocol::forced);
      sim_s.points.emplace_back(m, sim);
      if (m == 1000) at_1000[j] = sim;
    }
    fig4.curves.push_back(std::move(sim_s));
  }
  r.figures.push_back(std::move(fig4));
  for (std::uint32_t j = 2; j <= 8; ++j) {
    row c;
    c.id = "bokhari.figure4.paths" + std::to_string(j);
    c.source = "§2.3, Figure 4";
    c.what = std::to_string(j) + " paths through edge 7 -> 15 take longer than " +
             std::to_string(j - 1) + ", m = 1000";
    c.paper = 1;
    c.simulated = at_1000[j] > at_1000[j - 1] ? 1 : 0;
    c.tol = tolerance::claim("edge contention serialises the paths (Figure 4's rising lines)");
    r.rows.push_back(c);
  }
  row seven;
  seven.id = "bokhari.figure4.eight-over-one";
  seven.source = "§2.3: \"more than seven times\"";
  seven.what = "8 contending 1000-byte messages / 1 message";
  seven.unit = "x";
  seven.paper = 7;
  seven.simulated = at_1000[8] / at_1000[1];
  seven.tol = tolerance::at_least("the paper: more than seven times one message");
  r.rows.push_back(seven);
  if (section6) {
    r.seeds = {{"seeds", o.seeds}, {"envelope-seeds", o.envelope_seeds}};
    implementations(o, r);
  }
  return r;
}

}  // namespace tessera::reproduce
