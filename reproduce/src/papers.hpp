// The papers `tessera reproduce` covers, each a function building its report.
#pragma once

#include "tessera/reproduce/reproduce.hpp"

namespace tessera::reproduce {

paper_report grama(const grama_options& o);
paper_report boppana(const boppana_options& o);
paper_report bermond(const bermond_options& o);
paper_report bokhari(const bokhari_options& o);

}  // namespace tessera::reproduce

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/run/config.hpp"

namespace tessera::reproduce {

// A run's "verified" and "cycles", and the top-level keys of its JSON report asked for.
// A platform run (tlm, rtl) runs in a child process of its own: SystemC elaborates once
// per process. Throws input_error for a config a model refuses.
nlohmann::json simulate(run::run_config cfg, const std::vector<std::string>& keys);

// The cycles of a run, or NaN when it did not verify (its row then fails, naming no value
// it could not prove). A platform run (tlm, rtl) runs in a child process of its own:
// SystemC elaborates once per process. Throws input_error for a config a model refuses.
double simulate_cycles(run::run_config cfg);

}  // namespace tessera::reproduce
