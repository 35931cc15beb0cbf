#include "tessera/tlm/traffic.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "tessera/common/errors.hpp"
#include "tessera/tlm/fabric_module.hpp"
#include "tessera/tlm/sim_control.hpp"
#include "tessera/tlm/tile_nic.hpp"

namespace tessera::tlm_models {

const char* traffic_name(traffic_kind k) {
  switch (k) {
    case traffic_kind::uniform:
      return "uniform";
    case traffic_kind::transpose:
      return "transpose";
    case traffic_kind::bitcomp:
      return "bitcomp";
    case traffic_kind::bitrev:
      return "bitrev";
    case traffic_kind::hotspot:
      return "hotspot";
    case traffic_kind::neighbor:
      return "neighbor";
    case traffic_kind::tornado:
      return "tornado";
    case traffic_kind::shuffle:
      return "shuffle";
    case traffic_kind::randperm:
      return "randperm";
  }
  return "?";
}

namespace {

constexpr std::array<traffic_kind, 9> all_patterns{
    traffic_kind::uniform, traffic_kind::transpose, traffic_kind::bitcomp,
    traffic_kind::bitrev,  traffic_kind::hotspot,   traffic_kind::neighbor,
    traffic_kind::tornado, traffic_kind::shuffle,   traffic_kind::randperm};

}  // namespace

bool parse_traffic(std::string_view s, traffic_kind& out) {
  for (const traffic_kind k : all_patterns) {
    if (s == traffic_name(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

std::string traffic_names() {
  std::string out;
  for (const traffic_kind k : all_patterns)
    out += std::string(out.empty() ? "" : ", ") + traffic_name(k);
  return out;
}

const char* injection_name(injection_kind k) {
  return k == injection_kind::on_off ? "on-off" : "bernoulli";
}

bool parse_injection(std::string_view s, injection_kind& out) {
  for (const injection_kind k : {injection_kind::bernoulli, injection_kind::on_off}) {
    if (s == injection_name(k)) {
      out = k;
      return true;
    }
  }
  return false;
}

double mean_packet_flits(const traffic_options& t) {
  if (t.packet_sizes.empty()) return t.packet_flits;
  double sum = 0;
  double weights = 0;
  for (const packet_size& z : t.packet_sizes) {
    sum += static_cast<double>(z.flits) * z.weight;
    weights += z.weight;
  }
  return sum / weights;
}

std::vector<std::uint32_t> random_permutation(std::uint32_t tiles, std::uint64_t seed) {
  std::vector<std::uint32_t> perm(tiles);
  for (std::uint32_t i = 0; i < tiles; ++i)
    perm[i] = i;
  std::mt19937_64 rng{seed ^ 0x5DEECE66DULL};  // apart from the sources' streams
  for (std::uint32_t i = tiles; i > 1; --i)
    std::swap(perm[i - 1], perm[rng() % i]);
  return perm;
}

void validate(const fabric& f, const traffic_options& t) {
  const std::uint32_t p = f.tiles();
  if (!(t.rate > 0.0 && t.rate <= 1.0))
    throw input_error("--rate " + std::to_string(t.rate) + " is not in (0, 1] packets/tile/cycle");
  if (t.packet_flits == 0 || t.packet_flits > (1U << 20))
    throw input_error("--packet-flits " + std::to_string(t.packet_flits) + " is not 1..1048576");
  if (t.packet_sizes.size() > 64)
    throw input_error("--packet-sizes has " + std::to_string(t.packet_sizes.size()) +
                      " sizes, more than 64");
  for (const packet_size& z : t.packet_sizes) {
    if (z.flits == 0 || z.flits > (1U << 20))
      throw input_error("--packet-sizes: size " + std::to_string(z.flits) +
                        " is not 1..1048576 flits");
    if (z.weight == 0 || z.weight > (1U << 20))
      throw input_error("--packet-sizes: weight " + std::to_string(z.weight) +
                        " is not 1..1048576");
  }
  if (t.injection == injection_kind::on_off) {
    const auto num = [](double v) {
      std::ostringstream os;
      os << v;
      return os.str();
    };
    for (const auto& [name, v] :
         {std::pair{"--burst-on", t.burst_on}, {"--burst-off", t.burst_off}}) {
      if (!(v >= 1.0 && v <= 1e9))
        throw input_error(std::string(name) + " " + num(v) + " is not 1..1e9 cycles");
    }
    const double peak = t.rate * (t.burst_on + t.burst_off) / t.burst_on;
    if (peak > 1.0) {
      throw input_error("--rate " + num(t.rate) + " with --burst-on " + num(t.burst_on) +
                        " and --burst-off " + num(t.burst_off) + " needs " + num(peak) +
                        " packets a cycle while on (rate x (on + off) / on), more than 1");
    }
  }
  if (t.cycles == 0 || t.cycles > (std::uint64_t{1} << 40))
    throw input_error("--cycles " + std::to_string(t.cycles) + " is not 1..2^40");
  if (t.warmup >= t.cycles)
    throw input_error("--warmup " + std::to_string(t.warmup) + " is not below --cycles " +
                      std::to_string(t.cycles));
  if (t.source_queue == 0 || t.source_queue > 65536)
    throw input_error("--source-queue " + std::to_string(t.source_queue) + " is not 1..65536");
  if (std::uint64_t{p} * t.source_queue > max_packets_in_flight) {
    throw input_error("--source-queue " + std::to_string(t.source_queue) + " on " +
                      std::to_string(p) + " tiles allows " +
                      std::to_string(std::uint64_t{p} * t.source_queue) +
                      " packets in flight, more than " + std::to_string(max_packets_in_flight) +
                      " (memory): lower it to at most " +
                      std::to_string(std::max<std::uint64_t>(max_packets_in_flight / p, 1)));
  }
  const bool square2d =
      (f.kind == fabric_kind::mesh || f.kind == fabric_kind::torus) && f.rows == f.cols;
  if (t.kind == traffic_kind::transpose && !square2d)
    throw input_error("--traffic transpose needs a square mesh or torus");
  if ((t.kind == traffic_kind::bitcomp || t.kind == traffic_kind::bitrev ||
       t.kind == traffic_kind::shuffle) &&
      !std::has_single_bit(p))
    throw input_error(std::string("--traffic ") + traffic_name(t.kind) +
                      " needs a power-of-two tile count, not " + std::to_string(p));
  if (t.kind == traffic_kind::tornado && f.kind == fabric_kind::hypercube)
    throw input_error(
        "--traffic tornado needs a mesh, torus or ring (on a hypercube every "
        "tile would send to itself)");
  if (t.kind == traffic_kind::hotspot && t.hotspot >= p)
    throw input_error("--hotspot " + std::to_string(t.hotspot) + " is not a tile (0.." +
                      std::to_string(p - 1) + ")");
  const double expected = t.rate * static_cast<double>(p) * static_cast<double>(t.cycles);
  if (expected > max_expected_packets)
    throw input_error("the run would create about " +
                      std::to_string(static_cast<std::uint64_t>(expected)) +
                      " packets (limit 1000000000, to keep a run within hours: about 300000 "
                      "packets a second on an 8x8 mesh; memory does not depend on it); lower "
                      "--rate, --cycles or the tile count");
}

std::uint32_t traffic_destination(const fabric& f, const traffic_options& t, std::uint32_t src,
                                  std::mt19937_64& rng, const std::vector<std::uint32_t>& perm) {
  const std::uint32_t p = f.tiles();
  auto uniform_other = [&] {
    if (t.self_packets) return static_cast<std::uint32_t>(rng() % p);
    auto d = static_cast<std::uint32_t>(rng() % (p - 1));
    return d >= src ? d + 1 : d;
  };
  switch (t.kind) {
    case traffic_kind::uniform:
      return uniform_other();
    case traffic_kind::transpose: {
      const std::uint32_t r = src / f.cols;
      const std::uint32_t c = src % f.cols;
      return c * f.cols + r;
    }
    case traffic_kind::bitcomp:
      return ~src & (p - 1);
    case traffic_kind::bitrev: {
      const auto bits = static_cast<std::uint32_t>(std::countr_zero(p));
      std::uint32_t d = 0;
      for (std::uint32_t b = 0; b < bits; ++b)
        d |= ((src >> b) & 1U) << (bits - 1 - b);
      return d;
    }
    case traffic_kind::hotspot: {
      const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
      if (u < t.hot_fraction) return t.hotspot;
      return uniform_other();
    }
    case traffic_kind::neighbor:
      switch (f.kind) {
        case fabric_kind::mesh:
        case fabric_kind::torus: {
          const std::uint32_t r = src / f.cols;
          const std::uint32_t c = src % f.cols;
          return ((r + 1) % f.rows) * f.cols + (c + 1) % f.cols;
        }
        case fabric_kind::hypercube:
          return src ^ 1U;
        case fabric_kind::ring:
          return (src + 1) % p;
      }
      return src;
    case traffic_kind::tornado: {
      // Halfway round each dimension less one: d = s + ceil(k / 2) - 1 (mod k).
      const auto half = [](std::uint32_t x, std::uint32_t k) { return (x + (k + 1) / 2 - 1) % k; };
      if (f.kind == fabric_kind::ring) return half(src, p);
      return half(src / f.cols, f.rows) * f.cols + half(src % f.cols, f.cols);
    }
    case traffic_kind::shuffle: {
      const auto bits = static_cast<std::uint32_t>(std::countr_zero(p));
      if (bits == 0) return src;
      return ((src << 1) | (src >> (bits - 1))) & (p - 1);
    }
    case traffic_kind::randperm:
      return src < perm.size() ? perm[src] : src;
  }
  return src;
}

namespace {

struct in_flight {
  std::uint64_t created{0};
  std::uint32_t dst{0};
  std::uint32_t flits{0};
};

// A source's packets: every sequence number below next_seq was created, and those
// not yet arrived are in `flying`, so arrived ones cost nothing.
struct source_log {
  std::uint32_t next_seq{0};
  std::unordered_map<std::uint32_t, in_flight> flying;
};

struct traffic_state {
  const traffic_options* t{nullptr};
  std::vector<std::uint32_t> perm;  // randperm's
  std::vector<source_log> per_src;
  std::uint64_t created{0};
  std::uint64_t not_injected{0};
  std::uint64_t not_injected_measured{0};
  std::uint64_t measured{0};
  std::uint64_t delivered{0};
  std::uint64_t measured_delivered{0};
  std::uint64_t latency_sum{0};
  net::latency_histogram latency;  // also min, max and count of the measured packets
  std::uint64_t window_packets{0};
  std::uint64_t window_flits{0};
  std::uint64_t measured_left{0};
  std::string failure;
};

void on_arrival(void* ctx, const msg_header& h, std::uint64_t now) {
  auto& s = *static_cast<traffic_state*>(ctx);
  source_log& log = s.per_src[h.src];
  const auto it = log.flying.find(h.tag);
  if (it == log.flying.end() || it->second.dst != h.dst) {
    if (s.failure.empty()) {
      // Created and no longer flying: it arrived before (at which tile is not kept).
      const bool again = h.tag < log.next_seq && it == log.flying.end();
      s.failure = "tile " + std::to_string(h.dst) + " got packet " + std::to_string(h.tag) +
                  " of tile " + std::to_string(h.src) +
                  (again ? ", which had already arrived" : ", which was not sent to it");
    }
    return;
  }
  const std::uint64_t born = it->second.created;
  const std::uint32_t flits = it->second.flits;
  log.flying.erase(it);
  ++s.delivered;
  const traffic_options& t = *s.t;
  if (now >= t.warmup && now < t.cycles) {
    ++s.window_packets;
    s.window_flits += flits;
  }
  if (t.on_arrival) t.on_arrival(packet_arrival{h.src, h.dst, h.tag, born, now});
  if (born >= t.warmup && born < t.cycles) {
    ++s.measured_delivered;
    s.latency_sum += now - born;
    s.latency.add(now - born);
    --s.measured_left;
    if (s.measured_left == 0 && now >= t.cycles) stop_once();
  }
}

class traffic_source : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(traffic_source);

  traffic_source(const sc_core::sc_module_name& name, std::uint32_t tile, const fabric& f,
                 traffic_state& s, tlm_nic& n)
      : sc_core::sc_module(name),
        tile_{tile},
        f_{&f},
        s_{&s},
        nic_{&n},
        rng_{s.t->seed * 0x9E3779B97F4A7C15ULL + tile},
        gap_{s.t->injection == injection_kind::on_off
                 ? s.t->rate * (s.t->burst_on + s.t->burst_off) / s.t->burst_on
                 : s.t->rate},
        on_{1.0 / s.t->burst_on},
        off_{1.0 / s.t->burst_off} {
    for (const packet_size& z : s.t->packet_sizes)
      weights_ += z.weight;
    if (s.t->injection == injection_kind::on_off) {
      // The stationary state: on with probability on / (on + off); both periods are
      // memoryless, so what is left of the current one has the same law.
      const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
      if (u < s.t->burst_on / (s.t->burst_on + s.t->burst_off)) {
        on_end_ = 1 + on_(rng_);
      } else {
        on_start_ = 1 + off_(rng_);
        on_end_ = on_start_ + 1 + on_(rng_);
      }
    }
    SC_METHOD(fire);
    dont_initialize();
    sensitive << ev_;
    schedule(0);
  }

 private:
  // Bernoulli trials every cycle from `from` on: the first success is a geometric
  // number of failures later. On-off: the same trials, at the rate while on, inside the
  // on periods [on_start_, on_end_), each off and on period 1 + a geometric number of
  // cycles long (mean burst_off, burst_on).
  void schedule(std::uint64_t from) {
    if (s_->t->injection == injection_kind::bernoulli) {
      next_ = from + gap_(rng_);
    } else {
      next_ = next_on(from);
    }
    if (next_ < s_->t->cycles) ev_.notify(cycles(next_ - now_cycles()));
  }

  std::uint64_t next_on(std::uint64_t from) {
    const std::uint64_t end = s_->t->cycles;
    while (true) {
      from = std::max(from, on_start_);
      if (from >= end) return from;
      if (from < on_end_) {
        const std::uint64_t at = from + gap_(rng_);
        if (at < on_end_) return at;
      }
      from = on_end_;
      on_start_ = on_end_ + 1 + off_(rng_);
      on_end_ = on_start_ + 1 + on_(rng_);
    }
  }

  // The next packet's size: packet_flits, or a draw from the distribution.
  std::uint32_t size() {
    const traffic_options& t = *s_->t;
    if (t.packet_sizes.empty()) return t.packet_flits;
    std::uint64_t pick = rng_() % weights_;
    for (const packet_size& z : t.packet_sizes) {
      if (pick < z.weight) return z.flits;
      pick -= z.weight;
    }
    return t.packet_sizes.back().flits;
  }

  void fire() {
    const traffic_options& t = *s_->t;
    const std::uint64_t now = now_cycles();
    const std::uint32_t dst = traffic_destination(*f_, t, tile_, rng_, s_->perm);
    source_log& log = s_->per_src[tile_];
    if (log.next_seq == std::numeric_limits<std::uint32_t>::max()) {
      // validate()'s packet limit keeps a source far below 2^32 packets.
      if (s_->failure.empty())
        s_->failure = "tile " + std::to_string(tile_) + " ran out of packet sequence numbers";
      return;
    }
    const bool sends = dst != tile_ || t.self_packets;
    if (sends && log.flying.size() >= t.source_queue) {
      // The source queue is full: the packet is offered, not injected.
      ++s_->not_injected;
      if (now >= t.warmup) ++s_->not_injected_measured;
    } else if (sends) {
      const std::uint32_t flits = size();
      msg_header h{};
      h.src = tile_;
      h.dst = dst;
      h.kind = msg_kind::data;
      h.tag = log.next_seq++;
      h.bytes = std::uint64_t{flits} * t.flit_bytes;
      log.flying.emplace(h.tag, in_flight{now, dst, flits});
      ++s_->created;
      if (now >= t.warmup) {
        ++s_->measured;
        ++s_->measured_left;
      }
      nic_->post_packet(h);
    }
    schedule(now + 1);
  }

  std::uint32_t tile_;
  const fabric* f_;
  traffic_state* s_;
  tlm_nic* nic_;
  std::mt19937_64 rng_;
  std::geometric_distribution<std::uint64_t> gap_;
  std::geometric_distribution<std::uint64_t> on_;   // on_off: an on period, less one
  std::geometric_distribution<std::uint64_t> off_;  // on_off: an off period, less one
  std::uint64_t on_start_{0};
  std::uint64_t on_end_{0};
  std::uint64_t weights_{0};
  std::uint64_t next_{0};
  sc_core::sc_event ev_;
};

}  // namespace

traffic_outcome run_traffic(const fabric& f, const traffic_options& t, const platform_options& o) {
  validate(f, t);
  std::unique_ptr<net::engine> engine = make_engine(f, o);
  const std::uint32_t p = f.tiles();
  traffic_state s;
  s.t = &t;
  s.per_src.resize(p);
  if (t.kind == traffic_kind::randperm) s.perm = random_permutation(p, t.seed);

  route_systemc_reports();
  fabric_module fab{"fabric", *engine};
  fab.keep_log(t.keep_transfers);  // the transfer log grows with every packet
  std::vector<std::unique_ptr<tlm_nic>> nics;
  std::vector<std::unique_ptr<traffic_source>> sources;
  for (std::uint32_t i = 0; i < p; ++i) {
    nics.push_back(std::make_unique<tlm_nic>(("nic_" + std::to_string(i)).c_str(), i, p));
    nics.back()->out.bind(fab.in);
    fab.out.bind(nics.back()->in);
    nics.back()->set_sink(&on_arrival, &s);
  }
  for (std::uint32_t i = 0; i < p; ++i) {
    sources.push_back(
        std::make_unique<traffic_source>(("src_" + std::to_string(i)).c_str(), i, f, s, *nics[i]));
  }
  const std::uint64_t limit = t.cycles + t.drain_factor * t.cycles;
  run_simulation(limit);
  if (!fab.refused().empty()) throw input_error(fab.refused());

  traffic_outcome out;
  out.end = now_cycles();
  out.created = s.created;
  out.not_injected = s.not_injected;
  out.not_injected_measured = s.not_injected_measured;
  out.delivered = s.delivered;
  out.measured = s.measured;
  out.measured_delivered = s.measured_delivered;
  if (out.measured_delivered > 0) {
    out.avg_latency =
        static_cast<double>(s.latency_sum) / static_cast<double>(out.measured_delivered);
  }
  out.min_latency = s.latency.min();
  out.max_latency = s.latency.max();
  out.p50_latency = s.latency.percentile(50);
  out.p90_latency = s.latency.percentile(90);
  out.p99_latency = s.latency.percentile(99);
  out.latency_histogram = std::move(s.latency);
  const double window = static_cast<double>(t.cycles - t.warmup) * p;
  out.offered = static_cast<double>(out.measured + out.not_injected_measured) / window;
  out.accepted_packets = static_cast<double>(s.window_packets) / window;
  out.accepted_flits = static_cast<double>(s.window_flits) / window;
  out.drained = out.measured_delivered == out.measured;
  if (t.keep_transfers) out.transfers = fab.transfers();
  out.links = engine->links();
  out.contention = engine->contention();
  out.energy = engine->energy();
  const std::string model_failure = engine->failure();  // the model's own fault
  out.failure = s.failure.empty() ? model_failure : s.failure;
  if (out.failure.empty() && !out.drained) {
    out.failure = std::to_string(out.measured - out.measured_delivered) + " of " +
                  std::to_string(out.measured) + " measured packets had not arrived by cycle " +
                  std::to_string(out.end) + ": the offered load is beyond saturation";
  }
  out.verified = s.failure.empty() && model_failure.empty();
  return out;
}

}  // namespace tessera::tlm_models
