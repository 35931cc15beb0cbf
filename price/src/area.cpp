// `tessera area`'s designs, the Yosys flows and the cache (tessera/price/area.hpp).
#include "tessera/price/area.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <nlohmann/json.hpp>

#include "tessera/common/errors.hpp"
#include "tessera/common/hash.hpp"
#include "tessera/common/install_paths.hpp"

extern char** environ;

namespace tessera::price {

namespace {

// Bumped whenever a flow script or its parsing changes, so that no stale result is read.
// Per target: up to version 2 the targets ran one after another in one Yosys process, so
// that the Xilinx and gate counts depended on which flows ran before them; from 3 each
// runs in a process of its own (the iCE40 flow, always first, is unchanged).
std::string_view flow_version(target t) {
  return t == target::ice40 ? "area-flow-2" : "area-flow-3";
}

// Control bits of a mesh flit (tsr_pkg mesh_ctl_t: head, tail, odd, vc, dst, src).
constexpr std::uint64_t mesh_ctl_bits = 1 + 1 + 1 + 2 + 12 + 12;

// A parameter a design takes: the user's name, its range and default, what it sets.
struct row {
  std::string_view key;
  std::uint64_t min;
  std::uint64_t max;
  std::uint64_t def;
  std::string_view unit;
  bool power_of_two{false};
};

const std::vector<std::string> mesh_files = {
    "tsr_pkg.sv",        "tsr_fifo.sv",       "tsr_rr_arbiter.sv", "tsr_credit_counter.sv",
    "tsr_mesh_delay.sv", "tsr_mesh_route.sv", "tsr_mesh_ctl.sv",   "tsr_mesh_router.sv"};
const std::vector<std::string> torus_files = {
    "tsr_pkg.sv",          "tsr_rr_arbiter.sv",       "tsr_credit_counter.sv", "tsr_torus_route.sv",
    "tsr_torus_buffer.sv", "tsr_torus_serializer.sv", "tsr_torus_node.sv"};
const std::vector<std::string> cube_files = {"tsr_pkg.sv", "tsr_cube_node.sv"};

const row r_vcs{"vcs", 1, 4, 1, ""};
const row r_buffer{"buffer", 1, 64, 4, "flits"};
const row r_width{"width", 1, 128, 4, "bytes"};
const row r_router_delay{"router_delay", 0, 255, 1, "cycles"};
const row r_pipeline{"pipeline", 1, 16, 1, "cycles"};
const row r_credit_delay{"credit_delay", 1, 16, 1, "cycles"};
const row r_wrap{"wrap", 0, 1, 0, ""};
const row r_buffers{"buffers", 2, 16, 4, "packets"};
const row r_packet_bytes{"packet_bytes", 1, 256, 256, "bytes"};
const row r_trees{"trees", 1, 16, 4, ""};
const row r_dims{"dims", 1, 16, 3, ""};
const row r_cube_width{"width", 1, 8, 4, "bytes"};

std::string range_text(const row& r) {
  return std::to_string(r.min) + ".." + std::to_string(r.max) +
         (r.power_of_two ? ", a power of two" : "") +
         (r.unit.empty() ? "" : " " + std::string(r.unit));
}

// The values of the rows from the user's key=value pairs: every key must be a row's,
// every value a number in its range.
std::vector<design_param> take(std::string_view design, const std::vector<row>& rows,
                               const std::vector<std::pair<std::string, std::string>>& given) {
  std::vector<design_param> out;
  for (const row& r : rows)
    out.push_back({std::string(r.key), r.def});
  for (const auto& kv : given) {
    const std::string& key = kv.first;
    const std::string& text = kv.second;
    const auto it =
        std::find_if(rows.begin(), rows.end(), [&key](const row& r) { return r.key == key; });
    if (it == rows.end()) {
      std::string keys;
      for (const row& r : rows)
        keys += (keys.empty() ? "" : ", ") + std::string(r.key);
      throw input_error("--param " + key + " is not a parameter of " + std::string(design) +
                        " (it takes " + keys + ")");
    }
    std::uint64_t v = 0;
    const bool digits =
        !text.empty() && text.size() <= 18 &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits) v = std::stoull(text);
    if (!digits || v < it->min || v > it->max || (it->power_of_two && (v & (v - 1)) != 0)) {
      throw input_error("--param " + key + "=" + text + " is out of range for " +
                        std::string(design) + " (" + range_text(*it) + ")");
    }
    out[static_cast<std::size_t>(it - rows.begin())].value = v;
  }
  return out;
}

std::uint64_t value(const std::vector<design_param>& ps, std::string_view key) {
  for (const auto& p : ps)
    if (p.key == key) return p.value;
  throw std::logic_error("area: no parameter " + std::string(key));
}

// Slots of the mesh router's head-delay ring: a power of two above the longest head
// delay, router_delay + pipeline - 1 (tsr_mesh_delay: delay_i < Slots).
std::uint64_t delay_slots(std::uint64_t router_delay, std::uint64_t pipeline) {
  std::uint64_t s = 2;
  while (s <= router_delay + pipeline - 1)
    s *= 2;
  return s;
}

void mesh_router_params(area_design& d, const std::vector<design_param>& ps) {
  d.rtl_params.emplace_back("VCs", value(ps, "vcs"));
  d.rtl_params.emplace_back("BufferDepth", value(ps, "buffer"));
  d.rtl_params.emplace_back("MaxPipeline", value(ps, "pipeline"));
  d.rtl_params.emplace_back("MaxCreditDelay", value(ps, "credit_delay"));
  d.rtl_params.emplace_back("DelaySlots",
                            delay_slots(value(ps, "router_delay"), value(ps, "pipeline")));
  d.rtl_params.emplace_back("Wrap", value(ps, "wrap"));
  d.rtl_params.emplace_back("Observe", 0);
}

// The flits the input VC FIFOs hold: 5 ports x VCs x depth flits, each without its VC
// field, which the FIFO it sits in gives (the router rewrites it at the output, so
// synthesis drops the stored copy).
std::uint64_t mesh_router_storage(const std::vector<design_param>& ps) {
  return 5 * value(ps, "vcs") * value(ps, "buffer") * (mesh_ctl_bits - 2 + 8 * value(ps, "width"));
}

}  // namespace

