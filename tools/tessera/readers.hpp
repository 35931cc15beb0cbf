// The run inputs that are JSON files besides schedules: patterns and forwarding
// tables. Host code, so the fuzz targets (tests/fuzz) reach the same readers the CLI
// uses. Every problem is one input_error naming the file, the entry and the value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/harness/faults.hpp"
#include "tessera/harness/pattern.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::cli {

// {"transfers": [{"src", "dst", "bytes", "start"}, ...]}; tiles are checked against
// the fabric.
std::vector<harness::pattern_transfer> pattern_from_json(const nlohmann::json& j, const fabric& f);
std::vector<harness::pattern_transfer> load_pattern(const std::string& file, const fabric& f);

// {"routes": [{"tile", "dst", "port"}, ...]}, port E, W, S, N (ring +1, -1) or a number.
std::vector<net::forwarding_entry> routes_from_json(const nlohmann::json& j, const fabric& f);
std::vector<net::forwarding_entry> load_routes(const std::string& file, const fabric& f);

// Every --fault value, then the faults of --fault-file FILE (one per line, docs/faults.md).
std::vector<harness::fault_spec> load_faults(const std::vector<std::string>& values,
                                             const std::optional<std::string>& file,
                                             const fabric& f);

}  // namespace tessera::cli
