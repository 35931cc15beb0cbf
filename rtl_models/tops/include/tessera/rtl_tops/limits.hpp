#pragma once

// The limits of every Verilated top the build makes (rtl_models/rtl/CMakeLists.txt
// verilates them): the compile-time parameters each was verilated with and the ranges of
// its run-time inputs, as data. The Verilated engines refuse what lies outside them and
// name the configurations from here; the testbenches take their ranges from here; each
// top's header (mesh_top.hpp, torus_top.hpp, cube_top.hpp, fifo_top.hpp) checks against
// the Verilated model's ports what the ports reveal. No Verilator header is needed, so
// code without the RTL (a validation generated from these rows) may read them too.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace tessera::rtl_tops {

// ---- tsr_mesh_top: the wormhole mesh -------------------------------------------------

// A mesh top. A smaller R x C mesh runs in its top-left corner, where XY routing keeps
// every flit. The run-time inputs' ranges are the same in every mesh top.
struct mesh_top_limits {
  std::string_view model;  // the Verilated class
  unsigned rows = 0;       // Rows
  unsigned cols = 0;       // Cols
  unsigned vcs = 1;        // VCs: 1..vcs in use at run time (vcs_i)
  unsigned buffer = 8;     // BufferDepth: 1..buffer usable slots per VC (depth_i)
  bool traced = false;     // built with FST tracing (when TESSERA_RTL_TRACE)
  // Built with the wraparound links (Wrap): runs torus:RxC up to rows x cols as well, in
  // its top-left corner (wrap_i, rows_i, cols_i), with vcs >= 2.
  bool wrap = false;
  // Run-time inputs (tsr_mesh_ni, tsr_mesh_router).
  unsigned max_router_delay = 255;       // router_delay_i, 8 bits
  std::uint32_t max_alpha = 65535;       // alpha_i, 16 bits
  std::uint32_t max_inject_gap = 65535;  // inject_gap_i, 16 bits
  std::uint32_t max_flits = 65535;       // msg_flits_i and msg_packet_flits_i, 16 bits
  // A slot freed in cycle c takes a flit from c + d on, d = credit_delay_i
  // (1..MaxCreditDelay).
  unsigned min_credit_delay = 1;
  unsigned max_credit_delay = 16;
  // pipeline_i: a flit crosses a router p cycles after it entered, 1..MaxPipeline; with
  // the router delay the heads' wait r + p - 1 is at most max_router_delay (8 bits).
  unsigned max_pipeline = 16;
};

// 8 x 8 with one VC, the plain wormhole router: every mesh with one VC, pipeline 1 and
// credit delay 1 runs on it (built without the delay logic of deeper ones, for speed).
inline constexpr mesh_top_limits mesh_8x8{.model = "Vtsr_mesh_8x8",
                                          .rows = 8,
                                          .cols = 8,
                                          .vcs = 1,
                                          .buffer = 8,
                                          .traced = false,
                                          .max_credit_delay = 1,
                                          .max_pipeline = 1};
// 4 x 4 with four VCs, with its assertions and FST tracing: every VC count 1..4 on meshes
// up to 4 x 4 (the VC tests, the delta preset's 2 VCs, tb_mesh --trace).
inline constexpr mesh_top_limits mesh_4x4_vc4{.model = "Vtsr_mesh_4x4_vc4",
                                              .rows = 4,
                                              .cols = 4,
                                              .vcs = 4,
                                              .buffer = 8,
                                              .traced = true,
                                              .wrap = true};
// 8 x 8 with four VCs, without assertions or tracing (they would make its C++ 92 MB
// instead of 38): the meshes with VCs that the 4 x 4 cannot take.
inline constexpr mesh_top_limits mesh_8x8_vc4{.model = "Vtsr_mesh_8x8_vc4",
                                              .rows = 8,
                                              .cols = 8,
                                              .vcs = 4,
                                              .buffer = 8,
                                              .traced = false,
                                              .wrap = true};

