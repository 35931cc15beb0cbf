#include "tessera/run/run.hpp"

#include <sstream>
#include <stdexcept>

#include "report.hpp"
#include "tessera/alphabeta/run.hpp"
#include "tessera/analytic/grama.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/run/collective_check.hpp"

namespace tessera::run {
namespace {

using namespace detail;

ab::run_options alphabeta_options(const run_config& r) {
  ab::run_options opt;
  opt.proto = r.proto;
  opt.prepost = r.prepost;
  opt.send_ahead = r.send_ahead;
  opt.trace_ops = r.trace;
  opt.faults = r.faults;
  // The alphabeta model drives the registry's ideal engine on the host.
  models::engine_params prm;
  for (const auto& [key, val] : r.params) {
    if (key == "jitter" || key == "jitter_seed" || key == "jitter_percent") {
      throw input_error("--param " + key +
                        " goes with --model tlm or rtl (the alpha-beta model has no operating "
                        "system to delay messages)");
    }
    for (const models::param& ep : models::energy_params_table()) {
      if (ep.key == key) {
        throw input_error("--param " + key +
                          " goes with --model tlm or rtl (the alpha-beta model has no routers "
                          "to count energy events in)");
      }
    }
    if (models::find_param(models::switching::ideal, key) == nullptr) {
      throw input_error("--param '" + shown(key) + "' is not a parameter of the alphabeta model (" +
                        models::param_keys(models::switching::ideal, false) + ")");
    }
    models::set_param(prm, models::switching::ideal, key, val);
  }
  opt.prm.ts = prm.ideal.ts;
  opt.prm.tw = prm.ideal.tw;
  opt.unforced_threshold = prm.unforced_threshold;
  opt.max_cycles = prm.max_cycles;
  opt.max_retries = prm.max_retries;
  return opt;
}

// The report's first fields.
nlohmann::ordered_json header(const run_config& r) {
  return {{"command", "run"},
          {"model", "alphabeta"},
          {"fabric", r.fabric_spec},
          {"tiles", r.c.f.tiles()}};
}

// A run on the alpha-beta network, for its timeline trace.
trace_data alphabeta_trace(const run_config& r, const std::string& what, const ab::run_outcome& o,
                           const std::vector<harness::transfer_record>& transfers) {
  trace_data d;
  d.available = true;
  d.f = r.c.f;
  d.title = what + " on " + r.fabric_spec + ", alphabeta";
  d.model = "alphabeta";
  d.cycles = o.cycles;
  d.spans_recorded = r.trace;
  d.spans = o.ops;
  d.transfers = transfers;
  d.steps = o.steps;
  return d;
}

// What a run on the alpha-beta network keeps, schedule or collective: its options, the
// transfers it recorded and its outcome, which gives the verdict.
class alphabeta_run {
 public:
  [[nodiscard]] bool verified() const { return o_.verified; }
  [[nodiscard]] bool nothing_checked() const { return o_.nothing_checked; }
  [[nodiscard]] std::string failure() const { return o_.failure; }
  [[nodiscard]] static std::string note() { return {}; }

 protected:
  explicit alphabeta_run(const run_config& r) : opt_(alphabeta_options(r)) {
    opt_.transfers = &transfers_;
  }
  ab::run_options opt_;
  std::vector<harness::transfer_record> transfers_;
  ab::run_outcome o_;
};

// A schedule file's op streams on the alpha-beta network.
class alphabeta_schedule : public alphabeta_run {
 public:
  explicit alphabeta_schedule(const run_config& r) : alphabeta_run(r), r_(r) {
    o_ = ab::run_schedule(r_.c.f, r_.schedule, opt_);
  }
  [[nodiscard]] nlohmann::ordered_json json() const {
    nlohmann::ordered_json j = header(r_);
    j["schedule"] = r_.schedule_name;
    j["protocol"] = std::string(protocol_name(r_.proto));
    j["params"] = {{"ts", opt_.prm.ts}, {"tw", opt_.prm.tw}};
    put_outcome(j, o_, 0.0);
    put_steps_tiles(j, o_);
    put_transfers(j, transfers_, r_.all_transfers);
    return j;
  }
  void write_text(std::ostream& os) const {
    os << "schedule " << r_.schedule_name << " on " << r_.fabric_spec
       << ", alphabeta ts = " << opt_.prm.ts << " tw = " << opt_.prm.tw << '\n';
    print_outcome(os, o_);
  }
  [[nodiscard]] trace_data trace() const {
    return alphabeta_trace(r_, "schedule " + r_.schedule_name, o_, transfers_);
  }

