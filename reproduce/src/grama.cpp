// Grama, Gupta, Karypis, Kumar, "Basic Communication Operations": every cost formula of
// the slides for an operation and algorithm the runtime implements, on ring, mesh and
// hypercube, against the collective run on the alpha-beta model (ts + tw m a message,
// no contention: the model the slides' formulas count). Exact where the slides give a
// cost; where they give an upper bound (a circular shift on a mesh, slide 66; on a
// hypercube by powers of two, slide 67 eq. (8)), the run must not exceed it.
#include <bit>
#include <cmath>
#include <string>

#include "papers.hpp"
#include "tessera/analytic/grama.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/run/run.hpp"

namespace tessera::reproduce {
namespace {

struct form {
  std::string formula;
  std::string source;
  double cycles{0};
  bool bound{false};  // an upper bound, not a cost
};

std::uint64_t log2p(std::uint64_t p) {
  return static_cast<std::uint64_t>(std::countr_zero(p));
}

// The slides' cost of c, or nothing where they give none for it.
std::optional<form> slide_cost(const fw::collective_params& c, std::uint64_t ts, std::uint64_t tw) {
  if (auto g = analytic::grama_cycles(c, ts, tw))
    return form{g->formula, g->source, static_cast<double>(g->cycles), false};
  using fw::collective;
  using fw::tb_algorithm;
  const std::uint64_t p = c.f.tiles();
  const std::uint64_t m = c.bytes;
  const bool pow2 = std::has_single_bit(p);
  // Broadcast and reduction by recursive doubling on a ring, and row then column on a
  // mesh: log p steps of one message each (slides 7-13: "the same as on a hypercube").
  if ((c.coll == collective::bcast || c.coll == collective::reduce) && pow2 &&
      c.f.kind != fabric_kind::hypercube &&
      (c.alg == tb_algorithm::binomial || c.alg == tb_algorithm::mesh)) {
    return form{"(ts + tw m) log p", "slide 21 eq. (1), on a ring and a mesh (slides 7-13)",
                static_cast<double>((ts + tw * m) * log2p(p)), false};
  }
  // Scatter and gather: log p steps halving the data (slide 45 eq. (3), "the same on a
  // ring and a mesh" under the slides' model).
  if ((c.coll == collective::scatter || c.coll == collective::gather) && pow2 &&
      c.f.kind != fabric_kind::hypercube && c.alg == tb_algorithm::binomial) {
    return form{"ts log p + tw m (p - 1)", "slide 45 eq. (3), on a ring and a mesh",
                static_cast<double>(ts * log2p(p) + tw * m * (p - 1)), false};
  }
  if (c.coll == collective::shift && c.alg == tb_algorithm::mesh && c.f.is_2d() &&
      c.f.rows == c.f.cols) {
    return form{"(ts + tw m)(sqrt p + 1), an upper bound", "slide 66",
                static_cast<double>((ts + tw * m) * (c.f.rows + 1)), true};
  }
  if (c.coll == collective::shift && c.alg == tb_algorithm::powers_of_two &&
      c.f.kind == fabric_kind::hypercube) {
    return form{"(ts + tw m)(2 log p - 1), an upper bound", "slide 67 eq. (8)",
                static_cast<double>((ts + tw * m) * (2 * log2p(p) - 1)), true};
  }
  return std::nullopt;
}

struct fabric_case {
  const char* spec;
  fabric f;
};

}  // namespace

paper_report grama(const grama_options& o) {
  paper_report r;
  r.paper = "grama";
  // Grama's slides charge ts + tw m a message on an ideal network: the host network model.
  const std::string host{models::default_model(models::model_kind::host_network).name};
  r.model_name = host;
  r.title =
      "Grama, Gupta, Karypis, Kumar, \"Basic Communication Operations\" (slides): the cost "
      "of every operation on ring, mesh and hypercube";
  r.model = host + " (ts = " + std::to_string(o.ts) + ", tw = " + std::to_string(o.tw) +
            " cycles a byte, no contention)";
  const fabric_case fabrics[] = {
      {"ring:8", fabric::ring(8)},           {"ring:16", fabric::ring(16)},
      {"mesh:4x4", fabric::mesh(4, 4)},      {"mesh:8x8", fabric::mesh(8, 8)},
      {"hypercube:3", fabric::hypercube(3)}, {"hypercube:6", fabric::hypercube(6)},
  };

  auto simulate = [&](run::run_config cfg) -> double {
    cfg.model = host;
    cfg.params = {{"ts", std::to_string(o.ts)}, {"tw", std::to_string(o.tw)}};
    return simulate_cycles(std::move(cfg));
  };

  auto add = [&](const fw::collective_params& c, const std::string& alg, const char* spec) {
    const auto f = slide_cost(c, o.ts, o.tw);
    if (!f) return;
    run::run_config cfg;
    cfg.fabric_spec = spec;
    cfg.c = c;
    cfg.algorithm = alg;
    row x;
    x.id = "grama." + id_part(fw::info(c.coll).name) + "." + alg + "." + spec + ".m" +
           std::to_string(c.bytes) +
           (c.coll == fw::collective::shift ? ".q" + std::to_string(c.shift) : "");
    x.source = f->source;
    x.what = std::string(fw::info(c.coll).name) + " " + alg + ", " + spec +
             ", m = " + std::to_string(c.bytes) +
             (c.coll == fw::collective::shift ? ", q = " + std::to_string(c.shift) : "");
    x.unit = "cycles";
    x.paper = f->cycles;
    x.simulated = simulate(std::move(cfg));
    x.formula = f->formula;
    x.tol = f->bound ? tolerance::at_most("the slides bound the cost from above")
                     : tolerance::exact(
                           "the alpha-beta model charges ts + tw m a message, as the slides do");
    r.rows.push_back(std::move(x));
  };

  for (const fabric_case& fc : fabrics) {
    for (const auto& a : fw::tb_algorithms) {
      if (!fw::fabric_meets(a.needs, fc.f)) continue;
      fw::tree_family fam{};
      if (fw::edst_family(a.alg, fam)) continue;
      for (const std::uint32_t m : {1024U, 4096U}) {
        fw::collective_params c;
        c.coll = a.coll;
        c.alg = a.alg;
        c.f = fc.f;
        c.bytes = m;
        c.type = elem_type::i32;
        c.shift = fc.f.tiles() / 2 - 1;
        add(c, std::string(a.name), fc.spec);
      }
    }
    for (const auto& a : fw::a2a_algorithms) {
      for (const std::uint32_t m : {64U, 1024U}) {
        fw::collective_params c;
        c.coll = fw::collective::alltoall;
        c.a2a = a.alg;
        c.f = fc.f;
        c.bytes = m;
        if (!fw::a2a_supported(a.alg, fc.f)) continue;
        add(c, std::string(a.name), fc.spec);
      }
    }
  }

  // The figure: cost against m on the 64-node hypercube, the slides' formula as marks and
  // the simulated runs as lines, for one operation of each kind.
  figure fig{.id = "grama-hypercube",
             .title = "Grama et al.: operations on a 64-node hypercube",
             .source = "slides 21, 34, 45, 58, 63 (ts = " + std::to_string(o.ts) +
                       " cycles, tw = " + std::to_string(o.tw) + " cycles/byte)",
             .x_label = "m, bytes per message",
             .y_label = "time, cycles",
             .log_x = true,
             .log_y = true};
  struct op {
    fw::collective coll;
    const char* alg;
  };
  const op ops[] = {{fw::collective::bcast, "binomial"},
                    {fw::collective::allgather, "hypercube"},
                    {fw::collective::scatter, "binomial"},
                    {fw::collective::alltoall, "standard"},
                    {fw::collective::alltoall, "pairwise"}};
  for (const op& x : ops) {
    const std::string name = std::string(fw::info(x.coll).name) + " " + x.alg;
    series paper_s{name + ", slides", true, {}, name};
    series sim_s{name + ", simulated", false, {}, name};
    for (const std::uint32_t m : {64U, 256U, 1024U, 4096U}) {
      run::run_config cfg =
          collective_config("hypercube:6", fabric::hypercube(6), x.coll, x.alg, m);
      const auto f = slide_cost(cfg.c, o.ts, o.tw);
      if (!f) continue;
      paper_s.points.emplace_back(m, f->cycles);
      sim_s.points.emplace_back(m, simulate(std::move(cfg)));
    }
    fig.curves.push_back(std::move(sim_s));
    fig.curves.push_back(std::move(paper_s));
  }
  r.figures.push_back(std::move(fig));
  return r;
}

}  // namespace tessera::reproduce
