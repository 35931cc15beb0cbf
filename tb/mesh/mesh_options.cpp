#include "mesh_options.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace tessera::tb::mesh {

using namespace tessera::rtl_tops;

const char* const usage =
    "usage: tb_mesh --scenario hops|contention|arbitration|vc_share|vc_alloc|random|agree|share|\n"
    "                          uniform|file [--stimulus FILE.json]\n"
    "               [--model 8x8|4x4_vc4|8x8_vc4] [--mesh RxC | --torus RxC] [--alpha A]\n"
    "               [--flits F] [--packets P]\n"
    "               [--src T] [--count N] [--window W] [--idle X] [--stall X]\n"
    "               [--router-delay R] [--inject-gap G] [--vcs V] [--depth B]\n"
    "               [--pipeline P] [--credit-delay D]\n"
    "               [--routing NAME] [--packet-flits K] [--rate X] [--cycles N] [common options]\n"
    "Drives the Verilated wormhole mesh (rtl_models/rtl/tsr_mesh_top.sv) on an R x C mesh\n"
    "(default 4x4) in the top-left corner of the model, or an R x C torus (--torus, on the\n"
    "VC models, with --vcs 2+ and --routing xy or yx: wraparound links, dateline VC classes;\n"
    "scenarios hops, random, agree and uniform):\n"
    "  --model 8x8      Vtsr_mesh_8x8, 8 x 8, 1 VC, BufferDepth 8 (the default)\n"
    "  --model 4x4_vc4  Vtsr_mesh_4x4_vc4, 4 x 4, 4 VCs, BufferDepth 8, assertions, --trace\n"
    "  --model 8x8_vc4  Vtsr_mesh_8x8_vc4, 8 x 8, 4 VCs, BufferDepth 8\n"
    "Run-time settings: --router-delay (default 1), --pipeline (1), --credit-delay (1),\n"
    "--inject-gap (1), --vcs (1), --depth (4,\n"
    "flits per VC FIFO), --alpha (0), --routing (xy, the default; yx, o1turn with 2+ VCs, "
    "west-first,\n"
    "north-last, negative-first, odd-even: docs/wormhole.md, Routing). Golden counts "
    "are derived in tb_mesh.cpp's header from\n"
    "docs/wormhole.md; --scenario agree compares every message with\n"
    "tb/reference/flit_reference.hpp.\n"
    "--scenario file posts the messages of --stimulus FILE.json, {\"messages\": [{\"src\",\n"
    "\"dst\", \"flits\", \"packet_flits\" (0), \"at\" (0), \"want\" (cycles from the NI\n"
    "taking it to its delivery, optional), \"what\" (a name)}, ...]} (docs/rtl.md, \"Add\n"
    "your own golden test\").\n"
    "The watchdog reports a deadlock when no flit moves and no message is taken for\n"
    "2000 cycles (plus alpha, inject_gap and a hop's delays) while messages are owed.\n";

namespace {

bool fraction(std::string_view s, double& v) {
  try {
    std::size_t used = 0;
    v = std::stod(std::string(s), &used);
    return used == s.size() && v >= 0.0 && v < 1.0;
  } catch (...) {
    return false;
  }
}

bool shape_of(std::string_view s, mesh_shape& shape) {
  const auto x = s.find('x');
  std::uint64_t r = 0;
  std::uint64_t c = 0;
  if (x == std::string_view::npos || !parse_number(s.substr(0, x), r) ||
      !parse_number(s.substr(x + 1), c) || r < 1 || c < 1 || r > mesh_max_side || c > mesh_max_side)
    return false;
  shape = mesh_shape{static_cast<unsigned>(r), static_cast<unsigned>(c)};
  return true;
}

std::string in_range(std::string_view name, std::uint64_t n, std::uint64_t lo, std::uint64_t hi,
                     unsigned& out) {
  if (n < lo || n > hi)
    return std::string(name) + " " + std::to_string(n) + " is out of range " + std::to_string(lo) +
           ".." + std::to_string(hi);
  out = static_cast<unsigned>(n);
  return {};
}

}  // namespace

