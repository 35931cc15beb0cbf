// The papers `tessera reproduce` covers, each a function building its report.
#pragma once

#include "tessera/reproduce/reproduce.hpp"

namespace tessera::reproduce {

paper_report grama(const grama_options& o);
paper_report boppana(const boppana_options& o);
paper_report bermond(const bermond_options& o);
paper_report bokhari(const bokhari_options& o);
paper_report thakur(const thakur_options& o);

}  // namespace tessera::reproduce

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/firmware/collective.hpp"
#include "tessera/run/config.hpp"

namespace tessera::reproduce {

// A run's "verified" and "cycles", and the top-level keys of its JSON report asked for.
// A platform run (tlm, rtl) runs in a child process of its own: SystemC elaborates once
// per process. Throws input_error for a config a model refuses.
nlohmann::json simulate(run::run_config cfg, const std::vector<std::string>& keys);

// A run of collective `coll` by the algorithm named `alg` (a complete exchange's or a
// textbook collective's, as --algorithm spells it) with `bytes` a tile, on fabric f
// (`spec` as --fabric spells it), on the alpha-beta model until the caller sets another.
run::run_config collective_config(const std::string& spec, const fabric& f, fw::collective coll,
                                  const std::string& alg, std::uint32_t bytes);

// The cycles of a run, or NaN when it did not verify (its row then fails, naming no value
// it could not prove). A platform run (tlm, rtl) runs in a child process of its own:
// SystemC elaborates once per process. Throws input_error for a config a model refuses.
double simulate_cycles(run::run_config cfg);

// simulate of every config with the same keys, `jobs` at a time (each platform run a
// child process), in the order of cfgs. The first config, in order, that threw has its
// exception rethrown once all have ended.
std::vector<nlohmann::json> simulate_all(const std::vector<run::run_config>& cfgs,
                                         const std::vector<std::string>& keys, unsigned jobs);

// simulate_cycles of every config, `jobs` at a time (each platform run a child process;
// the order of the results is the order of cfgs, whatever finishes first). The first
// config, in order, that threw has its exception rethrown once all have ended.
std::vector<double> simulate_cycles_all(const std::vector<run::run_config>& cfgs, unsigned jobs);

}  // namespace tessera::reproduce
