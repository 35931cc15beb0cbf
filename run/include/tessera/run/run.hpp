// One entry point for every model: a run_config in, a run_result out. The result knows
// how to write itself as the CLI's text report and as the contract's JSON object
// (docs/cli.md), so every front end reports a run the same way.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/models/registry.hpp"
#include "tessera/run/config.hpp"
#include "tessera/run/trace.hpp"

namespace tessera::run {

class run_result {
 public:
  virtual ~run_result() = default;
  run_result() = default;
  run_result(const run_result&) = delete;
  run_result& operator=(const run_result&) = delete;

  // The contract's object for `tessera run --json`.
  [[nodiscard]] virtual nlohmann::ordered_json json() const = 0;
  // The readable report.
  virtual void write_text(std::ostream& os) const = 0;
  // Every block (every message, every packet) arrived exactly once and intact, and there
  // was at least one data byte to check.
  [[nodiscard]] virtual bool verified() const = 0;
  // Ran to the end with nothing wrong, but with no data byte to check (every message 0
  // bytes): not verified, exit status 0 (tessera/schedule/verdict.hpp).
  [[nodiscard]] virtual bool nothing_checked() const { return false; }
  // Why not, in one line naming the tile, the block and the cause; empty when verified.
  [[nodiscard]] virtual std::string failure() const = 0;
  // A remark for stderr on a verified run ("not drained"); usually empty.
  [[nodiscard]] virtual std::string note() const { return {}; }
  // 0 verified (or nothing to check), 1 a failed check (the contract's exit status).
  [[nodiscard]] int exit_status() const { return verified() || nothing_checked() ? 0 : 1; }
  // What a timeline trace draws (tessera/run/trace.hpp); the tiles' op spans only when
  // the config asked for them (run_config::trace).
  [[nodiscard]] virtual trace_data trace() const { return {}; }
};

// Runs the config on its model. Throws input_error (tessera/common/errors.hpp) for
// anything the model refuses: an unknown machine or switching, a parameter out of range,
// a model this build lacks. A failed check is a result, not an exception.
std::unique_ptr<run_result> run(run_config config);

// The timing engine a platform run (--model tlm or rtl) uses: --switching, else the
// machine's, else the fabric's default. Throws input_error for an unknown machine or
// switching, or one that contradicts the other, and in a build without the platform.
models::switching platform_switching(const run_config& config);

// The parameters a platform run's engine gets, as the run sets them (its engine's
// defaults, its model's own, the machine's, then --param), validated; throws input_error
// as run() does, and in a build without the platform.
models::engine_params platform_params(const run_config& config);

// A machine preset (--machine) as its table gives it: the cycle in microseconds and
// each parameter's value as --param spells it (docs/machines.md). Throws input_error
// for an unknown machine, and in a build without the platform.
struct machine_preset {
  double us_per_cycle{0};
  std::vector<std::pair<std::string, std::string>> params;
  // The parameter's value; throws std::logic_error when the preset has none.
  [[nodiscard]] const std::string& param(std::string_view key) const;
};
machine_preset find_machine_preset(std::string_view name);

// Whether this build has the model (the registry lists every model; tlm and rtl need
// SystemC).
bool model_available(std::string_view model);

// The registry's row of a model run takes (a host network or a platform); input_error
// naming the value for a name that is no model and for a closed form.
const models::model_info& runnable_model(std::string_view name);

}  // namespace tessera::run
