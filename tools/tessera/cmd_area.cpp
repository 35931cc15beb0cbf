// `tessera area`: the area of a router, a network interface or a whole fabric from Yosys
// synthesis of the RTL the models simulate (tessera/price/area.hpp, docs/ppa.md).
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "commands.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/price/area.hpp"

namespace tessera::cli {

command_line area_command_line() {
  command_line c("area",
                 "tessera area (--router R | --fabric F [--switching S]) [--param k=v ...]\n"
                 "       [--target ice40|xilinx|gates|all] [--json]",
                 R"(The area of one design of the RTL (rtl_models/rtl) that --model rtl simulates,
synthesized by Yosys: FPGA resources on iCE40 (synth_ice40: LUT4, flip-flops, carries,
RAM blocks) and Xilinx 7-series (synth_xilinx: LUT6, flip-flops, LUTRAM, block RAM), and
a technology-neutral gate count (NAND2 equivalents: Yosys's CMOS transistor estimate of
the generic gate netlist, divided by the 4 transistors of a NAND2). Results are cached
under a hash of the RTL files, the design and its parameters ($TESSERA_AREA_CACHE, else
~/.cache/tessera/area), so a configuration is synthesized once.)");
  c.value("router", "R", R"(one module:
 mesh      the wormhole mesh router (tsr_mesh_router): vcs, buffer,
           width, router_delay, pipeline, credit_delay, wrap
 mesh-ni   its network interface (tsr_mesh_ni): vcs, buffer, width
 torus     the store-and-forward torus node (tsr_torus_node):
           buffers, packet_bytes, trees
 torus-ni  its network interface (tsr_torus_ni): buffers, packet_bytes
 cube      the circuit-switched hypercube node (tsr_cube_node): dims,
           width
 cube-ni   its network interface (tsr_cube_ni): dims, width)")
      .value("fabric", "F",
             "a whole fabric of routers and network interfaces, up to 16 tiles: mesh:RxC, "
             "torus:RxC (store-and-forward, or wormhole with --switching wormhole), hypercube:D")
      .value("switching", "S",
             "with --fabric: wormhole, store-forward or circuit (default: the fabric's)")
      .add({"param", "k=v",
            "a parameter of the design, named as tessera models names it (vcs, buffer, width "
            "in bytes, router_delay, pipeline and credit_delay: the largest built for, "
            "wrap: the torus's dateline classes; buffers, packet_bytes, trees; dims)",
            true})
      .value("target", "T", "ice40, xilinx, gates or all (default all)")
      .value("cache", "DIR",
             "the cache directory (default $TESSERA_AREA_CACHE or ~/.cache/tessera/area)")
      .flag("json",
            R"(one JSON object: router (or fabric), params, and per target ice40 {lut4, ff,
carry, ram}, xilinx {lut, ff, lutram, bram, carry}, gates {transistors, nand2_eq})")
      .footer(
          R"(Exit 2 for a design or a parameter value the RTL cannot build (the message names the
range); 1 when Yosys fails or reports that it misread the RTL.)");
  return c;
}

namespace {

std::vector<std::pair<std::string, std::string>> key_values(const args& a) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& kv : a.all("param")) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw input_error("--param " + kv + " is not key=value");
    out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return out;
}

unsigned parse_targets(const std::optional<std::string>& t) {
  if (!t || *t == "all") return price::all_targets;
  for (const auto x : {price::target::ice40, price::target::xilinx, price::target::gates})
    if (*t == price::target_name(x)) return static_cast<unsigned>(x);
  throw input_error("--target " + *t + " is not ice40, xilinx, gates or all");
}

}  // namespace

int cmd_area(const args& a, std::ostream& out, std::ostream&) {
  if (a.has("router") == a.has("fabric")) throw input_error("give one of --router and --fabric");
  if (a.has("switching") && !a.has("fabric"))
    throw input_error("--switching " + *a.get("switching") +
                      " needs --fabric (a router names its own)");
  const auto params = key_values(a);
  const price::area_design d =
      a.has("router")
          ? price::describe_router(*a.get("router"), params)
          : price::describe_fabric(*a.get("fabric"), a.get("switching").value_or(""), params);
  const unsigned targets = parse_targets(a.get("target"));
  price::area_env env = price::default_env();
  if (const auto c = a.get("cache")) env.cache_dir = *c;
  const price::area_result r = price::synthesize(d, targets, env);

  if (a.flag("json")) {
    nlohmann::ordered_json j;
    j[a.has("router") ? "router" : "fabric"] = d.name;
    j["top"] = d.top;
    j["params"] = nlohmann::ordered_json::object();
    for (const auto& p : d.params)
      j["params"][p.key] = p.value;
    if (r.ice40) {
      j["ice40"] = {{"lut4", r.ice40->lut4},
                    {"ff", r.ice40->ff},
                    {"carry", r.ice40->carry},
                    {"ram", r.ice40->ram}};
    }
    if (r.xilinx) {
      j["xilinx"] = {{"lut", r.xilinx->lut},
                     {"ff", r.xilinx->ff},
                     {"lutram", r.xilinx->lutram},
                     {"bram", r.xilinx->bram},
                     {"carry", r.xilinx->carry}};
    }
    if (r.gates)
      j["gates"] = {{"transistors", r.gates->transistors}, {"nand2_eq", r.gates->nand2_eq}};
    j["storage_bits"] = d.storage_bits;
    j["cached"] = nlohmann::ordered_json::array();
    for (const auto t : {price::target::ice40, price::target::xilinx, price::target::gates})
      if ((r.from_cache & static_cast<unsigned>(t)) != 0)
        j["cached"].push_back(price::target_name(t));
    j["synth_seconds"] = r.synth_seconds;
    out << j.dump() << '\n';
    return 0;
  }
  std::ostringstream ps;
  for (const auto& p : d.params)
    ps << (ps.tellp() > 0 ? " " : "") << p.key << '=' << p.value;
  out << d.name << " (" << d.top << "): " << ps.str() << '\n';
  auto line = [&](std::string_view target, std::string_view what, auto n) {
    out << "  " << std::left << std::setw(8) << target << std::setw(12) << what << std::right
        << std::setw(10) << n << '\n';
  };
  if (r.ice40) {
    line("ice40", "LUT4", r.ice40->lut4);
    line("", "flip-flops", r.ice40->ff);
    line("", "carries", r.ice40->carry);
    line("", "RAM blocks", r.ice40->ram);
  }
  if (r.xilinx) {
    line("xilinx", "LUT", r.xilinx->lut);
    line("", "flip-flops", r.xilinx->ff);
    line("", "LUTRAM", r.xilinx->lutram);
    line("", "BRAM", r.xilinx->bram);
    line("", "CARRY4", r.xilinx->carry);
  }
  if (r.gates) {
    line("gates", "transistors", r.gates->transistors);
    std::ostringstream nand;
    nand << std::fixed << std::setprecision(0) << r.gates->nand2_eq;
    line("", "NAND2 eq.", nand.str());
  }
  out << "  storage " << d.storage_bits << " bits; "
      << (r.from_cache == targets
              ? std::string("all from the cache")
              : "synthesized in " + std::to_string(static_cast<int>(r.synth_seconds + 0.5)) + " s")
      << '\n';
  return 0;
}

}  // namespace tessera::cli
