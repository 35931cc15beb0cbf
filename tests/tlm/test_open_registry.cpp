// The registry is open (tessera/models/registry.hpp): an engine defined here, in the test
// tree alone, registers itself with its parameter table and factory, and the platform
// runs a collective on it as it runs the built-in engines. docs/development.md walks
// through the same steps.
#include <catch2/catch.hpp>

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/net/engine.hpp"
#include "tessera/net/event_queue.hpp"
#include "tessera/tlm/isolated.hpp"
#include "tessera/tlm/platform.hpp"

namespace models = tessera::models;
namespace net = tessera::net;
namespace tlmm = tessera::tlm_models;
namespace fw = tessera::fw;

namespace {

// A toy crossbar: a message of m bytes reaches its destination `delay` + m cycles after
// it is posted (a control message `delay`), and nothing contends.
class crossbar_engine final : public net::engine {
 public:
  explicit crossbar_engine(std::uint64_t delay) : delay_{delay} {}

  void inject(const net::xfer& x, net::cycle_t) override { posted_.push_back(x); }
  void arbitrate(net::cycle_t now) override {
    for (const net::xfer& x : posted_) {
      if (listener_ != nullptr) listener_->started(x.id, now);
      events_.push(now + delay_ + (x.control ? 0 : x.bytes), x);
    }
    posted_.clear();
  }
  [[nodiscard]] net::cycle_t next_event() const override { return events_.next(); }
  void fire(net::cycle_t now) override {
    net::xfer x;
    while (events_.pop_due(now, x))
      if (listener_ != nullptr) listener_->delivered(x.id, now);
  }
  [[nodiscard]] bool idle() const override { return posted_.empty() && events_.empty(); }
  [[nodiscard]] std::vector<net::link_stat> links() const override { return {}; }
  [[nodiscard]] net::contention_stat contention() const override { return {}; }
  [[nodiscard]] std::vector<std::string> stuck() const override { return {}; }

 private:
  std::uint64_t delay_;
  std::vector<net::xfer> posted_;
  net::event_queue<net::xfer> events_;
};

constexpr std::uint64_t default_delay = 30;

std::uint64_t delay_of(const models::engine_params& p) {
  const auto it = p.more.find("crossbar.delay");
  return it == p.more.end() ? default_delay : it->second;
}

const std::vector<models::param> crossbar_params{
    {"delay",
     models::param_kind::count,
     1,
     1000,
     "cycles",
     "every message's fixed latency",
     {},
     [](const models::engine_params& p) { return delay_of(p); },
     [](models::engine_params& p, std::uint64_t v) { p.more["crossbar.delay"] = v; }},
};

const models::engine_registrar crossbar{{
    models::switching{},  // add_engine gives it one
    "crossbar",
    "a toy crossbar: delay + m cycles a message, no contention",
    "tests/tlm/test_open_registry.cpp",
    0x0f,  // every fabric kind
    0,     // the default of none
    crossbar_params,
    [](const tessera::fabric&, const models::engine_params& p) -> std::unique_ptr<net::engine> {
      return std::make_unique<crossbar_engine>(delay_of(p));
    },
    [](const models::engine_params& p, std::uint64_t bytes, std::uint32_t) {
      return delay_of(p) + bytes;
    },
    [](const models::engine_params&) { return std::uint32_t{4}; },
}};

}  // namespace

TEST_CASE("registry: an engine registered from the test tree is listed, parsed and validated",
          "[tlm][registry]") {
  models::switching sw{};
  REQUIRE(models::parse_switching("crossbar", sw));
  CHECK(sw == crossbar.sw);
  CHECK(models::switching_name(sw) == "crossbar");
  CHECK(models::switching_names().find("crossbar") != std::string::npos);
  // The TLM platform drives every engine of the registry.
  CHECK(models::drives(*models::find_model("tlm"), sw));
  models::engine_params p;
  CHECK(models::engine(sw).params[0].get(p) == default_delay);
  models::set_param(p, sw, "delay", "40");
  CHECK(delay_of(p) == 40);
  CHECK_THROWS_WITH(models::set_param(p, sw, "delay", "0"),
                    "crossbar: delay 0 is out of range 1..1000");
  CHECK_THROWS_WITH(models::set_param(p, sw, "speed", "1"),
                    Catch::Matchers::StartsWith("--param 'speed' is not a parameter of crossbar"));
  // A second engine of the same name is a program error.
  models::engine_info again = models::engine(sw);
  CHECK_THROWS_AS(models::add_engine(again), std::logic_error);
}

