// A platform run's set-up (run/src/platform_setup.cpp): the machine preset, the
// switching, the parameters over them, the routes, the protocol and the faults, as the
// platform takes them; and the report fields every platform result shares. The results
// (run_platform.cpp) build on it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/models/registry.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/run/config.hpp"
#include "tessera/tlm/machines.hpp"
#include "tessera/tlm/platform.hpp"

namespace tessera::run::detail {

namespace tlmm = tlm_models;

// The platform's options for the config: the machine preset, the switching, the
// parameters over them, the routes, the protocol and the faults.
struct setup {
  tlmm::platform_options o;
  const tlmm::machine* m{nullptr};
  // 0: no machine, no time_us.
  [[nodiscard]] double us() const { return m != nullptr ? m->us_per_cycle : 0.0; }
};

// The machine presets' names, for messages.
std::string machine_names();
const tlmm::machine* find_machine(const run_config& r);
models::switching switching_of(const run_config& r, const tlmm::machine* m);
setup make_setup(const run_config& r);

// The engine's parameters and unforced_threshold, from the registry's table; with ISS
// tiles (cpu), their processor's too.
nlohmann::ordered_json params_json(const tlmm::platform_options& o, bool cpu = false);
nlohmann::ordered_json links_json(const std::vector<net::link_stat>& links, std::uint64_t cycles);
nlohmann::ordered_json contention_json(const net::contention_stat& c);
// The fields every platform report starts with: command, model, switching, machine,
// fabric, tiles.
void put_platform(nlohmann::ordered_json& j, const run_config& r, const setup& s);
// "tlm wormhole" or "rtl circuit": the model and its engine, as the text reports say.
std::string model_text(const setup& s);

}  // namespace tessera::run::detail
