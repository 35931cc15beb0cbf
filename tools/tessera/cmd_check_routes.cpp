// `tessera check-routes`: the channel dependency graph (Dally and Seitz, IEEE Trans.
// Computers C-36(5), 1987) of a fabric's routing under an engine's rules, with its VCs
// or dateline buffer classes and any forwarding tables, either acyclic (no deadlock, exit
// 0) or with one cycle of channels printed (exit 1). The graphs are
// net/route_dependencies.hpp's.
#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "commands.hpp"
#include "readers.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/net/route_dependencies.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/runtime/routing.hpp"
#include "workload.hpp"

namespace tessera::cli {

command_line check_routes_command_line() {
  command_line c("check-routes",
                 "tessera check-routes --fabric F [--switching S] [--routes FILE] "
                 "[--param key=value ...] [--json]",
                 R"(Proves a routing deadlock free, or shows how it deadlocks: builds the channel
dependency graph (Dally and Seitz, 1987) of the fabric's routing under the engine's
rules, every route of every source and destination and every choice an adaptive
routing allows, a channel being a directed link and one of its VCs (wormhole) or
dateline buffer classes (store-forward), and searches it for a cycle.)");
  c.value("fabric", "F", "mesh:RxC, torus:RxC, ring:P or hypercube:D")
      .value("switching", "S",
             "the engine whose rules are checked: wormhole (mesh, torus), store-forward "
             "(mesh, torus, ring) or circuit (hypercube); default the fabric's (run --help)")
      .value(
          "routes", "FILE",
          R"(store-forward: forwarding entries as run takes them, JSON {"routes": [{"tile", "dst", "port"}]}; tiles without an entry keep dimension order)")
      .add({"param", "k=v",
            "what the routes depend on: wormhole routing and vcs, store-forward buffers, "
            "circuit blocking (ranges as run takes them)",
            true})
      .flag("json",
            "one JSON object: acyclic, channels, dependencies, cycle[] (tile, port, to, vc or "
            "class, name)")
      .footer(R"(Output: the configuration, then "acyclic" with the number of channels and
dependencies (exit 0), or one cycle of channels, each depending on the next and the
last on the first (exit 1). Injection and ejection channels cannot lie on a cycle and
are not counted. Exit 2 for bad input. A wormhole torus with vcs 1, which run refuses,
is checked: its graph shows the cycles the dateline classes break.)");
  return c;
}

namespace {

// The keys each engine's routes depend on; any other --param changes nothing here.
std::vector<std::string_view> route_keys(models::switching sw) {
  switch (sw) {
    case models::switching::wormhole:
      return {"routing", "vcs"};
    case models::switching::store_forward:
      return {"buffers"};
    case models::switching::circuit:
      return {"blocking"};
    default:
      return {};
  }
}

std::string joined(const std::vector<std::string_view>& words) {
  std::string out;
  for (const std::string_view w : words)
    out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

struct checked {
  net::channel_graph g;
  std::string_view unit;  // "vc", "class", or "" (one channel a link)
};

checked build(const fabric& f, models::switching sw, const models::engine_params& p,
              const std::vector<net::forwarding_entry>& routes) {
  switch (sw) {
    case models::switching::wormhole:
      return {net::wormhole_dependencies(f, p.wormhole.routing, p.wormhole.vcs), "vc"};
    case models::switching::store_forward: {
      net::torus_engine e{f, p.torus};
      if (!routes.empty()) e.set_forwarding(routes, net::torus_engine::deadlock_check::skip);
      return {e.dependencies(), "class"};
    }
    default:
      return {net::circuit_dependencies(f, p.circuit.blocking), ""};
  }
}

}  // namespace

int cmd_check_routes(const args& a, std::ostream& out, std::ostream&) {
  const std::string spec = a.require("fabric");
  const fabric f = parse_fabric_arg(spec);
  models::switching sw = models::default_switching(f.kind);
  if (const auto s = a.get("switching")) {
    if (!models::parse_switching(*s, sw)) {
      throw input_error("--switching '" + shown(*s) + "' is not an engine (" +
                        models::switching_names() + ")");
    }
  }
  const models::engine_info& eng = models::engine(sw);
  const std::vector<std::string_view> keys = route_keys(sw);
  if (keys.empty()) {
    throw input_error("--switching " + std::string(eng.name) +
                      " has no routes to check (its messages hold no links while they wait)");
  }
  if (!eng.supports(f.kind)) {
    throw input_error("--switching " + std::string(eng.name) + " does not run on " + spec);
  }
  models::engine_params p;
  for (const std::string& kv : a.all("param")) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw input_error("--param '" + shown(kv) + "' is not key=value");
    const std::string key = kv.substr(0, eq);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      throw input_error("--param " + shown(key) + " does not change the routes of " +
                        std::string(eng.name) + " switching (check-routes reads " + joined(keys) +
                        ")");
    }
    models::set_param(p, sw, key, kv.substr(eq + 1));
  }
  std::vector<net::forwarding_entry> routes;
  if (const auto file = a.get("routes")) {
    if (sw != models::switching::store_forward)
      throw input_error("forwarding tables (--routes) apply to store-forward switching");
    routes = load_routes(*file, f);
    if (routes.empty()) throw input_error("--routes has no entries");
  }

