// Synthetic traffic's streamed statistics (Trust issue, section 3) against numbers
// that do not come from them: the zero-load cost of Grama's ideal network, ts + tw m
// (Grama slide 4), and every packet's own latency as an observer
// saw it arrive. Each platform run is forked (isolated.hpp): SystemC elaborates once
// per process.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/tlm/isolated.hpp"
#include "tessera/tlm/platform.hpp"
#include "tessera/tlm/traffic.hpp"

namespace tlmm = tessera::tlm_models;
using tessera::tlm_models::run_isolated;

namespace {

// "name value" lines from a child, read back into a map.
std::map<std::string, std::uint64_t> read_values(const std::string& raw) {
  std::map<std::string, std::uint64_t> out;
  std::istringstream is(raw);
  std::string name;
  std::uint64_t v = 0;
  while (is >> name >> v)
    out[name] = v;
  return out;
}

}  // namespace

TEST_CASE("traffic stats: on an idle ideal fabric every latency is ts + tw m", "[tlm][traffic]") {
  // Neighbor traffic is a permutation, so every input port has one sender, and a
  // 1-byte packet at ts = 0, tw = 1 holds its source's output port for exactly the
  // one cycle before that source can make its next packet: no packet ever waits,
  // however often the sources fire. Every latency is then 0 + 1 * 1 = 1 cycle.
  const std::string raw = run_isolated([] {
    tlmm::traffic_options t;
    t.kind = tlmm::traffic_kind::neighbor;
    t.rate = 0.4;  // many packets made on consecutive cycles
    t.cycles = 20000;
    t.warmup = 2000;
    t.packet_flits = 1;
    t.flit_bytes = 1;
    tlmm::platform_options o;
    o.sw = tlmm::switching::ideal;
    o.ideal = {0, 1};
    const auto r = tlmm::run_traffic(tessera::parse_fabric("mesh:4x4").value, t, o);
    std::uint64_t in_bin_1 = 0;
    std::uint64_t bins = 0;
    for (const auto& b : r.latency_histogram.bins()) {
      ++bins;
      if (b.lo == 1 && b.hi == 1) in_bin_1 = b.count;
    }
    std::ostringstream os;
    os << "verified " << r.verified << " drained " << r.drained << " measured " << r.measured
       << " measured_delivered " << r.measured_delivered << " min " << r.min_latency << " max "
       << r.max_latency << " p50 " << r.p50_latency << " p90 " << r.p90_latency << " p99 "
       << r.p99_latency << " avg_x1000 " << static_cast<std::uint64_t>(r.avg_latency * 1000)
       << " bins " << bins << " in_bin_1 " << in_bin_1;
    return os.str();
  });
  INFO(raw);
  const auto v = read_values(raw);
  REQUIRE(v.count("verified") == 1);
  const std::uint64_t zero_load = 0 + 1 * 1;  // ts + tw m
  CHECK(v.at("verified") == 1);
  CHECK(v.at("drained") == 1);
  // 16 tiles * 18000 window cycles * 0.4: about 115200 packets.
  CHECK(v.at("measured") > 110000);
  CHECK(v.at("measured_delivered") == v.at("measured"));
  CHECK(v.at("min") == zero_load);
  CHECK(v.at("max") == zero_load);
  CHECK(v.at("p50") == zero_load);
  CHECK(v.at("p90") == zero_load);
  CHECK(v.at("p99") == zero_load);
  CHECK(v.at("avg_x1000") == 1000 * zero_load);
  CHECK(v.at("bins") == 1);
  CHECK(v.at("in_bin_1") == v.at("measured"));
}

