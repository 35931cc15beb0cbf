// Energy coefficients of the timed models (docs/ppa.md, "Energy"): named presets, each
// from a published figure, and --param overrides of any coefficient. The data events
// (net/energy.hpp) cost femtojoules per payload byte, so one preset serves every flit
// width; arbitration and path set-up cost femtojoules per event; static power is
// microwatts per router at the preset's clock.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace tessera::models {

enum class energy_coef : std::uint8_t {
  buffer_write,  // fJ per byte
  buffer_read,   // fJ per byte
  crossbar,      // fJ per byte
  arbitration,   // fJ per head granted
  link,          // fJ per byte per link
  setup,         // fJ per hop set up
  inject,        // fJ per byte
  eject,         // fJ per byte
  static_uw,     // uW per router
  clock_mhz,     // the clock static power is spent at: cycles to time
};
inline constexpr std::size_t energy_coefs = 10;
using coef_values = std::array<std::uint64_t, energy_coefs>;

struct energy_preset {
  std::string_view name;    // as --param energy=NAME spells it
  std::string_view source;  // where its numbers come from, one line (docs/ppa.md has more)
  coef_values values;
};

std::span<const energy_preset> energy_presets();
// The presets' names, in order, for the choice parameter `energy`.
std::span<const std::string_view> energy_preset_names();

// A run's coefficients: its preset's, except those --param gave.
struct energy_params {
  std::uint32_t preset{0};
  coef_values given_values{};
  std::uint32_t given{0};  // bit i: coefficient i was given
  [[nodiscard]] std::uint64_t coef(energy_coef c) const;
  [[nodiscard]] coef_values values() const;
};

// "buffer_write", ..., "static_uw", "clock_mhz".
std::string_view energy_coef_name(energy_coef c);

}  // namespace tessera::models