  const checked c = build(f, sw, p, routes);
  const std::vector<net::channel> cycle = c.g.find_cycle();
  const std::uint64_t channels = c.g.channels();
  const std::uint64_t dependencies = c.g.dependencies();

  nlohmann::ordered_json params = nlohmann::ordered_json::object();
  std::string config;
  for (const std::string_view k : keys) {
    const models::param* row = models::find_param(sw, k);
    const std::string v = row->text(row->get(p));
    params[std::string(k)] = row->kind == models::param_kind::count
                                 ? nlohmann::ordered_json(row->get(p))
                                 : nlohmann::ordered_json(v);
    config += ", " + std::string(k) + " " + v;
  }
  if (!routes.empty()) {
    config += ", " + std::to_string(routes.size()) + " forwarding entr" +
              (routes.size() == 1 ? "y" : "ies");
  }

  if (a.flag("json")) {
    nlohmann::ordered_json j;
    j["command"] = "check-routes";
    j["fabric"] = spec;
    j["switching"] = std::string(eng.name);
    j["params"] = std::move(params);
    j["forwarding_entries"] = routes.size();
    j["acyclic"] = cycle.empty();
    j["channels"] = channels;
    j["dependencies"] = dependencies;
    auto arr = nlohmann::ordered_json::array();
    for (const net::channel& ch : cycle) {
      const link_ends ends = endpoints(f, link_id{ch.link});
      nlohmann::ordered_json e;
      e["tile"] = ends.from.value();
      e["port"] = c.g.port_name(ch.link);
      e["to"] = ends.to.value();
      if (!c.unit.empty()) e[std::string(c.unit)] = ch.vc;
      e["name"] = c.g.name(ch, c.unit);
      arr.push_back(std::move(e));
    }
    j["cycle"] = std::move(arr);
    out << j.dump(2) << '\n';
    return cycle.empty() ? 0 : 1;
  }
  out << spec << ", " << eng.name << config << ": ";
  if (cycle.empty()) {
    out << "acyclic, " << channels << " channels, " << dependencies
        << " dependencies: no cycle of waits, deadlock free\n";
    return 0;
  }
  out << "a cycle of " << cycle.size() << " channels (of " << channels << " channels, "
      << dependencies << " dependencies), each waited for by the one before:\n";
  for (const net::channel& ch : cycle)
    out << "  " << c.g.name(ch, c.unit) << '\n';
  const net::channel& first = cycle.front();
  out << "  back to " << c.g.name(first, c.unit) << '\n';
  return 1;
}

}  // namespace tessera::cli
