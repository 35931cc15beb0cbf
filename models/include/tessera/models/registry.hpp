// The one place that knows the models and their timing engines. Each engine declares
// here, once, its name, the fabrics it runs on, its parameter table (key, kind, range,
// default, unit, one-line doc), its factory and its zero-load formula; each model
// declares which engines it drives. `--param` parsing and validation, the `--help`
// text, the `params` JSON of a run and the tables in docs/cli.md all come from these
// tables (docs/development.md: how to add a fabric, an engine or a model).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/models/energy.hpp"
#include "tessera/net/alphabeta_engine.hpp"
#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/torus_engine.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::models {

// How a fabric moves a message: the timing engine (tessera/runtime/fabric.hpp).
using switching = ::tessera::switching;

// Every engine's parameters and the ones every timed model reads, as a run carries
// them. The defaults are the member initializers of the engines' parameter structs:
// the tables below read them back, so a default is written once.
// The processor model of ISS tiles (--tiles cortex-m4, docs/tiles.md).
struct cpu_params {
  std::uint64_t cpu_mhz{100};    // the core clock
  std::uint64_t fabric_mhz{0};   // the fabric clock; 0: the machine preset's, else 1000
  std::uint64_t cpi{1};          // core cycles per instruction
  std::uint64_t quantum{10000};  // instructions before a core catches the fabric up
  // Instructions a tile may run untimed, outside its program (before its start command,
  // after its program_end); past them, they count as program time.
  std::uint64_t untimed_max{std::uint64_t{1} << 28};
};

struct engine_params {
  net::alphabeta_params ideal{};
  net::circuit_params circuit{};
  net::torus_params torus{};
  net::wormhole_params wormhole{};
  std::uint64_t unforced_threshold{100};
  std::uint64_t max_cycles{std::uint64_t{1} << 50};
  std::uint32_t max_retries{10};
  // Operating-system jitter (net/jitter_engine.hpp): the mean delay in cycles before a
  // posted message reaches the NIC, exponential; 0: none. Its draws' seed.
  std::uint64_t jitter{0};
  std::uint64_t jitter_seed{1};
  std::uint32_t jitter_percent{100};  // the share of messages hit, percent
  cpu_params cpu{};
  energy_params energy{};  // docs/ppa.md, "Energy"
  // The parameters of engines registered from outside this library (add_engine), by key:
  // their rows' get and set read and write here, and get gives the default when absent.
  std::map<std::string, std::uint64_t, std::less<>> more;
};

enum class param_kind : std::uint8_t { count, flag, choice };

struct param {
  std::string_view key;
  param_kind kind;
  std::uint64_t min;  // count: the valid range; flag: 0..1; choice: 0..choices-1
  std::uint64_t max;
  std::string_view unit;                      // "cycles", "bytes", "" ...
  std::string_view doc;                       // one line
  std::span<const std::string_view> choices;  // choice: the names, by value
  std::uint64_t (*get)(const engine_params&);
  void (*set)(engine_params&, std::uint64_t);

  // The value as --param spells it: a number, 0/1, or the choice's name.
  [[nodiscard]] std::string text(std::uint64_t v) const;
  // The valid values in a few words: "1..16", "0 or 1", "lowest-id, fifo or round-robin".
  [[nodiscard]] std::string range_text() const;
};

struct engine_info {
  switching sw;
  std::string_view name;     // as --switching spells it
  std::string_view summary;  // one line
  std::string_view source;   // the paper or doc its rules come from
  std::uint8_t fabrics;      // bits: 1 << fabric_kind
  std::uint8_t default_for;  // the fabrics it is the default engine of
  std::span<const param> params;
  // Validates the parameters; throws input_error naming the value.
  std::unique_ptr<net::engine> (*make)(const fabric& f, const engine_params& p);
  // Cycles one message of `bytes` takes over `hops` hops with the fabric otherwise idle,
  // from the cycle it is posted to the cycle it is delivered.
  std::uint64_t (*zero_load)(const engine_params& p, std::uint64_t bytes, std::uint32_t hops);
  // Bytes one flit (or element) carries: synthetic traffic sizes its packets in these.
  std::uint32_t (*unit_bytes)(const engine_params& p);
  // Explicit routes (--routes) for an engine that takes them; nullptr: it routes by the
  // fabric's rule only.
  void (*set_routes)(net::engine& e, const std::vector<net::forwarding_entry>& routes){nullptr};

  [[nodiscard]] bool supports(fabric_kind k) const {
    return (static_cast<unsigned>(fabrics) >> static_cast<unsigned>(k) & 1U) != 0;
  }
};

// A model's own default of an engine parameter, where the model's hardware cannot take
// the engine's: the RTL torus's packets carry at most 256 bytes, so --model rtl cuts
// messages into packets of that size unless told otherwise.
struct model_default {
  switching sw;
  std::string_view key;
  std::uint64_t value;
  std::string_view why;  // a few words for --help and docs/cli.md
};

// A model's own range of an engine parameter, inside the engine's row: the values its
// hardware takes (the RTL's, from the Verilated tops' limits). make_engine refuses a value
// outside it before the model's factory runs, and front ends ask takes() what a model
// runs (reproduce turns the iPSC/860's half-duplex interface off on a full-duplex model).
struct model_limit {
  switching sw;
  std::string_view key;
  std::uint64_t min;
  std::uint64_t max;
  // A choice parameter: the choices taken, bit i for choice i (min and max unused).
  std::uint64_t choices{0};
  // A single value: why the model has no other, for the refusal.
  std::string_view why{};
};