TEST_CASE("traffic stats: streamed statistics equal those of every packet's own latency",
          "[tlm][traffic]") {
  // Uniform traffic on a wormhole 4x4 mesh far beyond saturation: each tile makes
  // about 0.3 * 800 = 240 packets of 8 flits, 1920 flits, but its NIC injects at most
  // one flit per cycle, so at the drain limit (cycle 1600) measured packets are still
  // queued, and the queues push latencies from about 150 cycles to past the
  // histogram's exact range (1024). An observer records each arrival; the child
  // recomputes every statistic from those records alone and prints it beside the run's.
  const std::string raw = run_isolated([] {
    std::vector<tlmm::packet_arrival> seen;
    tlmm::traffic_options t;
    t.kind = tlmm::traffic_kind::uniform;
    t.rate = 0.3;
    t.cycles = 800;
    t.warmup = 80;
    t.drain_factor = 1;
    t.source_queue = 65536;  // unbounded here: the queues must grow past the drain limit
    t.on_arrival = [&](const tlmm::packet_arrival& a) { seen.push_back(a); };
    tlmm::platform_options o;
    o.sw = tlmm::switching::wormhole;
    const auto r = tlmm::run_traffic(tessera::parse_fabric("mesh:4x4").value, t, o);

    std::set<std::pair<std::uint32_t, std::uint32_t>> ids;
    std::vector<std::uint64_t> lat;
    std::uint64_t sum = 0;
    std::uint64_t in_window = 0;
    for (const auto& a : seen) {
      ids.insert({a.src, a.seq});
      if (a.arrived >= t.warmup && a.arrived < t.cycles) ++in_window;
      if (a.created < t.warmup) continue;
      lat.push_back(a.arrived - a.created);
      sum += a.arrived - a.created;
    }
    std::sort(lat.begin(), lat.end());
    auto rank = [&](std::uint64_t pct) {  // nearest rank: ceil(pct n / 100), at least 1
      const std::uint64_t k = std::max<std::uint64_t>(1, (pct * lat.size() + 99) / 100);
      return lat.empty() ? 0 : lat[k - 1];
    };
    std::uint64_t bin_mismatch = 0;
    std::uint64_t binned = 0;
    for (const auto& b : r.latency_histogram.bins()) {
      const auto lo = std::lower_bound(lat.begin(), lat.end(), b.lo);
      const auto hi = std::upper_bound(lat.begin(), lat.end(), b.hi);
      if (static_cast<std::uint64_t>(hi - lo) != b.count) ++bin_mismatch;
      binned += b.count;
    }
    const double window = static_cast<double>(t.cycles - t.warmup) * 16;
    std::ostringstream os;
    os << "verified " << r.verified << " drained " << r.drained << '\n'
       << "observed " << seen.size() << " distinct " << ids.size() << '\n'
       << "run_delivered " << r.delivered << '\n'
       << "run_measured_delivered " << r.measured_delivered << " ref_measured_delivered "
       << lat.size() << '\n'
       << "run_min " << r.min_latency << " ref_min " << (lat.empty() ? 0 : lat.front()) << '\n'
       << "run_max " << r.max_latency << " ref_max " << (lat.empty() ? 0 : lat.back()) << '\n'
       << "run_sum "
       << static_cast<std::uint64_t>(r.avg_latency * static_cast<double>(r.measured_delivered) +
                                     0.5)
       << " ref_sum " << sum << '\n'
       << "run_p50 " << r.p50_latency << " ref_p50 " << rank(50) << '\n'
       << "run_p90 " << r.p90_latency << " ref_p90 " << rank(90) << '\n'
       << "run_p99 " << r.p99_latency << " ref_p99 " << rank(99) << '\n'
       << "run_accepted_x1e6 " << static_cast<std::uint64_t>(r.accepted_packets * 1e6 + 0.5)
       << " ref_accepted_x1e6 "
       << static_cast<std::uint64_t>(static_cast<double>(in_window) / window * 1e6 + 0.5) << '\n'
       << "run_measured " << r.measured << '\n'
       << "bin_mismatch " << bin_mismatch << " binned " << binned << '\n';
    return os.str();
  });
  INFO(raw);
  const auto v = read_values(raw);
  REQUIRE(v.count("verified") == 1);
  CHECK(v.at("verified") == 1);
  CHECK(v.at("drained") == 0);  // the load is beyond saturation
  // Each packet was observed once, and the run counted exactly those.
  CHECK(v.at("observed") == v.at("distinct"));
  CHECK(v.at("run_delivered") == v.at("observed"));
  CHECK(v.at("run_measured_delivered") == v.at("ref_measured_delivered"));
  CHECK(v.at("run_measured_delivered") < v.at("run_measured"));
  CHECK(v.at("run_min") == v.at("ref_min"));
  CHECK(v.at("run_max") == v.at("ref_max"));
  CHECK(v.at("run_sum") == v.at("ref_sum"));
  CHECK(v.at("run_accepted_x1e6") == v.at("ref_accepted_x1e6"));
  CHECK(v.at("bin_mismatch") == 0);
  CHECK(v.at("binned") == v.at("ref_measured_delivered"));
  // The run covers both of the histogram's ranges: exact bins for the median, the
  // 1/512-wide ones for the tail.
  CHECK(v.at("ref_p50") < 1024);
  CHECK(v.at("ref_p99") >= 1024);
  for (const char* p : {"p50", "p90", "p99"}) {
    const std::uint64_t truth = v.at(std::string("ref_") + p);
    const std::uint64_t got = v.at(std::string("run_") + p);
    INFO(p << ": reference " << truth << ", run " << got);
    if (truth < 1024) {
      CHECK(got == truth);
    } else {
      CHECK(got >= truth);
      CHECK((got - truth) * 512 < truth);  // under 1/512 high
    }
  }
}

