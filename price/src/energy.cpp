#include "tessera/price/energy.hpp"

#include <cstdio>

namespace tessera::price {
namespace {

std::string_view unit_name(net::energy_rule r) {
  switch (r) {
    case net::energy_rule::wormhole:
      return "flit";
    case net::energy_rule::circuit:
      return "element";
    case net::energy_rule::store_forward:
    case net::energy_rule::ideal:
      return "byte";
  }
  return "byte";
}

// The coefficient of each event, in energy_event order.
constexpr std::array<models::energy_coef, net::energy_event_kinds> coef_of{
    models::energy_coef::buffer_write, models::energy_coef::buffer_read,
    models::energy_coef::crossbar,     models::energy_coef::arbitration,
    models::energy_coef::link,         models::energy_coef::setup,
    models::energy_coef::inject,       models::energy_coef::eject};

bool per_byte(net::energy_event e) {
  return e != net::energy_event::arbitration && e != net::energy_event::setup;
}

double dot(const net::event_counts& n, const std::array<double, net::energy_event_kinds>& pj) {
  double s = 0;
  for (std::size_t k = 0; k < net::energy_event_kinds; ++k)
    s += static_cast<double>(n[k]) * pj[k];
  return s;
}

// The energy of a link's hops: what each unit costs crossing it (the link, its read and
// switching at the sender, its write at the receiver) and each head's grant or set-up.
double hop_pj(const net::link_energy& l, const std::array<double, net::energy_event_kinds>& pj) {
  const auto at = [&](net::energy_event e) { return pj[static_cast<std::size_t>(e)]; };
  using net::energy_event;
  const double unit = at(energy_event::link) + at(energy_event::buffer_read) +
                      at(energy_event::crossbar) + at(energy_event::buffer_write);
  const double head = at(energy_event::arbitration) + at(energy_event::setup);
  return static_cast<double>(l.units) * unit + static_cast<double>(l.heads) * head;
}

// Static picojoules of one router over `cycles`: uW x us.
double static_pj_per_router(const models::energy_params& p, std::uint64_t cycles) {
  return static_cast<double>(p.coef(models::energy_coef::static_uw)) * static_cast<double>(cycles) /
         static_cast<double>(p.coef(models::energy_coef::clock_mhz));
}

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

}  // namespace

std::array<double, net::energy_event_kinds> event_pj(const net::energy_counts& c,
                                                     const models::energy_params& p) {
  std::array<double, net::energy_event_kinds> out{};
  for (std::size_t k = 0; k < net::energy_event_kinds; ++k) {
    const auto e = static_cast<net::energy_event>(k);
    if (!net::has_event(c.rule, e)) continue;
    const auto fj = static_cast<double>(p.coef(coef_of[k]));
    out[k] = (per_byte(e) ? fj * c.unit_bytes : fj) / 1000.0;
  }
  return out;
}

energy_total total_energy(const net::energy_counts& c, const models::energy_params& p,
                          std::uint64_t cycles) {
  energy_total t;
  const auto pj = event_pj(c, p);
  const net::event_counts sum = c.total();
  t.dynamic_pj = dot(sum, pj);
  t.static_pj = static_cast<double>(c.routers.size()) * static_pj_per_router(p, cycles);
  t.total_pj = t.dynamic_pj + t.static_pj;
  t.bytes = sum[static_cast<std::size_t>(net::energy_event::eject)] * c.unit_bytes;
  return t;
}

nlohmann::ordered_json energy_json(const net::energy_counts& c, const models::energy_params& p,
                                   std::uint64_t cycles) {
  const auto pj = event_pj(c, p);
  const energy_total t = total_energy(c, p, cycles);
  const net::event_counts sum = c.total();
  const auto events_of = [&](const net::event_counts& n) {
    nlohmann::ordered_json e = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < net::energy_event_kinds; ++k) {
      const auto ev = static_cast<net::energy_event>(k);
      if (net::has_event(c.rule, ev)) e[std::string(net::energy_event_name(ev))] = n[k];
    }
    return e;
  };
  nlohmann::ordered_json j;
  j["preset"] = std::string(models::energy_preset_names()[p.preset]);
  j["unit"] = std::string(unit_name(c.rule));
  j["unit_bytes"] = c.unit_bytes;
  j["events"] = events_of(sum);
  nlohmann::ordered_json coef = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < net::energy_event_kinds; ++k) {
    const auto ev = static_cast<net::energy_event>(k);
    if (net::has_event(c.rule, ev)) coef[std::string(net::energy_event_name(ev))] = pj[k];
  }
  coef["static_mw_per_router"] =
      static_cast<double>(p.coef(models::energy_coef::static_uw)) / 1000.0;
  coef["clock_mhz"] = p.coef(models::energy_coef::clock_mhz);
  j["coefficients_pj"] = std::move(coef);
  j["dynamic_pj"] = t.dynamic_pj;
  j["static_pj"] = t.static_pj;
  j["total_pj"] = t.total_pj;
  if (t.bytes == 0) {
    j["pj_per_byte"] = nullptr;
  } else {
    j["pj_per_byte"] = t.total_pj / static_cast<double>(t.bytes);
  }
  const double stat = static_pj_per_router(p, cycles);
  auto routers = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < c.routers.size(); ++r)
    routers.push_back(
        {{"tile", r}, {"pj", dot(c.routers[r], pj) + stat}, {"events", events_of(c.routers[r])}});
  j["routers"] = std::move(routers);
  auto links = nlohmann::ordered_json::array();
  for (const net::link_energy& l : c.links) {
    links.push_back({{"from", l.from},
                     {"to", l.to},
                     {"link", l.name},
                     {"units", l.units},
                     {"heads", l.heads},
                     {"pj", hop_pj(l, pj)}});
  }
  j["links"] = std::move(links);
  return j;
}

std::string energy_text(const net::energy_counts& c, const models::energy_params& p,
                        std::uint64_t cycles) {
  const energy_total t = total_energy(c, p, cycles);
  std::string s = fixed(t.total_pj / 1000.0, 3) + " nJ (dynamic " +
                  fixed(t.dynamic_pj / 1000.0, 3) + ", static " + fixed(t.static_pj / 1000.0, 3) +
                  "; ";
  s += t.bytes == 0 ? std::string("no bytes delivered")
                    : fixed(t.total_pj / static_cast<double>(t.bytes), 3) + " pJ/byte";
  s += ", preset " + std::string(models::energy_preset_names()[p.preset]) + ")";
  return s;
}

}  // namespace tessera::price
