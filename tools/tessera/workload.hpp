// Turns command-line options into a fabric, a schedule and model parameters,
// rejecting bad input with one line that names the offending value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "args.hpp"
#include "tessera/analytic/analysis.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/schedule/schedule.hpp"

namespace tessera::cli {

inline constexpr std::uint64_t default_block_bytes = 1024;
// Largest input files read (bounded by bytes read, tessera/common/input.hpp).
inline constexpr std::uint64_t max_schedule_bytes = std::uint64_t{256} << 20;
inline constexpr std::uint64_t max_pattern_bytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t max_routes_bytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t max_fault_file_bytes = std::uint64_t{1} << 20;

struct workload {
  std::string fabric_spec;
  fabric fab;
  std::string collective;
  std::string algorithm;
  std::uint64_t bytes{default_block_bytes};  // per block (Thakur's L)
  analytic::switching sw{analytic::switching::wormhole};
  analytic::model_params params;
  schedule sched;
};

fabric parse_fabric_arg(const std::string& spec);
// input_error "--algorithm pex needs a power-of-two tile count, but mesh:4x5 has 20
// tiles; use pex-gen, pex-gen-shift or gen" when the algorithm cannot run there.
analytic::model_params parse_params(const std::vector<std::string>& pairs);

// The collective names accepted by --collective and what each maps to.
std::string canonical_collective(const std::string& name);

// Builds the schedule of one collective algorithm on the fabric.
schedule build_collective(const std::string& collective, const std::string& algorithm,
                          const fabric& f, const std::string& fabric_spec, std::uint64_t bytes);

// Options shared by analyze, compare and schedule: --fabric, --collective,
// --bytes, --switching, --param, and --schedule FILE instead of a collective.
workload load_workload(const args& a, const std::string& algorithm);

}  // namespace tessera::cli