TEST_CASE("traffic stats: the packet limit bounds run time, not memory", "[tlm][traffic]") {
  const auto m8 = tessera::parse_fabric("mesh:8x8").value;
  tlmm::traffic_options t;
  t.rate = 0.01;
  // 64 tiles * 0.01 * 10^8 cycles: 6.4e7 packets, above the old memory limit of 5e7.
  t.cycles = 100'000'000;
  t.warmup = 1000;
  CHECK_NOTHROW(tlmm::validate(m8, t));
  // 64 * 0.5 * 2^36: about 2.2e12 packets, days of simulation.
  t.rate = 0.5;
  t.cycles = std::uint64_t{1} << 36;
  try {
    tlmm::validate(m8, t);
    FAIL("validate accepted 2.2e12 packets");
  } catch (const tessera::input_error& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("would create about 2199023255552 packets") != std::string::npos);
    CHECK(what.find("limit 1000000000") != std::string::npos);
    CHECK(what.find("hours") != std::string::npos);
  }
}

TEST_CASE("traffic: a source never has more than its queue's packets in flight", "[tlm][traffic]") {
  // Rate 1 on a 4x4 wormhole mesh: every tile makes a packet every cycle of [0, 600), far
  // more than its NIC injects (one 8-flit packet per 8 cycles at best). With a queue of
  // Q = 5, a packet made while 5 of its source's are out is not injected. From the
  // arrivals alone: when packet k of a source was made, every packet of that source made
  // earlier and arriving after that cycle was in flight, and there must be fewer than Q.
  constexpr std::uint32_t queue = 5;
  constexpr std::uint64_t cycles = 600;
  const std::string raw = run_isolated([] {
    std::vector<tlmm::packet_arrival> seen;
    tlmm::traffic_options t;
    t.kind = tlmm::traffic_kind::uniform;
    t.rate = 1.0;
    t.cycles = cycles;
    t.warmup = 60;
    t.source_queue = queue;
    t.on_arrival = [&](const tlmm::packet_arrival& a) { seen.push_back(a); };
    tlmm::platform_options o;
    o.sw = tlmm::switching::wormhole;
    const auto r = tlmm::run_traffic(tessera::parse_fabric("mesh:4x4").value, t, o);
    std::map<std::uint32_t, std::vector<tlmm::packet_arrival>> by_src;
    for (const auto& a : seen)
      by_src[a.src].push_back(a);
    std::uint64_t most = 0;
    for (auto& [src, list] : by_src) {
      std::sort(list.begin(), list.end(),
                [](const auto& a, const auto& b) { return a.seq < b.seq; });
      for (std::size_t k = 0; k < list.size(); ++k) {
        std::uint64_t out = 0;
        for (std::size_t j = 0; j < k; ++j)
          if (list[j].arrived > list[k].created) ++out;
        most = std::max(most, out);
      }
    }
    std::ostringstream os;
    os << "verified " << r.verified << " drained " << r.drained << " created " << r.created
       << " delivered " << r.delivered << " not_injected " << r.not_injected << " seen "
       << seen.size() << " most_in_flight " << most << " offered_x1000 "
       << static_cast<std::uint64_t>(r.offered * 1000 + 0.5);
    return os.str();
  });
  INFO(raw);
  const auto v = read_values(raw);
  REQUIRE(v.count("verified") == 1);
  CHECK(v.at("verified") == 1);
  CHECK(v.at("drained") == 1);  // at most 16 x 5 packets were left to drain
  CHECK(v.at("delivered") == v.at("created"));
  CHECK(v.at("seen") == v.at("created"));
  // Every source fires every cycle: injected or not, 16 x 600 packets, and the offered
  // load stays the rate.
  CHECK(v.at("created") + v.at("not_injected") == 16 * cycles);
  CHECK(v.at("offered_x1000") == 1000);
  CHECK(v.at("most_in_flight") <= queue - 1);
  CHECK(v.at("most_in_flight") >= queue - 2);  // the bound is what held them back
}