// The mesh tops built, in the order a mesh picks the first that takes it: the one-VC
// top, then the smaller VC top.
inline constexpr std::array mesh_tops{mesh_8x8, mesh_4x4_vc4, mesh_8x8_vc4};

// The largest side and VC count over them (a testbench's option ranges).
inline constexpr unsigned mesh_max_side =
    std::max({mesh_8x8.rows, mesh_8x8.cols, mesh_4x4_vc4.rows, mesh_4x4_vc4.cols, mesh_8x8_vc4.rows,
              mesh_8x8_vc4.cols});
inline constexpr unsigned mesh_max_vcs =
    std::max({mesh_8x8.vcs, mesh_4x4_vc4.vcs, mesh_8x8_vc4.vcs});
inline constexpr unsigned mesh_max_pipeline =
    std::max({mesh_8x8.max_pipeline, mesh_4x4_vc4.max_pipeline, mesh_8x8_vc4.max_pipeline});
inline constexpr unsigned mesh_max_credit_delay = std::max(
    {mesh_8x8.max_credit_delay, mesh_4x4_vc4.max_credit_delay, mesh_8x8_vc4.max_credit_delay});

// ---- tsr_torus_top: the store-and-forward torus ---------------------------------------

// A torus top. A torus has no corner to run a smaller one in (its wraparound links close
// each ring), so only the built sizes run.
struct torus_top_limits {
  std::string_view model;
  unsigned rows = 0;
  unsigned cols = 0;
  bool traced = false;
  unsigned buffers = 4;             // Buffers per input (net::torus_params::buffers)
  unsigned max_packet_bytes = 256;  // MaxBytes: a packet's payload
  unsigned trees = 4;               // Trees: forwarding table entries per node
  unsigned min_beta = 1;            // beta_i, 16 bits
  unsigned max_beta = 65535;
  unsigned min_tau = 1;  // tau_i, 8 bits
  unsigned max_tau = 255;
  std::uint32_t max_message_bytes = 65535;  // the NI's 16-bit message length
};

inline constexpr torus_top_limits torus_4x4{
    .model = "Vtsr_torus_4x4", .rows = 4, .cols = 4, .traced = true};
// Three times the 4 x 4's C++, so built without FST tracing.
inline constexpr torus_top_limits torus_8x8{
    .model = "Vtsr_torus_8x8", .rows = 8, .cols = 8, .traced = false};

inline constexpr std::array torus_tops{torus_4x4, torus_8x8};

// ---- tsr_cube_top: the circuit-switched hypercube -------------------------------------

// A hypercube top. hypercube:D for D up to dims runs in the sub-cube of tiles
// 0 .. 2^D - 1, which e-cube routing never leaves.
struct cube_top_limits {
  std::string_view model;
  unsigned dims = 0;         // Dims
  unsigned data_width = 32;  // DataWidth: bits of an element
  bool traced = false;
  unsigned slots = 2;            // tsr_pkg::CubeSlots: message slots of a network interface
  std::uint32_t max_xi = 65535;  // xi_i and xi_held_i, 16 bits
  unsigned min_tau = 1;          // tau_i, 8 bits
  unsigned max_tau = 255;
  std::uint32_t max_elements = 65535;  // a request's len, 16 bits
};

// Bokhari's edge-contention experiment needs D = 7.
inline constexpr cube_top_limits cube_7{.model = "Vtsr_cube_7", .dims = 7, .traced = true};

inline constexpr std::array cube_tops{cube_7};

// ---- tsr_fifo: the FIFO cell, once per depth tb_fifo checks ---------------------------

struct fifo_top_limits {
  std::string_view model;
  unsigned width = 32;  // Width
  unsigned depth = 1;   // Depth
};

inline constexpr std::array fifo_tops{fifo_top_limits{.model = "Vtsr_fifo_d4", .depth = 4},
                                      fifo_top_limits{.model = "Vtsr_fifo_d1", .depth = 1}};

}  // namespace tessera::rtl_tops
