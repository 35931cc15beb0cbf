// What a collective run must satisfy before it runs, checked in one place for every
// front end (the CLI's run, crosscheck and sweep, reproduce, a test): the algorithm by
// name, the fabric it needs, the tile limit of complete exchange, the root, the trees of
// an edst broadcast, the packets, the element type and reduction, the shift. Each
// refusal is an input_error naming the value with the option that gives it (--root,
// --algorithm, ...), so every front end refuses alike.
#pragma once

#include <string>

#include "tessera/firmware/collective.hpp"
#include "tessera/run/config.hpp"

namespace tessera::run {

// Sets r.c.a2a or r.c.alg from r.algorithm, or r.algorithm to the fabric's default
// algorithm when it is empty; "auto" (alltoall only) is left for run() to choose.
void resolve_algorithm(run_config& r);

// The collective's domain, after resolve_algorithm: every value the collective_params
// hold fits the collective, its algorithm and the fabric.
void check_collective(const run_config& r);

// The algorithms of the collective, for messages: "binomial, ring, ...".
std::string algorithm_list(fw::collective c);

// An alltoall algorithm's fabric requirement; `spec` names the fabric as given.
void require_a2a_supported(fw::a2a_algorithm alg, const fabric& f, const std::string& spec);

}  // namespace tessera::run