TEST_CASE("traffic: packet sizes are drawn by their weights", "[tlm][traffic]") {
  // Sizes 1 and 9 flits weighted 3:1 have the mean (3 x 1 + 1 x 9) / 4 = 3 flits; the
  // accepted flits per accepted packet estimate it from about 6,000 packets, whose sizes
  // have variance (3 x 1 + 81) / 4 - 9 = 12: a standard error of 0.05 flits.
  const std::string raw = run_isolated([] {
    tlmm::traffic_options t;
    t.kind = tlmm::traffic_kind::uniform;
    t.rate = 0.02;
    t.cycles = 20000;
    t.warmup = 2000;
    t.packet_sizes = {{1, 3}, {9, 1}};
    t.flit_bytes = 1;
    tlmm::platform_options o;
    o.sw = tlmm::switching::ideal;
    o.ideal = {0, 1};
    const auto r = tlmm::run_traffic(tessera::parse_fabric("mesh:4x4").value, t, o);
    std::ostringstream os;
    os << "verified " << r.verified << " packets " << r.measured_delivered << " mean_x1000 "
       << static_cast<std::uint64_t>(r.accepted_flits / r.accepted_packets * 1000);
    return os.str();
  });
  const auto v = read_values(raw);
  INFO(raw);
  CHECK(v.at("verified") == 1);
  CHECK(v.at("packets") > 5000);
  CHECK(v.at("mean_x1000") > 2800);
  CHECK(v.at("mean_x1000") < 3200);
}

TEST_CASE("traffic: on-off sources keep the mean rate and send in bursts", "[tlm][traffic]") {
  // Rate 0.05 with mean on and off periods of 10 and 90 cycles: a source makes a packet
  // in each on cycle with probability 0.05 x 100 / 10 = 0.5, so its mean rate stays
  // 0.05. A packet's successor at the same source comes the very next cycle when the
  // source stays on (0.9) and fires (0.5): with probability about 0.45, against 0.05 for
  // a Bernoulli source of the same rate. Neighbor traffic of one-flit packets on Grama's
  // ideal fabric never waits, so creation times are what the sources made.
  const auto run = [](tlmm::injection_kind k) {
    return run_isolated([k] {
      tlmm::traffic_options t;
      t.kind = tlmm::traffic_kind::neighbor;
      t.rate = 0.05;
      t.cycles = 40000;
      t.warmup = 4000;
      t.packet_flits = 1;
      t.flit_bytes = 1;
      t.injection = k;
      t.burst_on = 10;
      t.burst_off = 90;
      std::map<std::uint32_t, std::vector<std::uint64_t>> made;  // by source, in order
      t.on_arrival = [&](const tlmm::packet_arrival& a) { made[a.src].push_back(a.created); };
      tlmm::platform_options o;
      o.sw = tlmm::switching::ideal;
      o.ideal = {0, 1};
      const auto r = tlmm::run_traffic(tessera::parse_fabric("mesh:4x4").value, t, o);
      std::uint64_t gaps = 0;
      std::uint64_t next_cycle = 0;
      for (auto& [src, times] : made) {
        std::sort(times.begin(), times.end());
        for (std::size_t i = 1; i < times.size(); ++i) {
          ++gaps;
          if (times[i] == times[i - 1] + 1) ++next_cycle;
        }
      }
      std::ostringstream os;
      os << "verified " << r.verified << " offered_x10000 "
         << static_cast<std::uint64_t>(r.offered * 10000) << " next_x1000 "
         << next_cycle * 1000 / std::max<std::uint64_t>(gaps, 1);
      return os.str();
    });
  };
  const auto bursty = read_values(run(tlmm::injection_kind::on_off));
  const auto smooth = read_values(run(tlmm::injection_kind::bernoulli));
  CHECK(bursty.at("verified") == 1);
  CHECK(smooth.at("verified") == 1);
  for (const auto* v : {&bursty, &smooth}) {
    CHECK(v->at("offered_x10000") > 450);  // 0.05 within 10 %
    CHECK(v->at("offered_x10000") < 550);
  }
  CHECK(bursty.at("next_x1000") > 380);
  CHECK(bursty.at("next_x1000") < 520);
  CHECK(smooth.at("next_x1000") > 35);
  CHECK(smooth.at("next_x1000") < 65);
}

TEST_CASE("traffic: on-off refuses a rate it cannot reach while on", "[tlm][traffic]") {
  tlmm::traffic_options t;
  t.rate = 0.2;
  t.injection = tlmm::injection_kind::on_off;
  t.burst_on = 10;
  t.burst_off = 90;  // needs 2 packets a cycle while on
  CHECK_THROWS_WITH(
      tlmm::validate(tessera::parse_fabric("mesh:4x4").value, t),
      Catch::Contains(
          "--rate 0.2 with --burst-on 10 and --burst-off 90 needs 2 packets a cycle while on"));
  t.burst_on = 50;
  t.burst_off = 50;
  CHECK_NOTHROW(tlmm::validate(tessera::parse_fabric("mesh:4x4").value, t));
}