std::vector<std::string_view> router_names() {
  return {"mesh", "mesh-ni", "torus", "torus-ni", "cube", "cube-ni"};
}

area_design describe_router(std::string_view router,
                            const std::vector<std::pair<std::string, std::string>>& params) {
  area_design d;
  d.name = std::string(router);
  if (router == "mesh") {
    d.params =
        take(router, {r_vcs, r_buffer, r_width, r_router_delay, r_pipeline, r_credit_delay, r_wrap},
             params);
    d.top = "tsr_mesh_router";
    d.files = mesh_files;
    mesh_router_params(d, d.params);
    d.rtl_params.emplace_back("DataWidth", 8 * value(d.params, "width"));
    d.storage_bits = mesh_router_storage(d.params);
  } else if (router == "mesh-ni") {
    d.params = take(router, {r_vcs, r_buffer, r_width}, params);
    d.top = "tsr_mesh_ni";
    d.files = {"tsr_pkg.sv", "tsr_credit_counter.sv", "tsr_mesh_ni.sv"};
    d.rtl_params = {{"VCs", value(d.params, "vcs")},
                    {"BufferDepth", value(d.params, "buffer")},
                    {"DataWidth", 8 * value(d.params, "width")}};
  } else if (router == "torus") {
    d.params = take(router, {r_buffers, r_packet_bytes, r_trees}, params);
    d.top = "tsr_torus_node";
    d.files = torus_files;
    d.rtl_params = {{"Buffers", value(d.params, "buffers")},
                    {"MaxBytes", value(d.params, "packet_bytes")},
                    {"Trees", value(d.params, "trees")}};
    d.storage_bits = 5 * value(d.params, "buffers") * value(d.params, "packet_bytes") * 8;
  } else if (router == "torus-ni") {
    d.params = take(router, {r_buffers, r_packet_bytes}, params);
    d.top = "tsr_torus_ni";
    d.files = {"tsr_pkg.sv", "tsr_credit_counter.sv", "tsr_torus_ni.sv"};
    d.rtl_params = {{"Buffers", value(d.params, "buffers")},
                    {"MaxBytes", value(d.params, "packet_bytes")}};
  } else if (router == "cube") {
    d.params = take(router, {r_dims, r_cube_width}, params);
    d.top = "tsr_cube_node";
    d.files = cube_files;
    d.rtl_params = {{"Dims", value(d.params, "dims")}, {"DataWidth", 8 * value(d.params, "width")}};
  } else if (router == "cube-ni") {
    d.params = take(router, {r_dims, r_cube_width}, params);
    d.top = "tsr_cube_ni";
    d.files = {"tsr_pkg.sv", "tsr_cube_ni.sv"};
    d.rtl_params = {{"Dims", value(d.params, "dims")}, {"DataWidth", 8 * value(d.params, "width")}};
  } else {
    std::string names;
    for (const auto n : router_names())
      names += (names.empty() ? "" : ", ") + std::string(n);
    throw input_error("--router " + std::string(router) + " is not a design (available: " + names +
                      ")");
  }
  return d;
}

