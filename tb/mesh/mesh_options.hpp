#pragma once

// tb_mesh's command line (tb/mesh/tb_mesh.cpp says what each scenario does): its usage,
// its options and their checks, alone and together.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "../common/tb_main.hpp"
#include "tessera/rtl_tops/mesh_top.hpp"

namespace tessera::tb::mesh {

using rtl_tops::mesh_settings;
using rtl_tops::mesh_shape;

// tsr_pkg's MeshRoute* codes in order, as the flit reference's routing enum orders them.
constexpr std::array<std::string_view, 7> routing_names{
    "xy", "yx", "o1turn", "west-first", "north-last", "negative-first", "odd-even"};

extern const char* const usage;

// The most flits --scenario agree and share may post in all (--count times --flits).
inline constexpr std::uint64_t max_total_flits = std::uint64_t{1} << 21;

struct options : common_options {
  std::string scenario = "hops";
  std::string model = "8x8";
  mesh_shape shape;
  mesh_settings set;
  unsigned flits = 8;
  unsigned packets = 1;
  unsigned packet_flits = 0;
  unsigned src = 0;
  unsigned count = 600;
  std::uint64_t window = 2000;
  double idle = 0.3;
  double stall = 0.3;
  double rate = 0.01;
  std::uint64_t cycles = 100000;
  std::string stimulus;  // --scenario file's messages
};

constexpr std::uint64_t default_timeout = 400000;

// One option and its value; returns an error or "".
std::string own_option(options& o, std::string_view a, std::string_view v);
// What the options say together, once all are read; an error or "".
std::string consistent(const options& o);

}  // namespace tessera::tb::mesh