TEST_CASE("registry: the platform runs a collective on an engine from the test tree",
          "[tlm][registry]") {
  // Grama's ring all-gather on ring:p: p - 1 steps, each one message of m bytes from
  // every tile to the next at once. On the crossbar each step takes delay + m, and the
  // platform adds nothing in the raw protocol: (p - 1)(delay + m) in all.
  constexpr std::uint32_t p = 5;
  constexpr std::uint64_t m = 64;
  constexpr std::uint64_t delay = 40;
  fw::collective_params c;
  c.f = tessera::parse_fabric("ring:" + std::to_string(p)).value;
  c.coll = fw::collective::allgather;
  c.alg = fw::tb_algorithm::ring;
  c.bytes = m;
  c.type = tessera::elem_type::i32;
  tlmm::platform_options o;
  o.sw = crossbar.sw;
  models::set_param(o, o.sw, "delay", std::to_string(delay));
  const std::string raw = tlmm::run_isolated([&] {
    const tlmm::platform_outcome out = tlmm::run_collective(c, o);
    std::ostringstream os;
    os << out.run.cycles << ' ' << (out.run.verified ? 1 : 0) << ' ' << out.run.failure;
    return os.str();
  });
  INFO(raw);
  std::istringstream is(raw);
  std::uint64_t cycles = 0;
  int verified = 0;
  is >> cycles >> verified;
  CHECK(verified == 1);
  CHECK(cycles == (p - 1) * (delay + m));
}

namespace {

// A model from the test tree whose hardware narrows two of the wormhole engine's
// parameters and one of the circuit engine's, as the Verilated tops narrow rtl's.
const std::array<models::switching, 2> toy_engines{models::switching::wormhole,
                                                   models::switching::circuit};
constexpr std::uint64_t choice_bit(net::circuit_arbitration a) {
  return std::uint64_t{1} << static_cast<unsigned>(a);
}
const std::array<models::model_limit, 4> toy_limits{{
    {models::switching::wormhole, "buffer", 1, 8},
    {models::switching::wormhole, "half_duplex", 0, 0, 0, "the toy's interface is full duplex"},
    {models::switching::wormhole, "credit_delay", 1, 1},
    {models::switching::circuit, "arbitration", 0, 0,
     choice_bit(net::circuit_arbitration::lowest_id) |
         choice_bit(net::circuit_arbitration::round_robin)},
}};
const models::model_registrar toy_model{
    {"toyhw",
     "a toy hardware model: the engines' own, within its limits",
     models::model_kind::platform,
     toy_engines,
     {},
     nullptr,
     false,
     toy_limits,
     "the toy",
     [](models::switching) { return std::string("a toy 4x4"); },
     [](models::switching, const tessera::fabric& f) { return f.tiles() <= 16; }}};

}  // namespace

TEST_CASE("registry: a model's limits refuse what its hardware does not take", "[tlm][registry]") {
  const models::model_info& m = *models::find_model("toyhw");
  const auto wh = models::switching::wormhole;
  const auto cs = models::switching::circuit;
  const tessera::fabric mesh = tessera::parse_fabric("mesh:4x4").value;
  const tessera::fabric cube = tessera::parse_fabric("hypercube:3").value;
  models::engine_params p;
  models::set_param(p, wh, "buffer", "8");
  models::set_param(p, wh, "credit_delay", "1");
  CHECK(models::make_engine(m, wh, mesh, p) != nullptr);
  // Each row's refusal: the range, the one value with its reason, the one value, the choices.
  models::set_param(p, wh, "buffer", "9");
  CHECK_THROWS_WITH(models::make_engine(m, wh, mesh, p),
                    "--model toyhw: param buffer 9 is not 1..8; built: a toy 4x4");
  models::set_param(p, wh, "buffer", "8");
  models::set_param(p, wh, "half_duplex", "1");
  CHECK_THROWS_WITH(models::make_engine(m, wh, mesh, p),
                    "--model toyhw: param half_duplex 1: the toy's interface is full duplex "
                    "(--param half_duplex=0); built: a toy 4x4");
  models::set_param(p, wh, "half_duplex", "0");
  models::set_param(p, wh, "credit_delay", "0");
  CHECK_THROWS_WITH(models::make_engine(m, wh, mesh, p),
                    "--model toyhw: param credit_delay 0 is not the toy's 1; built: a toy 4x4");
  models::set_param(p, cs, "arbitration", "fifo");
  CHECK_THROWS_WITH(models::make_engine(m, cs, cube, p),
                    "--model toyhw: param arbitration fifo is not the toy's (lowest-id, "
                    "round-robin); built: a toy 4x4");
  models::set_param(p, cs, "arbitration", "round-robin");
  CHECK(models::make_engine(m, cs, cube, p) != nullptr);
  // takes(): the limit where the model has one, the engine's row elsewhere.
  CHECK(models::takes(m, wh, "buffer", 8));
  CHECK_FALSE(models::takes(m, wh, "buffer", 9));
  CHECK_FALSE(models::takes(m, wh, "half_duplex", 1));
  CHECK(models::takes(m, cs, "half_duplex", 1));
  CHECK(models::takes(*models::find_model("tlm"), wh, "buffer", 9));
  CHECK(models::find_limit(m, wh, "vcs") == nullptr);
  // runs_on(): the fabrics the model built, within those its engines run.
  CHECK(models::runs_on(m, wh, mesh));
  CHECK_FALSE(models::runs_on(m, wh, tessera::parse_fabric("mesh:8x8").value));
  CHECK_FALSE(models::runs_on(m, wh, cube));  // wormhole runs on meshes
  CHECK_FALSE(models::runs_on(m, models::switching::store_forward, mesh));  // not driven
  CHECK(models::runs_on(*models::find_model("tlm"), wh, tessera::parse_fabric("mesh:8x8").value));
}
