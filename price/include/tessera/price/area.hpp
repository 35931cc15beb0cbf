#pragma once

// Area of the RTL from synthesis: `tessera area` and the sweeps that add area to their
// rows. A design is one module of rtl_models/rtl (a router, a node, a network interface)
// or a whole fabric, in one configuration named with the parameters `tessera models`
// uses (vcs, buffer, width, ...). Yosys 0.23 synthesizes it for three targets: iCE40
// (synth_ice40), Xilinx 7-series (synth_xilinx) and technology-neutral gates (generic
// gates costed with Yosys's CMOS transistor counts, a NAND2 being 4 transistors). Each
// result is cached under the hash of the RTL files, the design and the flow, so a sweep
// synthesizes a configuration once (docs/ppa.md).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/models/registry.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::price {

// A parameter as the user names it, with the value the design is built with.
struct design_param {
  std::string key;
  std::uint64_t value;
};

struct area_design {
  std::string name;                  // "mesh", "torus-ni", ... or a fabric, "mesh:4x4"
  std::string top;                   // the SystemVerilog module
  std::vector<std::string> files;    // its sources, in the RTL directory, package first
  std::vector<design_param> params;  // the user's names and values, defaults filled in
  // The module's own parameters (Yosys chparam), derived from params.
  std::vector<std::pair<std::string, std::uint64_t>> rtl_params;
  // Bits of flit, packet or element storage the design holds by its parameters: no
  // synthesis can keep them in fewer flip-flops and RAM bits (the tests' floor).
  std::uint64_t storage_bits{0};
};

// The designs `tessera area --router` takes.
std::vector<std::string_view> router_names();

// The design of router `router` (mesh, torus, cube, mesh-ni, torus-ni, cube-ni) with the
// given parameters (key, value as typed). Throws input_error naming a parameter that the
// design does not take or a value out of its range (with the range).
area_design describe_router(std::string_view router,
                            const std::vector<std::pair<std::string, std::string>>& params);

// A whole fabric of routers and network interfaces: mesh:RxC and torus:RxC with
// wormhole switching (mesh routers, a torus with wraparound links), torus:RxC with
// store-and-forward switching, hypercube:D; up to 16 tiles.
area_design describe_fabric(std::string_view fabric, std::string_view switching,
                            const std::vector<std::pair<std::string, std::string>>& params);

// The router a timed run's fabric is built of, in the run's configuration (sweep --area):
// a wormhole mesh or torus: the mesh router (vcs, buffer, width, router_delay, pipeline,
// credit_delay; wrap on a torus); a store-and-forward torus: the torus node (buffers,
// packet_bytes); a circuit-switched hypercube: the cube node (dims, width). Throws
// input_error for another switching or a value the RTL cannot build.
area_design describe_run_router(const fabric& f, models::switching sw,
                                const models::engine_params& p);
// "mesh vcs=2 buffer=4 ...": the design and its parameters in one word list.
std::string design_label(const area_design& d);

enum class target : unsigned { ice40 = 1U, xilinx = 2U, gates = 4U };
inline constexpr unsigned all_targets = 7U;
std::string_view target_name(target t);

struct ice40_area {
  std::uint64_t lut4{0};
  std::uint64_t ff{0};
  std::uint64_t carry{0};
  std::uint64_t ram{0};  // SB_RAM40_4K blocks
};

struct xilinx_area {
  std::uint64_t lut{0};     // LUT1..LUT6
  std::uint64_t ff{0};      // FDRE, FDSE, FDCE, FDPE
  std::uint64_t lutram{0};  // LUTs used as RAM (RAM32M, RAM64M, RAM32X1D, ...) and SRLs
  std::uint64_t bram{0};    // RAMB18E1 and RAMB36E1
  std::uint64_t carry{0};   // CARRY4
};

struct gate_area {
  std::uint64_t transistors{0};  // Yosys's CMOS estimate, flip-flops as $_DFF_P_
  double nand2_eq{0};            // transistors / 4
};

struct area_result {
  std::optional<ice40_area> ice40;
  std::optional<xilinx_area> xilinx;
  std::optional<gate_area> gates;
  unsigned from_cache{0};   // targets (bits) read from the cache
  double synth_seconds{0};  // wall time spent in Yosys by this call
};

struct area_env {
  std::filesystem::path rtl_dir;    // rtl_models/rtl
  std::filesystem::path cache_dir;  // empty: no cache
  std::string yosys{"yosys"};       // the binary, found in PATH
};

// The environment of this build: the RTL directory ($TESSERA_RTL_DIR, else an installed
// tessera's share/tessera/rtl, else the source tree's) and the cache ($TESSERA_AREA_CACHE,
// else $XDG_CACHE_HOME/tessera/area, else ~/.cache/tessera/area).
area_env default_env();

// The cache key of a design for a target: a hash of the flow, the design's module and
// parameters and the bytes of every RTL file it reads.
std::string cache_key(const area_design& d, target t, const area_env& env);

// Synthesizes the design for the targets (bits of target), from the cache where it holds
// them. Throws std::runtime_error when Yosys fails, infers a latch or reports a misread
// (an implicitly declared or undriven wire), naming the design and the log file.
area_result synthesize(const area_design& d, unsigned targets, const area_env& env);

}  // namespace tessera::price