// What a model is, which says what runs it: a closed form computes times without moving
// data (tessera analyze, reproduce); a host network runs the tiles' runtime on the host
// (the alpha-beta network); a platform runs tiles and NICs on the SystemC platform over
// a timing engine (tessera/tlm/platform.hpp).
enum class model_kind : std::uint8_t { closed_form, host_network, platform };

// A platform model's engine for a switching over a fabric, parameters validated.
using engine_factory = std::unique_ptr<net::engine> (*)(switching sw, const fabric& f,
                                                        const engine_params& p);

struct model_info {
  std::string_view name;  // as --model spells it
  std::string_view summary;
  model_kind kind;
  std::span<const switching> engines;  // the engines it can drive; [0] where only one
  std::span<const model_default> defaults;
  // A platform model's engines; nullptr: each engine's own factory (engine_info::make).
  engine_factory make_engine{nullptr};
  // It drives every engine of the registry, those registered later too (the TLM platform
  // takes any engine); `engines` then lists the built-in ones it is known for.
  bool every_engine{false};
  // Its own ranges of engine parameters; whose they are in a refusal ("the RTL"); and
  // what it has built for an engine, which a refusal ends with ("; built: ...").
  std::span<const model_limit> limits{};
  std::string_view hardware{};
  std::string (*built)(switching sw){nullptr};
  // The fabrics it has built for an engine (the Verilated sizes); nullptr: every fabric
  // the engine runs.
  bool (*has_fabric)(switching sw, const fabric& f){nullptr};
};

// Runs tiles on the SystemC platform (tlm, rtl).
inline bool is_platform(const model_info& m) {
  return m.kind == model_kind::platform;
}

// The registry is open: an engine or a model defined outside this library (a test's toy
// engine, the Verilated engines of rtl_models) registers itself, at static
// initialisation through a registrar or at any time before it is used. add_engine gives
// the engine a switching of its own (the built-in four keep theirs); both refuse a name
// already taken (std::logic_error: a program error, not bad input).
switching add_engine(engine_info e);
void add_model(const model_info& m);
struct engine_registrar {
  explicit engine_registrar(const engine_info& e) : sw{add_engine(e)} {}
  switching sw;
};
struct model_registrar {
  explicit model_registrar(const model_info& m) { add_model(m); }
};

std::span<const engine_info> engines();
const engine_info& engine(switching sw);
std::string_view switching_name(switching sw);
bool parse_switching(std::string_view name, switching& out);
// The names, for messages: "ideal, circuit, store-forward, wormhole".
std::string switching_names();
// mesh: wormhole, hypercube: circuit, torus and ring: store-forward.
switching default_switching(fabric_kind k);

// Parameters every timed run reads, whatever its engine.
std::span<const param> common_params();
// The processor parameters of ISS tiles (--tiles cortex-m4).
std::span<const param> cpu_params_table();
// The energy coefficients' (docs/ppa.md, "Energy"), read by the platform models.
std::span<const param> energy_params_table();

std::span<const model_info> models();
// nullptr when there is no such model.
const model_info* find_model(std::string_view name);
// The first model of the kind as registered: the platform model whose engines are the
// engines' own (tlm), the host network (alphabeta). What a run takes when its options
// need a kind of model and none is named.
const model_info& default_model(model_kind k);
// The names of the models of these kinds, kind by kind in the order given, for messages:
// "alphabeta, tlm, rtl", or with last = " or ": "tlm or rtl".
std::string model_names(std::initializer_list<model_kind> kinds, std::string_view last = ", ");
// The engine a platform model drives for o's switching (the model's factory, else the
// engine's own), validated; input_error where the model or the engine refuses.
std::unique_ptr<net::engine> make_engine(const model_info& m, switching sw, const fabric& f,
                                         const engine_params& p);
bool drives(const model_info& m, switching sw);
// The model's limit of parameter `key` of the engine; nullptr: the engine's row is its range.
const model_limit* find_limit(const model_info& m, switching sw, std::string_view key);
// Whether the model takes value v of the engine's parameter `key` (its limit, else the row).
bool takes(const model_info& m, switching sw, std::string_view key, std::uint64_t v);
// Whether the model runs the engine on fabric f (its built fabrics, else the engine's).
bool runs_on(const model_info& m, switching sw, const fabric& f);
// Refuses (input_error, one line) the first parameter of p outside the model's limits for
// the engine: "--model rtl: param buffer 9 is not 1..8; built: ...".
void check_limits(const model_info& m, switching sw, const engine_params& p);
// Sets the model's own defaults of the engine's parameters in `p` (a machine preset and
// --param, applied after, override them). A crosscheck applies both models' so that
// both cut messages alike.
void apply_model_defaults(engine_params& p, switching sw, const model_info& m);

// The parameter `key` of the engine, or a common one; nullptr when neither has it.
const param* find_param(switching sw, std::string_view key);
// The engine's keys, then the common ones: "ts, tw, unforced_threshold, ...", then
// (platform) the SystemC platform's (jitter, jitter_seed).
std::string param_keys(switching sw, bool platform = true);
// Sets `key` from its --param text; input_error names the key and value, or lists the
// engine's keys when it has no such key.
void set_param(engine_params& p, switching sw, std::string_view key, std::string_view value);

// The engine's parameters and then the common ones that apply, in table order, as the
// `params` object of a run's JSON.
nlohmann::ordered_json params_json(const engine_params& p, switching sw,
                                   std::span<const std::string_view> common_keys);

// Text for `tessera run --help`: one block per engine.
std::string params_help();
// Markdown for docs/cli.md: one table per engine and one for the common parameters.
std::string params_markdown();

}  // namespace tessera::models
