#include "tessera/models/energy.hpp"

namespace tessera::models {
namespace {

// Coefficients in table order: buffer_write, buffer_read, crossbar (fJ/B), arbitration
// (fJ), link (fJ/B), setup (fJ), inject, eject (fJ/B), static (uW/router), clock (MHz).
// docs/ppa.md, "Energy presets", gives the sources and the arithmetic.
constexpr std::array<energy_preset, 2> presets{{
    // Fischer et al., FlooNoC (IEEE TVLSI 2025): 0.15 pJ/B/hop at 0.8 V in 12 nm FinFET,
    // charged per byte per link hop; the routers' share is in it, so the other events
    // cost nothing extra. No static figure is published: 0. The clock is the 1.23 GHz
    // of the first FlooNoC paper (IEEE D&T 2023).
    {"floonoc-12nm",
     "Fischer et al. 2025 (FlooNoC): 0.15 pJ/B/hop, 12 nm FinFET, 0.8 V",
     {0, 0, 0, 0, 150, 0, 0, 0, 0, 1230}},
    // Salihundam et al. (IEEE JSSC 2011), the Intel SCC's router: 550 mW at 2 GHz and
    // 1.1 V in 45 nm, 5 ports of 16-byte flits: 550 mW / (5 x 2e9 flits/s) = 55 pJ per
    // flit per router = 3,438 fJ per byte through a router (its clock and leakage
    // included, at full load: an upper bound), charged per crossbar traversal.
    {"scc-45nm",
     "Salihundam et al. 2011 (Intel SCC router): 550 mW at 2 GHz, 45 nm, 1.1 V",
     {0, 0, 3438, 0, 0, 0, 0, 0, 0, 2000}},
}};

constexpr std::array<std::string_view, presets.size()> names{presets[0].name, presets[1].name};

}  // namespace

std::span<const energy_preset> energy_presets() {
  return presets;
}

std::span<const std::string_view> energy_preset_names() {
  return names;
}

std::uint64_t energy_params::coef(energy_coef c) const {
  const auto i = static_cast<std::size_t>(c);
  if ((given >> i & 1U) != 0) return given_values[i];
  return presets[preset < presets.size() ? preset : 0].values[i];
}

coef_values energy_params::values() const {
  coef_values v{};
  for (std::size_t i = 0; i < energy_coefs; ++i)
    v[i] = coef(static_cast<energy_coef>(i));
  return v;
}

std::string_view energy_coef_name(energy_coef c) {
  static constexpr std::array<std::string_view, energy_coefs> n{
      "buffer_write", "buffer_read", "crossbar", "arbitration", "link",
      "setup",        "inject",      "eject",    "static_uw",   "clock_mhz"};
  return n[static_cast<std::size_t>(c)];
}

}  // namespace tessera::models