std::string own_option(options& o, std::string_view a, std::string_view v) {
  std::uint64_t n = 0;
  const bool num = parse_number(v, n);
  if (a == "--scenario") {
    o.scenario = v;
  } else if (a == "--model") {
    if (v != "8x8" && v != "4x4_vc4" && v != "8x8_vc4")
      return "--model must be 8x8, 4x4_vc4 or 8x8_vc4, not '" + std::string(v) + "'";
    o.model = v;
  } else if (a == "--routing") {
    const auto at = std::find(routing_names.begin(), routing_names.end(), v);
    if (at == routing_names.end())
      return "--routing must be xy, yx, o1turn, west-first, north-last, negative-first or "
             "odd-even, not '" +
             std::string(v) + "'";
    o.set.routing = static_cast<unsigned>(at - routing_names.begin());
  } else if (a == "--mesh" || a == "--torus") {
    if (!shape_of(v, o.shape))
      return std::string(a) + " must be RxC within " + std::to_string(mesh_max_side) + "x" +
             std::to_string(mesh_max_side) + ", not '" + std::string(v) + "'";
    o.shape.wrap = a == "--torus";
  } else if (a == "--stimulus") {
    o.stimulus = v;
  } else if (a == "--idle" || a == "--stall" || a == "--rate") {
    double& x = a == "--idle" ? o.idle : a == "--stall" ? o.stall : o.rate;
    if (!fraction(v, x))
      return std::string(a) + " must be a fraction in [0, 1), not '" + std::string(v) + "'";
  } else if (!num) {
    return "bad value for " + std::string(a) + ": '" + std::string(v) + "'";
  } else if (a == "--alpha") {
    return in_range(a, n, 0, mesh_8x8.max_alpha, o.set.alpha);
  } else if (a == "--router-delay") {
    return in_range(a, n, 0, mesh_8x8.max_router_delay, o.set.router_delay);
  } else if (a == "--pipeline") {
    return in_range(a, n, 1, mesh_max_pipeline, o.set.pipeline);
  } else if (a == "--credit-delay") {
    return in_range(a, n, mesh_8x8.min_credit_delay, mesh_max_credit_delay, o.set.credit_delay);
  } else if (a == "--inject-gap") {
    return in_range(a, n, 1, mesh_8x8.max_inject_gap, o.set.inject_gap);
  } else if (a == "--vcs") {
    return in_range(a, n, 1, mesh_max_vcs, o.set.vcs);
  } else if (a == "--depth") {
    return in_range(a, n, 1, 1024, o.set.depth);
  } else if (a == "--flits") {
    return in_range(a, n, 1, mesh_8x8.max_flits, o.flits);
  } else if (a == "--packets") {
    return in_range(a, n, 1, 16, o.packets);
  } else if (a == "--packet-flits") {
    return in_range(a, n, 0, mesh_8x8.max_flits, o.packet_flits);
  } else if (a == "--src") {
    return in_range(a, n, 0, mesh_max_side * mesh_max_side - 1, o.src);
  } else if (a == "--count") {
    return in_range(a, n, 1, 100000, o.count);
  } else if (a == "--window") {
    o.window = n;
  } else if (a == "--cycles") {
    o.cycles = n;
  } else {
    return "unknown option " + std::string(a);
  }
  return {};
}

std::string consistent(const options& o) {
  if (o.flits * o.packets > 0xffffU) return "--flits times --packets must fit 16 bits";
  // The random messages of agree and share (1..--flits flits each), bounded in all: the
  // checks and the reference keep every flit's record.
  if ((o.scenario == "agree" || o.scenario == "share") &&
      std::uint64_t{o.count} * o.flits > max_total_flits)
    return "--count " + std::to_string(o.count) + " messages of up to " + std::to_string(o.flits) +
           " flits may be more than " + std::to_string(max_total_flits) + " flits in all";
  if ((o.scenario == "file") != !o.stimulus.empty())
    return "--scenario file and --stimulus FILE.json go together";
  if (o.src >= o.shape.tiles())
    return "--src " + std::to_string(o.src) + " is not a tile of the " +
           std::to_string(o.shape.rows) + "x" + std::to_string(o.shape.cols) + " mesh";
  return {};
}

}  // namespace tessera::tb::mesh