area_design describe_run_router(const fabric& f, models::switching sw,
                                const models::engine_params& p) {
  const auto n = [](std::uint64_t v) { return std::to_string(v); };
  if (sw == models::switching::wormhole &&
      (f.kind == fabric_kind::mesh || f.kind == fabric_kind::torus)) {
    const net::wormhole_params& w = p.wormhole;
    return describe_router("mesh", {{"vcs", n(w.vcs)},
                                    {"buffer", n(w.buffer)},
                                    {"width", n(w.width)},
                                    {"router_delay", n(w.router_delay)},
                                    {"pipeline", n(w.pipeline)},
                                    {"credit_delay", n(w.credit_delay)},
                                    {"wrap", f.kind == fabric_kind::torus ? "1" : "0"}});
  }
  if (sw == models::switching::store_forward && f.kind == fabric_kind::torus) {
    if (p.torus.packet_bytes == 0) {
      throw input_error(
          "--area prices the RTL torus node, whose packets carry 1..256 bytes: give --param "
          "packet_bytes (0, a message a packet, has no node to price)");
    }
    return describe_router(
        "torus", {{"buffers", n(p.torus.buffers)}, {"packet_bytes", n(p.torus.packet_bytes)}});
  }
  if (sw == models::switching::circuit && f.kind == fabric_kind::hypercube)
    return describe_router("cube", {{"dims", n(f.ports())}, {"width", n(p.circuit.width)}});
  throw input_error(
      "--area prices the RTL routers: wormhole on a mesh or torus, store-forward "
      "on a torus, circuit on a hypercube; this run is " +
      std::string(models::switching_name(sw)) + " on a " + std::string(kind_name(f.kind)));
}

std::string design_label(const area_design& d) {
  std::string s = d.name;
  for (const design_param& q : d.params)
    s += " " + q.key + "=" + std::to_string(q.value);
  return s;
}

