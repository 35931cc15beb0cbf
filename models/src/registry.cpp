#include "tessera/models/registry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/common/range.hpp"

namespace tessera::models {
namespace {

constexpr std::uint64_t big = std::uint64_t{1} << 40;

constexpr std::uint8_t bit(fabric_kind k) {
  return static_cast<std::uint8_t>(1U << static_cast<unsigned>(k));
}
constexpr std::uint8_t all_fabrics = bit(fabric_kind::mesh) | bit(fabric_kind::torus) |
                                     bit(fabric_kind::hypercube) | bit(fabric_kind::ring);

// A count's name and range, from the engine that declares them (net/'s *_range) and
// holds its parameters to them in validate().
#define TESSERA_RANGE(r) r.name, param_kind::count, r.min, r.max

// Accessors of one field, so a table row names its field once.
#define TESSERA_FIELD(path, type)                                            \
  [](const engine_params& p) { return static_cast<std::uint64_t>(p.path); }, \
      [](engine_params& p, std::uint64_t v) { p.path = static_cast<type>(v); }

// One table from parts, in order.
template <std::size_t... N>
constexpr std::array<param, (N + ...)> join(const std::array<param, N>&... parts) {
  std::array<param, (N + ...)> out{};
  std::size_t at = 0;
  ((std::copy(parts.begin(), parts.end(), out.begin() + at), at += N), ...);
  return out;
}

constexpr std::array<std::string_view, 3> arbitration_names{"lowest-id", "fifo", "round-robin"};
constexpr std::array<std::string_view, 2> blocking_names{"hold-wait", "release-retry"};
constexpr std::array<std::string_view, 2> vc_share_names{"round-robin", "fixed"};
constexpr std::array<std::string_view, 2> wormhole_model_names{"auto", "flit"};

// The parameter tables keep one row per parameter (clang-format would put each field
// of a row on its own line).
// clang-format off
const std::array<param, 2> ideal_params{{
    {"ts", param_kind::count, 0, big, "cycles", "start-up of a message (Grama's t_s)", {},
     TESSERA_FIELD(ideal.ts, net::cycle_t)},
    {"tw", param_kind::count, 0, std::uint64_t{1} << 20, "cycles/byte",
     "time per byte (Grama's t_w)", {}, TESSERA_FIELD(ideal.tw, net::cycle_t)},
}};

// The half-duplex NIC's rows (net/duplex.hpp), declared once for the engines that have
// the rule; `Engine` names their parameters in engine_params and `window` is the
// engine's range of duplex_window. The hold row is apart: circuits always hold.
// half_duplex_doc: the two engines word the switch's line apart ("streams" or not), and
// --help and `tessera models` print it as they always have.
#define TESSERA_DUPLEX(field, type)                                                      \
  [](const engine_params& p) { return static_cast<std::uint64_t>((p.*Engine).duplex.field); }, \
      [](engine_params& p, std::uint64_t v) { (p.*Engine).duplex.field = static_cast<type>(v); }

template <auto Engine>
constexpr std::array<param, 3> duplex_rows(const count_range& window,
                                           std::string_view half_duplex_doc) {
  return {{
    {"half_duplex", param_kind::flag, 0, 1, "", half_duplex_doc, {},
     TESSERA_DUPLEX(half_duplex, bool)},
    {TESSERA_RANGE(window), "cycles",
     "half_duplex: how close a transmit's and a receive's starts must be to overlap", {},
     TESSERA_DUPLEX(duplex_window, net::cycle_t)},
    {"duplex_exchange", param_kind::flag, 0, 1, "",
     "half_duplex: a transmit to and a receive from one tile always overlap", {},
     TESSERA_DUPLEX(duplex_exchange, bool)},
  }};
}

template <auto Engine>
constexpr std::array<param, 1> duplex_hold_row() {
  return {{
    {"duplex_hold", param_kind::flag, 0, 1, "",
     "half_duplex: a receive that must wait holds its path at the ejection", {},
     TESSERA_DUPLEX(duplex_hold, bool)},
  }};
}

#undef TESSERA_DUPLEX

constexpr std::array<param, 9> circuit_own{{
    {TESSERA_RANGE(net::circuit_range::xi), "cycles", "start-up of a data message (Boppana's xi)", {},
     TESSERA_FIELD(circuit.xi, net::cycle_t)},
    {TESSERA_RANGE(net::circuit_range::xi_held), "cycles",
     "the part of xi spent after the path is set up, holding it (at most xi)", {},
     TESSERA_FIELD(circuit.xi_held, net::cycle_t)},
    {TESSERA_RANGE(net::circuit_range::tau), "cycles", "path set-up per hop (Boppana's tau)", {},
     TESSERA_FIELD(circuit.tau, net::cycle_t)},
    {TESSERA_RANGE(net::circuit_range::width), "bytes", "bytes per element; one element per cycle", {},
     TESSERA_FIELD(circuit.width, std::uint32_t)},
    {TESSERA_RANGE(net::circuit_range::control_xi), "cycles",
     "start-up of a control message (reserve, ack, sync)", {},
     TESSERA_FIELD(circuit.control_xi, net::cycle_t)},
    {"arbitration", param_kind::choice, 0, arbitration_names.size() - 1, "",
     "who gets a contended link: lowest source, earliest request, or round robin",
     arbitration_names, TESSERA_FIELD(circuit.arbitration, net::circuit_arbitration)},
    {"blocking", param_kind::choice, 0, blocking_names.size() - 1, "",
     "a blocked header keeps its links and waits, or releases them and retries",
     blocking_names, TESSERA_FIELD(circuit.blocking, net::circuit_blocking)},
    {TESSERA_RANGE(net::circuit_range::retry), "cycles", "release-retry: wait before the next try", {},
     TESSERA_FIELD(circuit.retry, net::cycle_t)},
    {"presetup", param_kind::flag, 0, 1, "",
     "set up the next path while the current message streams (Boppana's AAP')", {},
     TESSERA_FIELD(circuit.presetup, bool)},
}};

const std::array<param, 4> torus_params{{
    {TESSERA_RANGE(net::torus_range::beta), "cycles", "per packet per hop (Bermond's beta)", {},
     TESSERA_FIELD(torus.beta, net::cycle_t)},
    {TESSERA_RANGE(net::torus_range::tau), "cycles/byte",
     "per byte per hop (Bermond's tau)", {}, TESSERA_FIELD(torus.tau, net::cycle_t)},
    {TESSERA_RANGE(net::torus_range::packet_bytes), "bytes",
     "largest packet; 0: a message is one packet", {},
     TESSERA_FIELD(torus.packet_bytes, std::uint64_t)},
    {TESSERA_RANGE(net::torus_range::buffers), "packets",
     "buffers per node input, in two dateline classes (2 or more); 0: unlimited", {},
     TESSERA_FIELD(torus.buffers, std::uint32_t)},
}};

constexpr std::array<param, 12> wormhole_own{{
    {TESSERA_RANGE(net::wormhole_range::width), "bytes", "bytes per flit", {},
     TESSERA_FIELD(wormhole.width, std::uint32_t)},
    {TESSERA_RANGE(net::wormhole_range::router_delay), "cycles",
     "cycles a header spends in a router before it may leave (r)", {},
     TESSERA_FIELD(wormhole.router_delay, std::uint32_t)},
    {TESSERA_RANGE(net::wormhole_range::buffer), "flits", "FIFO depth of a router input (B)", {},
     TESSERA_FIELD(wormhole.buffer, std::uint32_t)},
    {TESSERA_RANGE(net::wormhole_range::alpha), "cycles", "software start-up per message",
     {}, TESSERA_FIELD(wormhole.alpha, net::cycle_t)},
    {TESSERA_RANGE(net::wormhole_range::packet_bytes), "bytes",
     "largest packet payload; 0: a message is one packet", {},
     TESSERA_FIELD(wormhole.packet_bytes, std::uint64_t)},
    {TESSERA_RANGE(net::wormhole_range::inject_gap), "cycles/flit", "the NIC injects a flit every g cycles",
     {}, TESSERA_FIELD(wormhole.inject_gap, std::uint32_t)},
    {TESSERA_RANGE(net::wormhole_range::vcs), "", "virtual channels per physical channel", {},
     TESSERA_FIELD(wormhole.vcs, std::uint32_t)},
    {"vc_share", param_kind::choice, 0, vc_share_names.size() - 1, "",
     "VCs share a channel per flit round robin (the RTL's), or fixed: one flit every vcs cycles each",
     vc_share_names, TESSERA_FIELD(wormhole.share, net::vc_share)},
    {"engine", param_kind::choice, 0, wormhole_model_names.size() - 1, "",
     "auto: the closed form where it reaches (one VC, xy or yx, pipeline 1), else the flit "
     "engine; flit: always the flit engine, which counts per-VC statistics",
     wormhole_model_names, TESSERA_FIELD(wormhole.engine, net::wormhole_model)},
    {"routing", param_kind::choice, 0, net::mesh_routing_names.size() - 1, "",
     "routing function: xy, yx, o1turn (vcs >= 2), turn-model adaptive west-first, "
     "north-last, negative-first, odd-even",
     net::mesh_routing_names, TESSERA_FIELD(wormhole.routing, net::mesh_routing)},
    {TESSERA_RANGE(net::wormhole_range::credit_delay), "cycles",
     "a freed FIFO slot serves its sender d cycles later (1: the RTL router's)", {},
     TESSERA_FIELD(wormhole.credit_delay, std::uint32_t)},
    {TESSERA_RANGE(net::wormhole_range::pipeline), "cycles",
     "router pipeline depth: a flit crosses a router p cycles after entering it at the "
     "earliest, a head router_delay later",
     {}, TESSERA_FIELD(wormhole.pipeline, std::uint32_t)},
}};

constexpr std::array<param, 3> wormhole_protocols{{
    {TESSERA_RANGE(net::wormhole_range::eager_bytes), "bytes",
     "messages up to this size go eagerly (alpha_eager, eager_copy); 0: none", {},
     TESSERA_FIELD(wormhole.eager_bytes, std::uint64_t)},
    {TESSERA_RANGE(net::wormhole_range::alpha_eager), "cycles",
     "eager_bytes: software start-up of an eager message", {},
     TESSERA_FIELD(wormhole.alpha_eager, net::cycle_t)},
    {TESSERA_RANGE(net::wormhole_range::eager_copy), "cycles/KiB",
     "eager_bytes: the receiver's copy out of the system buffer", {},
     TESSERA_FIELD(wormhole.eager_copy, std::uint64_t)},
}};

constexpr auto circuit_params = join(
    circuit_own,
    duplex_rows<&engine_params::circuit>(
        net::circuit_range::duplex_window,
        "a tile's transmit and receive streams overlap only if they start within duplex_window"));
constexpr auto wormhole_params = join(
    wormhole_own,
    duplex_rows<&engine_params::wormhole>(
        net::wormhole_range::duplex_window,
        "a tile's transmit and receive overlap only if they start within duplex_window"),
         duplex_hold_row<&engine_params::wormhole>(), wormhole_protocols);

const std::array<param, 3> common{{
    {"unforced_threshold", param_kind::count, 0, big, "bytes",
     "--protocol unforced: larger messages reserve first", {},
     TESSERA_FIELD(unforced_threshold, std::uint64_t)},
    {"max_cycles", param_kind::count, 1, std::uint64_t{1} << 60, "cycles",
     "a run still going then stops: a timeout, not a deadlock (given, it replaces the "
     "Cortex-M4 tiles' instruction budget, docs/tiles.md)", {},
     TESSERA_FIELD(max_cycles, std::uint64_t)},
    {"max_retries", param_kind::count, 0, 1000, "",
     "--protocol reliable: retransmissions of one message before the run fails", {},
     TESSERA_FIELD(max_retries, std::uint32_t)},
}};

// Read by the SystemC platform (--model tlm and rtl), not by the alpha-beta model.
const std::array<param, 3> platform_table{{
    {"jitter", param_kind::count, 0, big, "cycles",
     "mean of an exponential operating-system delay before each posted message; 0: none", {},
     TESSERA_FIELD(jitter, std::uint64_t)},
    {"jitter_seed", param_kind::count, 0, ~std::uint64_t{0}, "",
     "jitter: the seed of its draws (same seed, same run)", {},
     TESSERA_FIELD(jitter_seed, std::uint64_t)},
    {"jitter_percent", param_kind::count, 1, 100, "%",
     "jitter: the share of messages the delay hits (the others go at once)", {},
     TESSERA_FIELD(jitter_percent, std::uint32_t)},
}};

// clang-format on

// Energy coefficient i: the run's (its preset's unless given), and giving it.
template <std::size_t I>
std::uint64_t energy_get(const engine_params& p) {
  return p.energy.coef(static_cast<energy_coef>(I));
}
template <std::size_t I>
void energy_set(engine_params& p, std::uint64_t v) {
  p.energy.given_values[I] = v;
  p.energy.given |= 1U << I;
}
#define TESSERA_ENERGY(c)                                \
  &energy_get<static_cast<std::size_t>(energy_coef::c)>, \
      &energy_set<static_cast<std::size_t>(energy_coef::c)>

constexpr std::uint64_t max_fj = 1'000'000'000;  // 1 mJ per byte or event: far past any chip

// clang-format off
const std::array<param, 11> energy_table{{
    {"energy", param_kind::choice, 0, energy_presets().size() - 1, "",
     "energy coefficient preset (docs/ppa.md, \"Energy presets\"); the e_* params override its values",
     energy_preset_names(), TESSERA_FIELD(energy.preset, std::uint32_t)},
    {"e_buffer_write", param_kind::count, 0, max_fj, "fJ/byte",
     "a unit written into a router's input FIFO or packet buffer", {}, TESSERA_ENERGY(buffer_write)},
    {"e_buffer_read", param_kind::count, 0, max_fj, "fJ/byte",
     "a unit read out of one", {}, TESSERA_ENERGY(buffer_read)},
    {"e_crossbar", param_kind::count, 0, max_fj, "fJ/byte",
     "a unit through a router's crossbar (a circuit node's switch)", {}, TESSERA_ENERGY(crossbar)},
    {"e_arbitration", param_kind::count, 0, max_fj, "fJ",
     "a head granted an output", {}, TESSERA_ENERGY(arbitration)},
    {"e_link", param_kind::count, 0, max_fj, "fJ/byte",
     "a unit over a link between routers", {}, TESSERA_ENERGY(link)},
    {"e_setup", param_kind::count, 0, max_fj, "fJ",
     "a hop a circuit's path header sets up", {}, TESSERA_ENERGY(setup)},
    {"e_inject", param_kind::count, 0, max_fj, "fJ/byte",
     "a unit a NIC puts into the fabric", {}, TESSERA_ENERGY(inject)},
    {"e_eject", param_kind::count, 0, max_fj, "fJ/byte",
     "a unit a NIC takes out of it", {}, TESSERA_ENERGY(eject)},
    {"e_static", param_kind::count, 0, max_fj, "uW/router",
     "static power of a router (and its NIC)", {}, TESSERA_ENERGY(static_uw)},
    {"e_clock", param_kind::count, 1, 1'000'000, "MHz",
     "the fabric clock static power is spent at (cycles to time)", {}, TESSERA_ENERGY(clock_mhz)},
}};

#undef TESSERA_ENERGY

const std::array<param, 5> cpu_table{{
    {"cpu_mhz", param_kind::count, 1, 1'000'000'000, "MHz",
     "--tiles cortex-m4: the core clock (a huge one makes compute time vanish)", {},
     TESSERA_FIELD(cpu.cpu_mhz, std::uint64_t)},
    {"fabric_mhz", param_kind::count, 0, 1'000'000, "MHz",
     "--tiles cortex-m4: the fabric clock; 0: the machine preset's, else 1000", {},
     TESSERA_FIELD(cpu.fabric_mhz, std::uint64_t)},
    {"cpi", param_kind::count, 1, 100, "cycles",
     "--tiles cortex-m4: core cycles per instruction", {},
     TESSERA_FIELD(cpu.cpi, std::uint64_t)},
    {"quantum", param_kind::count, 1, 1'000'000'000, "instructions",
     "--tiles cortex-m4: instructions a core runs ahead before it waits for the fabric", {},
     TESSERA_FIELD(cpu.quantum, std::uint64_t)},
    {"untimed_max", param_kind::count, 0, std::uint64_t{1} << 40, "instructions",
     "--tiles cortex-m4: a tile's untimed instructions (its setup and report); past them "
     "they are timed", {},
     TESSERA_FIELD(cpu.untimed_max, std::uint64_t)},
}};

// clang-format on

#undef TESSERA_FIELD

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

// Boppana §2: xi + i tau + i + k - 1 for k elements over i hops.
std::uint64_t circuit_zero_load(const engine_params& p, std::uint64_t bytes, std::uint32_t hops) {
  const net::circuit_params& c = p.circuit;
  const std::uint64_t k = bytes == 0 ? 1 : ceil_div(bytes, c.width);
  return c.xi + hops * c.tau + hops + k - 1;
}

// Bermond §1: a packet of L bytes takes beta + tau L a hop. Equal packets of P bytes
// pipeline; a shorter last one of P' follows the one before it on every link, so the
// last arrives (h + q - 2)(beta + tau P) + beta + tau P' after the first left. With
// finite buffers this needs two per dateline class (buffers 0 or at least 4): with one,
// a packet waits for the one ahead to leave the next node.
std::uint64_t torus_zero_load(const engine_params& p, std::uint64_t bytes, std::uint32_t hops) {
  const net::torus_params& t = p.torus;
  if (t.packet_bytes == 0 || bytes <= t.packet_bytes) return hops * (t.beta + t.tau * bytes);
  const std::uint64_t q = ceil_div(bytes, t.packet_bytes);
  const std::uint64_t last = bytes - (q - 1) * t.packet_bytes;
  return (hops + q - 2) * (t.beta + t.tau * t.packet_bytes) + t.beta + t.tau * last;
}

// docs/wormhole.md "Zero load", the message as one packet of F flits over h hops, with
// u = floor((F-1)/B), M = min(h+1, u), d = credit_delay, p = pipeline, and s the cycles
// per flit of a lone worm's VC: 1 when VCs share round robin (it has the channel to
// itself), vcs under vc_share=fixed:
//   alpha + 1 + max(g(F-1) + (h+1)p + lag, s(F-1) + (h+1)(r+p) + u max(0, p + d - sB)),
// lag = M max(0, r + p + d - gB) when gB >= p + d, else M r + u(p + d - gB) (row 0 loops).
// An eager message (bytes <= eager_bytes) starts after alpha_eager instead of alpha and is
// delivered after its receiver's copy, ceil(bytes eager_copy / 1024) cycles.
std::uint64_t wormhole_zero_load(const engine_params& p, std::uint64_t bytes, std::uint32_t hops) {
  const net::wormhole_params& w = p.wormhole;
  const bool eager = w.eager_bytes != 0 && bytes <= w.eager_bytes;
  const std::uint64_t alpha = eager ? w.alpha_eager : w.alpha;
  const std::uint64_t copy = eager ? ceil_div(bytes * w.eager_copy, 1024) : 0;
  const std::uint64_t f = net::packet_flits(bytes, w.width);
  const std::uint64_t g = w.inject_gap;
  const std::uint64_t r = w.router_delay;
  const std::uint64_t b = w.buffer;
  const std::uint64_t d = w.credit_delay;
  const std::uint64_t pp = w.pipeline;
  const std::uint64_t s = w.share == net::vc_share::fixed ? w.vcs : 1;
  const std::uint64_t h = hops;
  const std::uint64_t u = (f - 1) / b;
  const std::uint64_t m = std::min<std::uint64_t>(h + 1, u);
  const std::uint64_t turn = pp + d;  // a FIFO slot's round trip
  const std::uint64_t lag =
      g * b >= turn ? m * (r + turn > g * b ? r + turn - g * b : 0) : m * r + u * (turn - g * b);
  const std::uint64_t loop = turn > s * b ? turn - s * b : 0;
  return alpha + 1 +
         std::max(g * (f - 1) + (h + 1) * pp + lag, s * (f - 1) + (h + 1) * (r + pp) + u * loop) +
         copy;
}

const std::array<engine_info, 4> builtin_engines{{
    {switching::ideal, "ideal", "Grama's alpha-beta network: ts + tw m, no contention",
     "Grama, Gupta, Karypis, Kumar, Introduction to Parallel Computing, ch. 4", all_fabrics, 0,
     ideal_params,
     [](const fabric& f, const engine_params& p) -> std::unique_ptr<net::engine> {
       return std::make_unique<net::alphabeta_engine>(f.tiles(), p.ideal);
     },
     [](const engine_params& p, std::uint64_t bytes, std::uint32_t) {
       return p.ideal.ts + p.ideal.tw * bytes;
     },
     [](const engine_params&) { return std::uint32_t{4}; }},
    {switching::circuit, "circuit",
     "circuit switching with e-cube path set-up: xi + i tau + i + k - 1",
     "Bokhari, Complete Exchange on the iPSC-860; Boppana and Raghavendra, Optimal and "
     "Practical Routing Methods for a Massive Data Movement Operation on Hypercubes",
     bit(fabric_kind::hypercube), bit(fabric_kind::hypercube), circuit_params,
     [](const fabric& f, const engine_params& p) -> std::unique_ptr<net::engine> {
       return std::make_unique<net::circuit_engine>(f, p.circuit);
     },
     circuit_zero_load, [](const engine_params& p) { return p.circuit.width; }},
    {switching::store_forward, "store-forward",
     "parallel monodirectional store-and-forward ports: beta + tau L a hop",
     "Bermond, Michallon, Trystram, Broadcasting in wraparound meshes with parallel "
     "monodirectional links",
     bit(fabric_kind::mesh) | bit(fabric_kind::torus) | bit(fabric_kind::ring),
     bit(fabric_kind::torus) | bit(fabric_kind::ring), torus_params,
     [](const fabric& f, const engine_params& p) -> std::unique_ptr<net::engine> {
       return std::make_unique<net::torus_engine>(f, p.torus);
     },
     torus_zero_load, [](const engine_params&) { return std::uint32_t{4}; }},
    {switching::wormhole, "wormhole",
     "wormhole routing (XY or the routing param; dateline VCs on a torus), credit flow "
     "control, B-flit input FIFOs "
     "(docs/wormhole.md)",
     "Thakur, Choudhary, Fox, Complete Exchange on a Wormhole Routed Mesh",
     bit(fabric_kind::mesh) | bit(fabric_kind::torus), bit(fabric_kind::mesh), wormhole_params,
     [](const fabric& f, const engine_params& p) -> std::unique_ptr<net::engine> {
       return net::make_wormhole_engine(f, p.wormhole);
     },
     wormhole_zero_load, [](const engine_params& p) { return p.wormhole.width; }},
}};

constexpr std::array<switching, 1> alphabeta_engines{switching::ideal};
constexpr std::array<switching, 4> tlm_engines{switching::wormhole, switching::circuit,
                                               switching::store_forward, switching::ideal};
void set_torus_routes(net::engine& e, const std::vector<net::forwarding_entry>& routes) {
  // The registry made this engine for store-forward switching (make_engine below).
  static_cast<net::torus_engine&>(e).set_forwarding(routes);
}

const std::array<model_info, 3> builtin_models{{
    {"alphabeta",
     "Grama's ideal network on the host: ts + tw m a message, no contention",
     model_kind::host_network,
     alphabeta_engines,
     {}},
    {"tlm",
     "the SystemC TLM-2.0 platform: tiles and NICs over a timing engine (docs/tlm.md)",
     model_kind::platform,
     tlm_engines,
     {},
     nullptr,
     true},
    {"analytic",
     "the papers' closed forms: times computed, nothing moved (tessera analyze, reproduce "
     "--model analytic)",
     model_kind::closed_form,
     {},
     {}},
}};

// The tables grow by registration; a reserved vector keeps every engine_info and
// model_info where it is, so the references handed out stay valid.
constexpr std::size_t max_entries = 64;

std::vector<engine_info>& engine_table() {
  static std::vector<engine_info> t = [] {
    std::vector<engine_info> v;
    v.reserve(max_entries);
    for (engine_info e : builtin_engines) {
      if (e.sw == switching::store_forward) e.set_routes = set_torus_routes;
      v.push_back(e);
    }
    return v;
  }();
  return t;
}

std::vector<model_info>& model_table() {
  static std::vector<model_info> t = [] {
    std::vector<model_info> v;
    v.reserve(max_entries);
    v.assign(builtin_models.begin(), builtin_models.end());
    return v;
  }();
  return t;
}

}  // namespace

std::string param_keys(switching sw, bool platform) {
  std::string out;
  for (const param& q : engine(sw).params)
    out += (out.empty() ? "" : ", ") + std::string(q.key);
  for (const param& q : common)
    out += ", " + std::string(q.key);
  if (platform) {
    for (const param& q : platform_table)
      out += ", " + std::string(q.key);
    for (const param& q : energy_table)
      out += ", " + std::string(q.key);
  }
  return out;
}

std::string param::text(std::uint64_t v) const {
  switch (kind) {
    case param_kind::flag:
      return v != 0 ? "1" : "0";
    case param_kind::choice:
      return v < choices.size() ? std::string(choices[v]) : "?";
    case param_kind::count:
      break;
  }
  return std::to_string(v);
}

std::string param::range_text() const {
  switch (kind) {
    case param_kind::flag:
      return "0 or 1";
    case param_kind::choice: {
      std::string out;
      for (std::size_t i = 0; i < choices.size(); ++i)
        out += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(choices[i]);
      return out;
    }
    case param_kind::count:
      break;
  }
  return tessera::range_text(min, max);
}

std::span<const engine_info> engines() {
  return engine_table();
}

const engine_info& engine(switching sw) {
  for (const engine_info& e : engine_table())
    if (e.sw == sw) return e;
  throw input_error("unknown switching");
}

std::string_view switching_name(switching sw) {
  return engine(sw).name;
}

bool parse_switching(std::string_view name, switching& out) {
  for (const engine_info& e : engine_table()) {
    if (e.name == name) {
      out = e.sw;
      return true;
    }
  }
  return false;
}

std::string switching_names() {
  std::string out;
  for (const engine_info& e : engine_table())
    out += (out.empty() ? "" : ", ") + std::string(e.name);
  return out;
}

switching default_switching(fabric_kind k) {
  for (const engine_info& e : engine_table())
    if ((static_cast<unsigned>(e.default_for) >> static_cast<unsigned>(k) & 1U) != 0) return e.sw;
  return switching::ideal;
}

std::span<const param> common_params() {
  return common;
}

std::span<const param> cpu_params_table() {
  return cpu_table;
}

std::span<const param> energy_params_table() {
  return energy_table;
}

std::span<const model_info> models() {
  return model_table();
}

const model_info* find_model(std::string_view name) {
  for (const model_info& m : model_table())
    if (m.name == name) return &m;
  return nullptr;
}

const model_info& default_model(model_kind k) {
  for (const model_info& m : model_table())
    if (m.kind == k) return m;
  throw std::logic_error("no model of the kind is registered");
}

std::string model_names(std::initializer_list<model_kind> kinds, std::string_view last) {
  std::vector<std::string_view> names;  // by kind in the order asked, then as registered
  for (const model_kind k : kinds)
    for (const model_info& m : model_table())
      if (m.kind == k) names.push_back(m.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == names.size() ? last : ", ") + std::string(names[i]);
  return out;
}

switching add_engine(engine_info e) {
  std::vector<engine_info>& t = engine_table();
  for (const engine_info& have : t)
    if (have.name == e.name) throw std::logic_error("engine '" + std::string(e.name) + "' twice");
  if (t.size() == max_entries) throw std::logic_error("the engine table is full");
  e.sw = static_cast<switching>(t.size());
  t.push_back(e);
  return e.sw;
}

void add_model(const model_info& m) {
  std::vector<model_info>& t = model_table();
  if (find_model(m.name) != nullptr)
    throw std::logic_error("model '" + std::string(m.name) + "' twice");
  if (t.size() == max_entries) throw std::logic_error("the model table is full");
  // The models that run come first, the closed forms last, each kind in the order
  // registered. Register before the table is read (at static initialisation, as rtl
  // does): an insertion moves the closed forms' rows.
  auto at = std::find_if(t.begin(), t.end(),
                         [](const model_info& x) { return x.kind == model_kind::closed_form; });
  if (m.kind == model_kind::closed_form) at = t.end();
  t.insert(at, m);
}

std::unique_ptr<net::engine> make_engine(const model_info& m, switching sw, const fabric& f,
                                         const engine_params& p) {
  check_limits(m, sw, p);
  if (m.make_engine != nullptr) return m.make_engine(sw, f, p);
  return engine(sw).make(f, p);
}

bool drives(const model_info& m, switching sw) {
  return m.every_engine || std::find(m.engines.begin(), m.engines.end(), sw) != m.engines.end();
}

const model_limit* find_limit(const model_info& m, switching sw, std::string_view key) {
  for (const model_limit& l : m.limits)
    if (l.sw == sw && l.key == key) return &l;
  return nullptr;
}

namespace {

bool within(const model_limit& l, std::uint64_t v) {
  if (l.choices != 0) return v < 64 && (l.choices >> v & 1U) != 0;
  return v >= l.min && v <= l.max;
}

}  // namespace

bool takes(const model_info& m, switching sw, std::string_view key, std::uint64_t v) {
  if (const model_limit* l = find_limit(m, sw, key); l != nullptr) return within(*l, v);
  const param* q = find_param(sw, key);
  if (q == nullptr) throw std::logic_error("no parameter " + std::string(key));
  return v >= q->min && v <= q->max;
}

bool runs_on(const model_info& m, switching sw, const fabric& f) {
  if (!drives(m, sw) || !engine(sw).supports(f.kind)) return false;
  return m.has_fabric == nullptr || m.has_fabric(sw, f);
}

void check_limits(const model_info& m, switching sw, const engine_params& p) {
  for (const model_limit& l : m.limits) {
    if (l.sw != sw) continue;
    const param* q = find_param(sw, l.key);
    if (q == nullptr) throw std::logic_error("model table: no parameter " + std::string(l.key));
    const std::uint64_t v = q->get(p);
    if (within(l, v)) continue;
    const std::string hw = std::string(m.hardware) + "'s ";
    std::string what =
        "--model " + std::string(m.name) + ": param " + std::string(l.key) + " " + q->text(v);
    if (l.choices != 0) {
      std::string names;
      for (std::size_t i = 0; i < q->choices.size(); ++i)
        if ((l.choices >> i & 1U) != 0)
          names += (names.empty() ? "" : ", ") + std::string(q->choices[i]);
      what += " is not " + hw + "(" + names + ")";
    } else if (l.min == l.max && !l.why.empty()) {
      what += ": " + std::string(l.why) + " (--param " + std::string(l.key) + "=" + q->text(l.min) +
              ")";
    } else if (l.min == l.max) {
      what += " is not " + hw + q->text(l.min);
    } else {
      what += " is not " + std::to_string(l.min) + ".." + std::to_string(l.max);
    }
    if (m.built != nullptr) what += "; built: " + m.built(sw);
    throw input_error(what);
  }
}

void apply_model_defaults(engine_params& p, switching sw, const model_info& m) {
  for (const model_default& d : m.defaults) {
    if (d.sw != sw) continue;
    const param* q = find_param(sw, d.key);
    if (q == nullptr) throw input_error("model table: no parameter " + std::string(d.key));
    q->set(p, d.value);
  }
}

const param* find_param(switching sw, std::string_view key) {
  for (const param& q : engine(sw).params)
    if (q.key == key) return &q;
  for (const param& q : common)
    if (q.key == key) return &q;
  for (const param& q : platform_table)
    if (q.key == key) return &q;
  for (const param& q : energy_table)
    if (q.key == key) return &q;
  for (const param& q : cpu_table)
    if (q.key == key) return &q;
  return nullptr;
}

void set_param(engine_params& p, switching sw, std::string_view key, std::string_view value) {
  const param* q = find_param(sw, key);
  if (q == nullptr) {
    throw input_error("--param '" + shown(key) + "' is not a parameter of " +
                      std::string(switching_name(sw)) + " switching (" + param_keys(sw) + ")");
  }
  const std::string name = "param " + std::string(key);
  const std::string v{value};
  switch (q->kind) {
    case param_kind::count: {
      const std::uint64_t n = parse_count(name, v, ~0ULL);
      if (n < q->min || n > q->max) {
        const bool own =
            std::find_if(engine(sw).params.begin(), engine(sw).params.end(),
                         [&](const param& e) { return e.key == key; }) != engine(sw).params.end();
        out_of_range(own ? switching_name(sw) : "run", {key, q->min, q->max}, shown(v));
      }
      q->set(p, n);
      return;
    }
    case param_kind::flag:
      if (v == "1" || v == "true" || v == "on") return q->set(p, 1);
      if (v == "0" || v == "false" || v == "off") return q->set(p, 0);
      throw input_error("--param " + std::string(key) + "=" + shown(v) + " is not 0 or 1");
    case param_kind::choice:
      for (std::size_t i = 0; i < q->choices.size(); ++i)
        if (q->choices[i] == v) return q->set(p, i);
      throw input_error("--param " + std::string(key) + "=" + shown(v) + " is not " +
                        q->range_text());
  }
}

nlohmann::ordered_json params_json(const engine_params& p, switching sw,
                                   std::span<const std::string_view> common_keys) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  auto put = [&](const param& q) {
    const std::uint64_t v = q.get(p);
    switch (q.kind) {
      case param_kind::count:
        j[std::string(q.key)] = v;
        break;
      case param_kind::flag:
        j[std::string(q.key)] = v != 0;
        break;
      case param_kind::choice:
        j[std::string(q.key)] = q.text(v);
        break;
    }
  };
  for (const param& q : engine(sw).params)
    put(q);
  for (const std::string_view k : common_keys) {
    for (const param& q : common)
      if (q.key == k) put(q);
    for (const param& q : cpu_table)
      if (q.key == k) put(q);
  }
  return j;
}