 private:
  const run_config& r_;
};

// A collective on the alpha-beta network, beside Grama's closed form.
class alphabeta_collective : public alphabeta_run {
 public:
  explicit alphabeta_collective(run_config& r) : alphabeta_run(r), r_(r) {
    edst_ = plan_edst(r_, static_cast<double>(opt_.prm.ts), static_cast<double>(opt_.prm.tw));
    o_ = ab::run_collective(r_.c, opt_);
    // Grama's forms have no pairwise synchronization: no closed form for such a run.
    if (!r_.c.pair_sync) grama_ = analytic::grama_cycles(r_.c, opt_.prm.ts, opt_.prm.tw);
  }
  [[nodiscard]] nlohmann::ordered_json json() const {
    nlohmann::ordered_json j = header(r_);
    put_collective(j, r_);
    j["params"] = {
        {"ts", opt_.prm.ts}, {"tw", opt_.prm.tw}, {"unforced_threshold", opt_.unforced_threshold}};
    put_outcome(j, o_, 0.0);
    if (edst_) put_edst(j, *edst_);
    if (grama_) {
      j["closed_form"] = {{"formula", grama_->formula},
                          {"source", "Grama " + grama_->source},
                          {"cycles", grama_->cycles}};
    }
    put_steps_tiles(j, o_);
    put_transfers(j, transfers_, r_.all_transfers);
    return j;
  }
  void write_text(std::ostream& os) const {
    os << fw::info(r_.c.coll).name << " (" << r_.algorithm << ") on " << r_.fabric_spec << ", "
       << r_.c.f.tiles() << " tiles, m = " << r_.c.bytes << " bytes, alphabeta ts = " << opt_.prm.ts
       << " tw = " << opt_.prm.tw << ", protocol " << protocol_name(opt_.proto)
       << (opt_.prepost ? " with prepost" : "") << '\n';
    print_choice(os, r_);
    if (grama_) {
      os << "  closed form " << grama_->cycles << "  = " << grama_->formula << "  (Grama "
         << grama_->source << ")\n";
    }
    if (edst_) print_edst(os, *edst_);
    print_outcome(os, o_);
  }
  [[nodiscard]] trace_data trace() const {
    return alphabeta_trace(r_, std::string(fw::info(r_.c.coll).name) + " (" + r_.algorithm + ")",
                           o_, transfers_);
  }

 private:
  run_config& r_;
  std::optional<edst_plan> edst_;
  std::optional<analytic::grama_form> grama_;
};

}  // namespace

bool model_available(std::string_view model) {
  const models::model_info* m = models::find_model(model);
  if (m == nullptr) return false;
  switch (m->kind) {
    case models::model_kind::closed_form:
    case models::model_kind::host_network:
      return true;
    case models::model_kind::platform:
      return platform_available();
  }
  return false;
}

const models::model_info& runnable_model(std::string_view name) {
  using models::model_kind;
  const models::model_info* m = models::find_model(name);
  const std::string runs = models::model_names({model_kind::host_network, model_kind::platform});
  if (m == nullptr)
    throw input_error("--model '" + shown(name) + "' is not a model (" + runs + ")");
  if (m->kind == model_kind::closed_form) {
    throw input_error("--model '" + std::string(name) +
                      "' is a closed form, which moves no data: run takes " + runs +
                      " (tessera analyze and reproduce give the closed forms)");
  }
  return *m;
}

std::unique_ptr<run_result> run(run_config config) {
  using models::model_kind;
  const models::model_info* m = &runnable_model(config.model);
  if (config.own_contract && !models::is_platform(*m)) {
    throw input_error("--firmware without --collective (an image's own contract) needs --model " +
                      models::model_names({model_kind::platform}, " or ") +
                      " and --tiles cortex-m4");
  }
  if (config.workload == workload_kind::collective && !config.own_contract) {
    // Every front end gets the same refusals (tessera/run/collective_check.hpp).
    check_collective(config);
    if (config.algorithm == "auto") {
      config.choice = choose_algorithm(config);
      config.algorithm = config.choice->ranked.front().algorithm;
      fw::parse_algorithm(config.algorithm, config.c);
    }
  }
  if (models::is_platform(*m)) return run_platform(std::move(config));
  if (config.workload == workload_kind::pattern || config.workload == workload_kind::traffic) {
    throw input_error(
        std::string(config.workload == workload_kind::pattern ? "--pattern" : "--traffic") +
        " needs a timed model (--model " + models::model_names({model_kind::platform}, " or ") +
        "), not --model " + config.model);
  }
  if (config.workload == workload_kind::schedule)
    return std::make_unique<owning<alphabeta_schedule>>(std::move(config));
  return std::make_unique<owning<alphabeta_collective>>(std::move(config));
}

const std::string& machine_preset::param(std::string_view key) const {
  for (const auto& [k, v] : params)
    if (k == key) return v;
  throw std::logic_error("the machine preset has no parameter '" + std::string(key) + "'");
}

}  // namespace tessera::run