area_design describe_fabric(std::string_view fabric, std::string_view switching,
                            const std::vector<std::pair<std::string, std::string>>& params) {
  const std::string spec(fabric);
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string shape = colon == std::string::npos ? "" : spec.substr(colon + 1);
  auto number = [&](const std::string& s) -> std::uint64_t {
    if (s.empty() || s.size() > 4 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw input_error("--fabric " + spec + " is not mesh:RxC, torus:RxC or hypercube:D");
    return std::stoull(s);
  };
  std::uint64_t rows = 1;
  std::uint64_t cols = 1;
  std::uint64_t dims = 0;
  if (kind == "mesh" || kind == "torus") {
    const auto x = shape.find('x');
    if (x == std::string::npos)
      throw input_error("--fabric " + spec + " is not mesh:RxC, torus:RxC or hypercube:D");
    rows = number(shape.substr(0, x));
    cols = number(shape.substr(x + 1));
    if (rows < 1 || cols < 1 || rows * cols > 16 || rows * cols < 2)
      throw input_error("--fabric " + spec + ": a fabric to synthesize has 2..16 tiles");
  } else if (kind == "hypercube") {
    dims = number(shape);
    if (dims < 1 || dims > 4)
      throw input_error("--fabric " + spec + ": a hypercube to synthesize has 1..4 dimensions");
  } else {
    throw input_error("--fabric " + spec + " is not mesh:RxC, torus:RxC or hypercube:D");
  }
  std::string sw(switching);
  if (sw.empty()) sw = kind == "mesh" ? "wormhole" : kind == "torus" ? "store-forward" : "circuit";
  area_design d;
  d.name = spec;
  if (sw == "wormhole" && (kind == "mesh" || kind == "torus")) {
    row width = r_width;
    width.power_of_two = true;  // tsr_mesh_top: FlitWidth a power of two from 8 bits
    row vcs = r_vcs;
    if (kind == "torus") vcs = {"vcs", 2, 4, 2, ""};  // the dateline classes need two
    d.params =
        take(spec, {vcs, r_buffer, width, r_router_delay, r_pipeline, r_credit_delay}, params);
    d.top = "tsr_mesh_top";
    d.files = mesh_files;
    d.files.push_back("tsr_mesh_ni.sv");
    d.files.push_back("tsr_mesh_top.sv");
    d.rtl_params = {{"Rows", rows}, {"Cols", cols}};
    std::vector<design_param> with_wrap = d.params;
    with_wrap.push_back({"wrap", kind == "torus" ? 1U : 0U});
    mesh_router_params(d, with_wrap);
    d.rtl_params.emplace_back("FlitWidth", 8 * value(d.params, "width"));
    d.storage_bits = rows * cols * mesh_router_storage(d.params);
  } else if (sw == "store-forward" && kind == "torus") {
    if (rows < 2 || cols < 2)
      throw input_error("--fabric " + spec +
                        ": a store-and-forward torus has at least 2 rows and 2 columns");
    d.params = take(spec, {r_buffers, r_packet_bytes, r_trees}, params);
    d.top = "tsr_torus_top";
    d.files = torus_files;
    d.files.push_back("tsr_torus_ni.sv");
    d.files.push_back("tsr_torus_top.sv");
    d.rtl_params = {{"Rows", rows},
                    {"Cols", cols},
                    {"Buffers", value(d.params, "buffers")},
                    {"MaxBytes", value(d.params, "packet_bytes")},
                    {"Trees", value(d.params, "trees")}};
    d.storage_bits =
        rows * cols * 5 * value(d.params, "buffers") * value(d.params, "packet_bytes") * 8;
  } else if (sw == "circuit" && kind == "hypercube") {
    d.params = take(spec, {r_cube_width}, params);
    d.top = "tsr_cube_top";
    d.files = cube_files;
    d.files.push_back("tsr_cube_ni.sv");
    d.files.push_back("tsr_cube_top.sv");
    d.rtl_params = {{"Dims", dims}, {"DataWidth", 8 * value(d.params, "width")}};
  } else {
    throw input_error("--switching " + sw + " has no RTL for --fabric " + spec +
                      " (wormhole: mesh, torus; store-forward: torus; circuit: hypercube)");
  }
  return d;
}

std::string_view target_name(target t) {
  switch (t) {
    case target::ice40:
      return "ice40";
    case target::xilinx:
      return "xilinx";
    case target::gates:
      return "gates";
  }
  return "?";
}

area_env default_env() {
  area_env e;
  if (const char* d = std::getenv("TESSERA_RTL_DIR"); d != nullptr && *d != '\0') {
    e.rtl_dir = d;
  } else {
    e.rtl_dir = data_path("rtl", TESSERA_RTL_SOURCE_DIR);
  }
  if (const char* c = std::getenv("TESSERA_AREA_CACHE"); c != nullptr && *c != '\0') {
    e.cache_dir = c;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') {
    e.cache_dir = std::filesystem::path(x) / "tessera" / "area";
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
    e.cache_dir = std::filesystem::path(h) / ".cache" / "tessera" / "area";
  }
  return e;
}

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("area: cannot read " + p.string());
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The Yosys commands of one target after the design is elaborated (hierarchy, proc),
// ending in a statistics report written to `stat`.
std::string target_script(target t, const std::string& top, const std::string& stat) {
  switch (t) {
    case target::ice40:
      return "synth_ice40 -top " + top + "; check -assert; tee -q -o " + stat + " stat -json";
    case target::xilinx:
      return "synth_xilinx -top " + top +
             " -family xc7 -flatten -noiopad; check -assert; tee -q -o " + stat + " stat -json";
    case target::gates:
      // Generic gates; flip-flops with enables and resets become plain D flip-flops and
      // gates, so that the CMOS estimate counts every cell (Yosys prints a "+" for cells
      // it has no cost for).
      return "synth -top " + top +
             " -flatten; async2sync; dfflegalize -cell $_DFF_P_ 01; abc -g cmos2; opt_clean;"
             " check -assert; tee -q -o " +
             stat + " stat -tech cmos";
  }
  return "";
}

std::uint64_t count_of(const nlohmann::json& cells, std::initializer_list<std::string_view> names) {
  std::uint64_t n = 0;
  for (const auto& [name, v] : cells.items()) {
    for (const auto want : names) {
      const bool prefix = !want.empty() && want.back() == '*';
      const std::string_view stem = prefix ? want.substr(0, want.size() - 1) : want;
      if (prefix ? name.rfind(stem, 0) == 0 : name == stem) {
        n += v.get<std::uint64_t>();
        break;
      }
    }
  }
  return n;
}

nlohmann::json cells_of(const std::string& stat_json) {
  const auto j = nlohmann::json::parse(stat_json);
  if (j.contains("design"))
    return j.at("design").value("num_cells_by_type", nlohmann::json::object());
  const auto& mods = j.at("modules");
  if (mods.size() != 1)
    throw std::runtime_error("area: Yosys reported several modules and no design total");
  return mods.begin()->value("num_cells_by_type", nlohmann::json::object());
}

// The result of one target as the cache keeps it.
nlohmann::json parse_target(target t, const std::string& stat) {
  switch (t) {
    case target::ice40: {
      const auto c = cells_of(stat);
      return {{"lut4", count_of(c, {"SB_LUT4"})},
              {"ff", count_of(c, {"SB_DFF*"})},
              {"carry", count_of(c, {"SB_CARRY"})},
              {"ram", count_of(c, {"SB_RAM40_4K*"})}};
    }
    case target::xilinx: {
      const auto c = cells_of(stat);
      return {{"lut", count_of(c, {"LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6"})},
              {"ff", count_of(c, {"FDRE", "FDSE", "FDCE", "FDPE"})},
              {"lutram", count_of(c, {"RAM32M*", "RAM64M*", "RAM32X1*", "RAM64X1*", "RAM128X1*",
                                      "RAM256X1*", "SRL16E", "SRLC32E", "SRLC16E"})},
              {"bram", count_of(c, {"RAMB18E1", "RAMB36E1"})},
              {"carry", count_of(c, {"CARRY4"})}};
    }
    case target::gates: {
      const std::string key = "Estimated number of transistors:";
      const auto at = stat.rfind(key);
      if (at == std::string::npos)
        throw std::runtime_error("area: Yosys gave no transistor estimate");
      const auto eol = stat.find('\n', at);
      const std::string line = stat.substr(
          at + key.size(), (eol == std::string::npos ? stat.size() : eol) - at - key.size());
      // A "+" after the number: cells without a cost were left out.
      if (line.find('+') != std::string::npos)
        throw std::runtime_error("area: the transistor estimate leaves cells out (" + line + ")");
      const std::uint64_t n = std::stoull(line);
      return {{"transistors", n}, {"nand2_eq", static_cast<double>(n) / 4.0}};
    }
  }
  return {};
}

// What in a Yosys log means the netlist is not the design the models simulate.
std::string misread(const std::string& log) {
  for (const std::string_view bad : {"is implicitly declared", "is used but has no driver",
                                     "Latch inferred", "$dlatch", "ERROR:"}) {
    const auto at = log.find(bad);
    if (at == std::string::npos) continue;
    const auto from = log.rfind('\n', at);
    const auto to = log.find('\n', at);
    return log.substr(
        from == std::string::npos ? 0 : from + 1,
        (to == std::string::npos ? log.size() : to) - (from == std::string::npos ? 0 : from + 1));
  }
  return "";
}

// Runs yosys on a script file, its output to the log; returns its exit status.
int run_yosys(const std::string& yosys, const std::filesystem::path& script,
              const std::filesystem::path& log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> args = {yosys, "-q",           "-l", log.string() + ".full",
                                   "-s",  script.string()};
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, yosys.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    throw input_error("area: cannot run " + yosys + " (" + std::strerror(rc) +
                      "); bash scripts/install-deps.sh installs Yosys");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("area: waitpid failed");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::string cache_key(const area_design& d, target t, const area_env& env) {
  fnv1a64 h;
  h.field(flow_version(t)).field(target_name(t)).field(d.top);
  for (const auto& [k, v] : d.rtl_params)
    h.field(k).field(std::to_string(v));
  for (const auto& f : d.files) {
    // The RTL is part of the installation (or the checkout), not of the request: say where
    // it was looked for rather than report an internal error.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(env.rtl_dir / f, ec)) {
      throw input_error("area: no RTL file " + (env.rtl_dir / f).string() +
                        " (the RTL is read from $TESSERA_RTL_DIR, else an installed "
                        "share/tessera/rtl, else the source tree's rtl_models/rtl)");
    }
    h.field(f).field(read_file(env.rtl_dir / f));
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h.value()));
  return std::string(d.top) + "-" + std::string(target_name(t)) + "-" + buf;
}