namespace {

// A value as docs show it: 2^50 rather than 1125899906842624.
std::string value_text(const param& q, std::uint64_t v) {
  return q.kind == param_kind::count ? bound_text(v) : q.text(v);
}

// The default, and a model's own after it: "0 (rtl: 256)".
std::string default_text(const param& q, const engine_info* e = nullptr) {
  const engine_params defaults{};
  std::string out = value_text(q, q.get(defaults));
  if (e == nullptr) return out;
  for (const model_info& m : model_table()) {
    for (const model_default& d : m.defaults) {
      if (d.sw == e->sw && d.key == q.key)
        out += " (" + std::string(m.name) + ": " + value_text(q, d.value) + ")";
    }
  }
  return out;
}

// The meaning, and why a model's own default differs.
std::string doc_text(const param& q, const engine_info* e = nullptr) {
  std::string out{q.doc};
  if (e == nullptr) return out;
  for (const model_info& m : model_table()) {
    for (const model_default& d : m.defaults) {
      if (d.sw == e->sw && d.key == q.key)
        out += "; --model " + std::string(m.name) + ": " + std::string(d.why);
    }
  }
  return out;
}

}  // namespace

std::string params_help() {
  // Laid out for `tessera run --help`: keys from column 21, their docs from column 44,
  // wrapped at 100.
  constexpr std::size_t key_col = 21;
  constexpr std::size_t doc_col = 44;
  constexpr std::size_t width = 100;
  std::string out;
  auto line = [&](const param& q, const engine_info* e) {
    std::string head = std::string(key_col, ' ') + std::string(q.key) + " " + default_text(q, e) +
                       (q.unit.empty() ? "" : " " + std::string(q.unit));
    if (head.size() + 1 >= doc_col) {
      out += head + "\n";
      head.clear();
    }
    head.resize(doc_col, ' ');
    std::string cur = head;
    std::size_t pos = 0;
    const std::string doc = doc_text(q, e);
    while (pos < doc.size()) {
      std::size_t next = doc.find(' ', pos);
      if (next == std::string::npos) next = doc.size();
      const std::string word = doc.substr(pos, next - pos);
      if (cur.size() > doc_col && cur.size() + 1 + word.size() > width) {
        out += cur + "\n";
        cur = std::string(doc_col, ' ');
      }
      if (cur.size() > doc_col && cur.back() != ' ') cur += ' ';
      cur += word;
      pos = next + 1;
    }
    out += cur + "\n";
  };
  for (const engine_info& e : engine_table()) {
    out += std::string(key_col - 2, ' ') + std::string(e.name) + " switching:\n";
    for (const param& q : e.params)
      line(q, &e);
  }
  out += std::string(key_col - 2, ' ') + "every timed model:\n";
  for (const param& q : common)
    line(q, nullptr);
  out += std::string(key_col - 2, ' ') + "the SystemC platform (--model tlm, rtl):\n";
  for (const param& q : platform_table)
    line(q, nullptr);
  out += std::string(key_col - 2, ' ') + "energy (--model tlm, rtl; docs/ppa.md):\n";
  for (const param& q : energy_table)
    line(q, nullptr);
  out += std::string(key_col - 2, ' ') + "Cortex-M4 tiles (--tiles cortex-m4):\n";
  for (const param& q : cpu_table)
    line(q, nullptr);
  return out;
}

std::string params_markdown() {
  std::string out;
  auto table = [&](std::string_view title, std::span<const param> ps, const engine_info* e) {
    out += "**" + std::string(title) + "**\n\n";
    out += "| key | default | range | unit | meaning |\n|---|---|---|---|---|\n";
    for (const param& q : ps) {
      out += "| `" + std::string(q.key) + "` | " + default_text(q, e) + " | " + q.range_text() +
             " | " + std::string(q.unit) + " | " + doc_text(q, e) + " |\n";
    }
    out += "\n";
  };
  for (const engine_info& e : engine_table())
    table(std::string(e.name) + " switching (" + std::string(e.summary) + ")", e.params, &e);
  table("Every timed model", common, nullptr);
  table("The SystemC platform (--model tlm, rtl)", platform_table, nullptr);
  table("Energy (--model tlm, rtl; docs/ppa.md)", energy_table, nullptr);
  table("Cortex-M4 tiles (--tiles cortex-m4, docs/tiles.md)", cpu_table, nullptr);
  return out;
}

}  // namespace tessera::models
