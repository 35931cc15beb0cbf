// `tessera models`: the registry (tessera/models/registry.hpp) as users read it: the
// models, their engines, the fabrics each runs on and every parameter with its default,
// range and unit. `--markdown` prints the parameter tables docs/cli.md embeds, so the
// docs are regenerated from the same table the CLI validates with.
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "commands.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/run/run.hpp"

namespace tessera::cli {

command_line models_command_line() {
  command_line c("models", "tessera models [--markdown] [--json]",
                 R"(The models `tessera run --model` takes, the timing engines (`--switching`) each
drives, the fabrics an engine runs on, and every `--param` with its default, range,
unit and meaning.)");
  c.flag("markdown", "the parameter tables as docs/cli.md shows them")
      .flag("json",
            "one JSON object: models[] (with their own defaults[]) and engines[] with params[]");
  return c;
}

namespace {

std::string fabric_list(std::uint8_t bits) {
  std::string out;
  for (const fabric_kind k :
       {fabric_kind::mesh, fabric_kind::torus, fabric_kind::hypercube, fabric_kind::ring}) {
    if ((static_cast<unsigned>(bits) >> static_cast<unsigned>(k) & 1U) == 0) continue;
    out += (out.empty() ? "" : ", ") + std::string(kind_name(k));
  }
  return out.empty() ? "none" : out;
}

std::string_view kind_name(models::model_kind k) {
  switch (k) {
    case models::model_kind::closed_form:
      return "closed form";
    case models::model_kind::host_network:
      return "host network";
    case models::model_kind::platform:
      return "platform";
  }
  return "?";
}

nlohmann::ordered_json param_json(const models::param& q) {
  const models::engine_params defaults{};
  nlohmann::ordered_json j{{"key", q.key},
                           {"kind", q.kind == models::param_kind::count  ? "count"
                                    : q.kind == models::param_kind::flag ? "flag"
                                                                         : "choice"},
                           {"default", q.text(q.get(defaults))},
                           {"range", q.range_text()},
                           {"unit", q.unit},
                           {"doc", q.doc}};
  if (q.kind == models::param_kind::count) {
    j["min"] = q.min;
    j["max"] = q.max;
  }
  return j;
}

}  // namespace

int cmd_models(const args& a, std::ostream& out, std::ostream&) {
  if (a.flag("markdown") && a.flag("json"))
    throw input_error("--markdown and --json are two outputs; give one");
  if (a.flag("markdown")) {
    out << models::params_markdown();
    return 0;
  }
  if (a.flag("json")) {
    nlohmann::ordered_json j;
    j["command"] = "models";
    auto ms = nlohmann::ordered_json::array();
    for (const models::model_info& m : models::models()) {
      auto es = nlohmann::ordered_json::array();
      for (const models::switching sw : m.engines)
        es.push_back(models::switching_name(sw));
      // The model's own defaults of engine parameters (the RTL torus's packet size).
      auto ds = nlohmann::ordered_json::array();
      for (const models::model_default& d : m.defaults) {
        ds.push_back({{"switching", models::switching_name(d.sw)},
                      {"key", d.key},
                      {"default", models::find_param(d.sw, d.key)->text(d.value)},
                      {"why", d.why}});
      }
      ms.push_back({{"name", m.name},
                    {"summary", m.summary},
                    {"kind", kind_name(m.kind)},
                    {"available", run::model_available(m.name)},
                    {"engines", std::move(es)},
                    {"defaults", std::move(ds)}});
    }
    j["models"] = std::move(ms);
    auto es = nlohmann::ordered_json::array();
    for (const models::engine_info& e : models::engines()) {
      auto ps = nlohmann::ordered_json::array();
      for (const models::param& q : e.params)
        ps.push_back(param_json(q));
      es.push_back({{"switching", e.name},
                    {"summary", e.summary},
                    {"source", e.source},
                    {"fabrics", fabric_list(e.fabrics)},
                    {"default_for", fabric_list(e.default_for)},
                    {"params", std::move(ps)}});
    }
    j["engines"] = std::move(es);
    auto cs = nlohmann::ordered_json::array();
    for (const models::param& q : models::common_params())
      cs.push_back(param_json(q));
    j["common_params"] = std::move(cs);
    out << j.dump(2) << '\n';
    return 0;
  }
  std::ostringstream os;
  os << "models (--model):\n";
  for (const models::model_info& m : models::models()) {
    os << "  " << m.name << (run::model_available(m.name) ? "" : " (not in this build)") << ": "
       << m.summary << "\n    " << kind_name(m.kind) << "; engines:";
    for (const models::switching sw : m.engines)
      os << ' ' << models::switching_name(sw);
    if (m.engines.empty()) os << " none";
    os << '\n';
  }
  os << "\nengines (--switching):\n";
  for (const models::engine_info& e : models::engines()) {
    os << "  " << e.name << ": " << e.summary << "\n    fabrics: " << fabric_list(e.fabrics)
       << " (default on " << fabric_list(e.default_for) << ")\n";
  }
  os << "\nparameters (--param key=value):\n" << models::params_help();
  out << os.str();
  return 0;
}

}  // namespace tessera::cli