area_result synthesize(const area_design& d, unsigned targets, const area_env& env) {
  area_result r;
  std::vector<target> todo;
  std::vector<std::pair<target, nlohmann::json>> got;
  for (const target t : {target::ice40, target::xilinx, target::gates}) {
    if ((targets & static_cast<unsigned>(t)) == 0) continue;
    bool hit = false;
    if (!env.cache_dir.empty()) {
      const auto file = env.cache_dir / (cache_key(d, t, env) + ".json");
      std::error_code ec;
      if (std::filesystem::exists(file, ec)) {
        try {
          got.emplace_back(t, nlohmann::json::parse(read_file(file)).at("result"));
          r.from_cache |= static_cast<unsigned>(t);
          hit = true;
        } catch (const std::exception&) {
          hit = false;  // a damaged entry is synthesized again and overwritten
        }
      }
    }
    if (!hit) todo.push_back(t);
  }
  if (!todo.empty()) {
    // One Yosys process per target: a target's netlist must not depend on
    // the flows that ran before it in the same process (Yosys numbers the cells it makes
    // from one counter per process, and ABC's result follows the names). Each call has
    // its own directory, also when several threads of one process synthesize at once.
    static std::atomic<unsigned> calls{0};
    const std::string unique = std::to_string(::getpid()) + "-" + std::to_string(calls++);
    std::filesystem::path work =
        std::filesystem::temp_directory_path() / ("tessera-area-" + unique);
    std::filesystem::create_directories(work);
    std::ostringstream elaborate;
    elaborate << "read_verilog -sv";
    for (const auto& f : d.files)
      elaborate << ' ' << (env.rtl_dir / f).string();
    elaborate << "\n";
    // One chparam for all the parameters: each call elaborates the module again.
    if (!d.rtl_params.empty()) {
      elaborate << "chparam";
      for (const auto& [k, v] : d.rtl_params)
        elaborate << " -set " << k << ' ' << v;
      elaborate << ' ' << d.top << "\n";
    }
    elaborate << "hierarchy -check -top " << d.top << "\nrename -top " << d.top
              << "\nproc\ncheck -assert\n"
              << "design -save elaborated\ndesign -load elaborated\n";
    struct job {
      target t;
      std::filesystem::path stat, log;
    };
    std::vector<job> jobs;
    for (const target t : todo) {
      const std::string name(target_name(t));
      job j{t, work / (name + ".stat"), work / (name + ".log")};
      const auto script_file = work / (name + ".ys");
      std::ofstream(script_file) << elaborate.str() << target_script(t, d.top, j.stat.string())
                                 << "\n";
      jobs.push_back(std::move(j));
    }
    // One after another: a fabric's flow can take 9 GB, and three at once were killed for
    // memory (the 4 x 4 torus); sweep --area's --jobs is the parallelism.
    const auto start = std::chrono::steady_clock::now();
    std::string failed;
    for (const auto& j : jobs) {
      if (!failed.empty()) break;
      const int rc = run_yosys(env.yosys, work / (std::string(target_name(j.t)) + ".ys"), j.log);
      const std::string full = read_file(j.log.string() + ".full");
      const std::string where =
          " (" + std::string(target_name(j.t)) + " flow, log " + j.log.string() + ".full)";
      if (rc != 0) {
        failed = "area: Yosys failed on " + d.name + " (exit " + std::to_string(rc) +
                 "): " + misread(full) + where;
      } else if (const std::string bad = misread(full); !bad.empty()) {
        failed = "area: Yosys misread " + d.name + ": " + bad + where;
      }
    }
    r.synth_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!failed.empty()) throw std::runtime_error(failed);
    for (const auto& j : jobs) {
      const target t = j.t;
      const auto res = parse_target(t, read_file(j.stat));
      got.emplace_back(t, res);
      if (!env.cache_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(env.cache_dir, ec);
        const auto file = env.cache_dir / (cache_key(d, t, env) + ".json");
        const auto tmp = file.string() + ".tmp" + unique;
        nlohmann::json entry = {
            {"design", d.name}, {"top", d.top}, {"target", target_name(t)}, {"result", res}};
        entry["rtl_params"] = nlohmann::json::object();
        for (const auto& [k, v] : d.rtl_params)
          entry["rtl_params"][k] = v;
        std::ofstream(tmp) << entry.dump(1) << "\n";
        std::filesystem::rename(tmp, file, ec);
      }
    }
    std::error_code ec;
    std::filesystem::remove_all(work, ec);
  }
  for (const auto& [t, j] : got) {
    switch (t) {
      case target::ice40:
        r.ice40 = ice40_area{j.at("lut4"), j.at("ff"), j.at("carry"), j.at("ram")};
        break;
      case target::xilinx:
        r.xilinx =
            xilinx_area{j.at("lut"), j.at("ff"), j.at("lutram"), j.at("bram"), j.at("carry")};
        break;
      case target::gates:
        r.gates = gate_area{j.at("transistors"), j.at("nand2_eq")};
        break;
    }
  }
  return r;
}

}  // namespace tessera::price
