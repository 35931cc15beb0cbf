// The TLM platform: tiles run the firmware on the tile runtime over TLM NICs, and the
// fabric module drives a timing engine. Expected cycle counts come from the papers'
// formulas (Boppana90 for the circuit hypercube,
// Bermond92 for the store-and-forward ports) or from the independent
// host alpha-beta model (platform/alphabeta). Each platform run is forked
// (isolated.hpp) because SystemC elaborates once per process.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "tessera/alphabeta/run.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/firmware/collective.hpp"
#include "tessera/tlm/isolated.hpp"
#include "tessera/tlm/machines.hpp"
#include "tessera/tlm/platform.hpp"
#include "tessera/tlm/sim_control.hpp"
#include "tessera/tlm/traffic.hpp"

namespace tlmm = tessera::tlm_models;
namespace fw = tessera::fw;
using tessera::tlm_models::run_isolated;

namespace {

struct result {
  bool ok{false};
  std::uint64_t cycles{0};
  bool verified{false};
  std::string failure;
  std::string raw;
};

// "cycles verified failure..." from the child.
result tlm_run(const fw::collective_params& c, const tlmm::platform_options& o) {
  result r;
  r.raw = run_isolated([&] {
    const tlmm::platform_outcome out = tlmm::run_collective(c, o);
    std::ostringstream os;
    os << "ok " << out.run.cycles << ' ' << (out.run.verified ? 1 : 0) << ' ' << out.run.failure;
    return os.str();
  });
  std::istringstream is(r.raw);
  std::string tag;
  int v = 0;
  is >> tag >> r.cycles >> v;
  r.ok = tag == "ok";
  r.verified = v == 1;
  std::getline(is, r.failure);
  return r;
}

fw::collective_params coll(const std::string& fabric, fw::collective k, std::uint32_t bytes) {
  fw::collective_params c;
  c.f = tessera::parse_fabric(fabric).value;
  c.coll = k;
  c.bytes = bytes;
  c.type = tessera::elem_type::i32;
  if (k == fw::collective::alltoall) {
    c.a2a = fw::default_a2a_algorithm(c.f);
  } else {
    c.alg = fw::default_algorithm(k, c.f);
  }
  return c;
}

}  // namespace

TEST_CASE("tlm: the ideal fabric agrees with the host alpha-beta model", "[tlm][platform]") {
  struct cse {
    const char* fabric;
    fw::collective k;
    std::uint32_t bytes;
    tessera::protocol proto;
    bool prepost;
  };
  const cse cases[] = {
      {"hypercube:3", fw::collective::bcast, 64, tessera::protocol::raw, false},
      {"ring:5", fw::collective::allgather, 40, tessera::protocol::raw, false},
      {"mesh:3x3", fw::collective::reduce, 48, tessera::protocol::raw, false},
      {"hypercube:4", fw::collective::allreduce, 64, tessera::protocol::unforced, false},
      {"mesh:2x4", fw::collective::alltoall, 200, tessera::protocol::forced, true},
      {"ring:6", fw::collective::shift, 30, tessera::protocol::raw, false},
      {"hypercube:3", fw::collective::prefix, 16, tessera::protocol::raw, false},
  };
  for (const cse& k : cases) {
    const fw::collective_params c = coll(k.fabric, k.k, k.bytes);
    tessera::ab::run_options ao;
    ao.prm = {37, 3};
    ao.proto = k.proto;
    ao.prepost = k.prepost;
    const auto host = tessera::ab::run_collective(c, ao);
    tlmm::platform_options o;
    o.sw = tlmm::switching::ideal;
    o.ideal = {37, 3};
    o.proto = k.proto;
    o.prepost = k.prepost;
    const result r = tlm_run(c, o);
    INFO(k.fabric << ' ' << fw::info(k.k).name << ": " << r.raw);
    REQUIRE(host.verified);
    CHECK(r.ok);
    CHECK(r.verified);
    CHECK(r.cycles == host.cycles);
  }
}

TEST_CASE("tlm: one circuit message over i hops takes xi + i tau + i + k - 1", "[tlm][circuit]") {
  // A bcast on a 1-cube is exactly one message, 0 -> 1, through the whole stack
  // (executor, NICs, fabric module, engine). Longer paths: tests/net.
  const std::uint64_t xi = 30;
  const std::uint64_t tau = 4;
  for (const std::uint32_t bytes : {1U, 100U, 1000U}) {
    fw::collective_params c = coll("hypercube:1", fw::collective::bcast, bytes);
    tlmm::platform_options o;
    o.sw = tlmm::switching::circuit;
    o.circuit.xi = xi;
    o.circuit.tau = tau;
    const result r = tlm_run(c, o);
    INFO(r.raw);
    CHECK(r.verified);
    CHECK(r.cycles == xi + 1 * tau + 1 + bytes - 1);
  }
}

TEST_CASE("tlm: AAP all-to-all takes Boppana's T_aap", "[tlm][circuit]") {
  // Boppana90 §3.2: T_aap = k(N-1) + (xi-1)(N-1) + (1+tau) n N / 2: each vector reversal in
  // an i-cube is edge-disjoint and takes xi + i tau + i + k - 1; the phases run one
  // after another. k elements of width bytes each.
  struct cse {
    std::uint32_t n;
    std::uint64_t k;
    std::uint64_t xi;
    std::uint64_t tau;
    std::uint32_t width;
  };
  for (const cse& k : {cse{2, 10, 5, 1, 1}, cse{3, 64, 30, 3, 1}, cse{4, 100, 242, 25, 1},
                       cse{5, 16, 7, 2, 4}, cse{6, 8, 50, 10, 1}}) {
    fw::collective_params c = coll("hypercube:" + std::to_string(k.n), fw::collective::alltoall,
                                   static_cast<std::uint32_t>(k.k * k.width));
    c.a2a = fw::a2a_algorithm::aap;
    tlmm::platform_options o;
    o.sw = tlmm::switching::circuit;
    o.circuit.xi = k.xi;
    o.circuit.tau = k.tau;
    o.circuit.width = k.width;
    const std::uint64_t N = std::uint64_t{1} << k.n;
    const std::uint64_t t_aap = k.k * (N - 1) + (k.xi - 1) * (N - 1) + (1 + k.tau) * k.n * N / 2;
    const result r = tlm_run(c, o);
    INFO("n " << k.n << " k " << k.k << " xi " << k.xi << " tau " << k.tau << ": " << r.raw);
    CHECK(r.verified);
    CHECK(r.cycles == t_aap);
  }
}

TEST_CASE("tlm: store-and-forward ring all-gather takes (p-1)(beta + tau m)",
          "[tlm][store-forward]") {
  // Grama's ring all-gather: p - 1 steps, each one hop to the next tile with every
  // tile's +1 port busy at once (Bermond92: the ports work in parallel).
  for (const std::uint32_t p : {4U, 7U}) {
    fw::collective_params c = coll("ring:" + std::to_string(p), fw::collective::allgather, 64);
    c.alg = fw::tb_algorithm::ring;
    tlmm::platform_options o;
    o.sw = tlmm::switching::store_forward;
    o.torus = {628, 22, 0};
    const result r = tlm_run(c, o);
    INFO(r.raw);
    CHECK(r.verified);
    CHECK(r.cycles == (p - 1) * (628 + 22 * 64));
  }
}

TEST_CASE("tlm: every collective is verified on the circuit and store-forward fabrics",
          "[tlm][platform]") {
  for (const char* f : {"hypercube:3", "torus:3x4", "ring:5"}) {
    for (const auto& ci : fw::collectives) {
      fw::collective_params c = coll(f, ci.kind, 96);
      if (ci.kind == fw::collective::shift) c.shift = 2;
      tlmm::platform_options o;
      o.sw = tessera::models::default_switching(c.f.kind);
      o.circuit.xi = 20;
      o.circuit.tau = 3;
      o.torus = {10, 1, 32};
      const result r = tlm_run(c, o);
      INFO(f << ' ' << ci.name << ": " << r.raw);
      CHECK(r.verified);
    }
  }
}

namespace {

// The AAP' step sequence of Boppana90 §3.3, built here from the paper's text and not from
// the firmware: phase 0 (all n dimensions), then for i = 1 .. floor((n-1)/2) the
// steps (i, j) and (n-i, C(n,i)-1-j) interleaved, and for even n the self-dual
// phase n/2 interleaved with itself for j < C(n,n/2)/2. Step (i, j) is a vector
// reversal in the subcubes spanned by the j-th (n-i)-subset of dimensions in
// lexicographic order. Returns each step's dimensions, ascending.
std::vector<std::vector<std::uint32_t>> aap_prime_steps(std::uint32_t n) {
  auto subsets = [n](std::uint32_t size) {
    std::vector<std::vector<std::uint32_t>> all;
    for (std::uint32_t m = 0; m < (1U << n); ++m) {
      if (static_cast<std::uint32_t>(__builtin_popcount(m)) != size) continue;
      std::vector<std::uint32_t> dims;
      for (std::uint32_t d = 0; d < n; ++d)
        if ((m >> d) & 1U) dims.push_back(d);
      all.push_back(dims);
    }
    std::sort(all.begin(), all.end());  // lexicographic on the ascending lists
    return all;
  };
  std::vector<std::vector<std::uint32_t>> steps{subsets(n)[0]};
  for (std::uint32_t i = 1; 2 * i <= n; ++i) {
    const auto mine = subsets(n - i);
    const auto dual = subsets(i);
    const std::size_t ni = mine.size();
    const std::size_t pairs = 2 * i == n ? ni / 2 : ni;
    for (std::size_t j = 0; j < pairs; ++j) {
      steps.push_back(mine[j]);
      steps.push_back(dual[ni - 1 - j]);
    }
  }
  return steps;
}

// The time of AAP' on the circuit model with pre-setup, step by step, from the rules
// in circuit_engine.hpp (those of the RTL cube, docs/rtl.md). Every tile does the same
// at the same time (each step is edge-disjoint and every tile receives one message a
// step), so one tile's times stand for all, and no two headers ever ask for one
// resource at once. Step q's message, with S_q its path complete, F_q = S_q' its first
// element in and E_q = F_q + m_q + k - 1 its tail, holds the link out of a node in
// dimension d (d in its dimension set, at hop position j) until F_q + k + j, and its
// destination's ejection port until E_q + 1. Step s's message is posted when step
// s - 1 becomes current, at E_{s-2} (0 for s <= 1: the executor's send_ahead). The
// interface takes it then if it has handed over step s - 1's last element (F_{s-1} +
// k); before that only by pre-setup, from the cycle after step s - 1 is set up
// (S_{s-1} + 1), once step s - 2 is handed over and its first link free. Its header
// asks for hop c at xi after that and tau after each grant, and is granted when the
// earlier steps have freed the link; the port when step s - 1's tail has left it. Its
// data follows step s - 1's last element: F_s = max(S_s, F_{s-1} + k).
std::uint64_t aap_prime_model(std::uint32_t n, std::uint64_t k, std::uint64_t xi,
                              std::uint64_t tau) {
  const auto steps = aap_prime_steps(n);
  struct step_times {
    std::uint64_t s;  // path complete
    std::uint64_t f;  // first element in
    std::uint64_t e;  // tail delivered
  };
  std::vector<step_times> t;
  // When every step before `s` has freed the link out of a node in dimension d.
  auto link_free = [&](std::size_t s, std::uint32_t d) {
    std::uint64_t free = 0;
    for (std::size_t q = 0; q < s; ++q) {
      const auto& b = steps[q];
      const auto it = std::find(b.begin(), b.end(), d);
      if (it != b.end())
        free = std::max(free, t[q].f + k + static_cast<std::uint64_t>(it - b.begin()));
    }
    return free;
  };
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const auto& b = steps[s];
    const std::uint64_t m = b.size();
    std::uint64_t t0 = 0;
    if (s > 0) {
      const std::uint64_t posted = s >= 2 ? t[s - 2].e : 0;
      const std::uint64_t handed = t[s - 1].f + k;
      const std::uint64_t early =
          std::max({t[s - 1].s + 1, s >= 2 ? t[s - 2].f + k : 0, link_free(s, b[0])});
      t0 = std::max(posted, std::min(handed, early));
    }
    std::uint64_t ask = t0 + xi;
    for (const std::uint32_t d : b)
      ask = std::max(ask, link_free(s, d)) + tau;
    const std::uint64_t setup = std::max(ask, s > 0 ? t[s - 1].e + 1 : 0);
    const std::uint64_t first = std::max(setup, s > 0 ? t[s - 1].f + k : 0);
    t.push_back({setup, first, first + m + k - 1});
  }
  return t.back().e;
}

}  // namespace

TEST_CASE("tlm: AAP' with pre-setup meets Boppana's T_aap' where the paper's overlap holds",
          "[tlm][circuit]") {
  // Boppana90 §3.3: with k > xi + (n-1) tau, T_aap' = (k-1)(N-1) + nN/2 + 2(xi + n tau) - tau.
  // The paper assumes every step after (1,0) can be set up during the previous one.
  // That holds for n = 2; for n >= 3 a step (n-i, .) is followed by (i, j+1), which
  // shares dimensions with it, so its header waits for a link of the previous step
  // (docs/tlm.md), and every step's path completes only when the previous message
  // has left its destination's ejection port. aap_prime_model above charges exactly
  // those waits.
  struct cse {
    std::uint32_t n;
    std::uint64_t k;
    std::uint64_t xi;
    std::uint64_t tau;
  };
  for (const cse& k : {cse{2, 100, 20, 3}, cse{2, 40, 30, 2}, cse{3, 200, 30, 4},
                       cse{4, 300, 50, 5}, cse{5, 100, 20, 2}}) {
    REQUIRE(k.k > k.xi + (k.n - 1) * k.tau);
    fw::collective_params c = coll("hypercube:" + std::to_string(k.n), fw::collective::alltoall,
                                   static_cast<std::uint32_t>(k.k));
    c.a2a = fw::a2a_algorithm::aap_prime;
    tlmm::platform_options o;
    o.sw = tlmm::switching::circuit;
    o.circuit.xi = k.xi;
    o.circuit.tau = k.tau;
    o.circuit.presetup = true;
    const std::uint64_t N = std::uint64_t{1} << k.n;
    const std::uint64_t paper =
        (k.k - 1) * (N - 1) + k.n * N / 2 + 2 * (k.xi + k.n * k.tau) - k.tau;
    const std::uint64_t model = aap_prime_model(k.n, k.k, k.xi, k.tau);
    const result r = tlm_run(c, o);
    INFO("n " << k.n << " k " << k.k << " xi " << k.xi << " tau " << k.tau << ": " << r.raw
              << " paper " << paper << " model " << model);
    CHECK(r.verified);
    CHECK(r.cycles == model);
    if (k.n == 2) {
      CHECK(r.cycles == paper);
    } else {
      CHECK(r.cycles > paper);
    }
    // Without pre-setup AAP' is just AAP in another order: T_aap.
    o.circuit.presetup = false;
    const std::uint64_t t_aap = k.k * (N - 1) + (k.xi - 1) * (N - 1) + (1 + k.tau) * k.n * N / 2;
    CHECK(tlm_run(c, o).cycles == t_aap);
  }
}

TEST_CASE("traffic: the patterns send where BookSim's do", "[tlm][traffic]") {
  // Destinations from the definitions: transpose (r, c) -> (c, r); bitcomp ~s;
  // bitrev reverses the address bits; neighbor (r + 1, c + 1) with wraparound.
  std::mt19937_64 rng{7};
  tlmm::traffic_options t;
  const tessera::fabric m8 = tessera::parse_fabric("mesh:8x8").value;
  t.kind = tlmm::traffic_kind::transpose;
  CHECK(tlmm::traffic_destination(m8, t, 1 * 8 + 5, rng) == 5 * 8 + 1);
  CHECK(tlmm::traffic_destination(m8, t, 3 * 8 + 3, rng) == 3 * 8 + 3);  // diagonal: none
  t.kind = tlmm::traffic_kind::bitcomp;
  CHECK(tlmm::traffic_destination(m8, t, 0b000101, rng) == 0b111010);
  t.kind = tlmm::traffic_kind::bitrev;
  CHECK(tlmm::traffic_destination(m8, t, 0b000011, rng) == 0b110000);
  t.kind = tlmm::traffic_kind::neighbor;
  CHECK(tlmm::traffic_destination(m8, t, 7 * 8 + 7, rng) == 0);
  t.kind = tlmm::traffic_kind::uniform;
  std::vector<int> hits(64, 0);
  for (int i = 0; i < 64000; ++i)
    ++hits[tlmm::traffic_destination(m8, t, 10, rng)];
  CHECK(hits[10] == 0);  // never itself
  for (std::size_t d = 0; d < 64; ++d) {
    if (d != 10) CHECK(std::abs(hits[d] - 1016) < 200);  // 64000 / 63 each
  }
  t.kind = tlmm::traffic_kind::hotspot;
  t.hotspot = 9;
  int hot = 0;
  for (int i = 0; i < 40000; ++i)
    hot += tlmm::traffic_destination(m8, t, 10, rng) == 9 ? 1 : 0;
  // 1/4 directly plus 3/4 of the uniform 1/63.
  CHECK(std::abs(hot / 40000.0 - (0.25 + 0.75 / 63)) < 0.01);
  CHECK_THROWS_AS(tlmm::validate(tessera::parse_fabric("mesh:4x8").value,
                                 tlmm::traffic_options{tlmm::traffic_kind::transpose}),
                  tessera::input_error);
}

TEST_CASE("traffic: tornado, shuffle and randperm send where their definitions say",
          "[tlm][traffic]") {
  // Tornado (Dally and Towles §3.2): each coordinate moves ceil(k/2) - 1 along its ring,
  // +3 on a side of 8, +1 on a side of 4 or 3. Shuffle: the address bits rotate left by
  // one. Randperm: a permutation of the tiles, the same for one seed.
  std::mt19937_64 rng{7};
  tlmm::traffic_options t;
  const tessera::fabric m8 = tessera::parse_fabric("mesh:8x8").value;
  t.kind = tlmm::traffic_kind::tornado;
  CHECK(tlmm::traffic_destination(m8, t, 0, rng) == 3 * 8 + 3);
  CHECK(tlmm::traffic_destination(m8, t, 6 * 8 + 5, rng) == 1 * 8 + 0);
  const tessera::fabric m34 = tessera::parse_fabric("mesh:3x4").value;
  CHECK(tlmm::traffic_destination(m34, t, 2 * 4 + 3, rng) == 0 * 4 + 0);  // (2,3) -> (0,0)
  const tessera::fabric ring7 = tessera::parse_fabric("ring:7").value;
  CHECK(tlmm::traffic_destination(ring7, t, 5, rng) == 1);  // 5 + 3 mod 7
  t.kind = tlmm::traffic_kind::shuffle;
  CHECK(tlmm::traffic_destination(m8, t, 0b100101, rng) == 0b001011);
  CHECK(tlmm::traffic_destination(m8, t, 0b011010, rng) == 0b110100);
  t.kind = tlmm::traffic_kind::randperm;
  const std::vector<std::uint32_t> perm = tlmm::random_permutation(64, 5);
  CHECK(perm == tlmm::random_permutation(64, 5));
  CHECK(perm != tlmm::random_permutation(64, 6));
  std::vector<std::uint32_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint32_t i = 0; i < 64; ++i) {
    CHECK(sorted[i] == i);  // each tile once
    CHECK(tlmm::traffic_destination(m8, t, i, rng, perm) == perm[i]);
  }
  // Shuffle needs a power-of-two tile count, tornado a mesh, torus or ring.
  t.kind = tlmm::traffic_kind::shuffle;
  CHECK_THROWS_WITH(tlmm::validate(m34, t),
                    "--traffic shuffle needs a power-of-two tile count, not 12");
  t.kind = tlmm::traffic_kind::tornado;
  CHECK_THROWS_WITH(tlmm::validate(tessera::parse_fabric("hypercube:4").value, t),
                    Catch::Contains("--traffic tornado needs a mesh, torus or ring"));
}

TEST_CASE("traffic: light load delivers every packet at zero-load latency or later",
          "[tlm][traffic]") {
  // Neighbor traffic on a store-and-forward torus: each packet makes two hops
  // ((r, c) -> (r, c+1) -> (r+1, c+1)), each beta + tau L (Bermond92 §1), so no packet can
  // take less than 2 (beta + tau L), and the first one made meets an empty network.
  const std::string raw = run_isolated([] {
    tlmm::traffic_options t;
    t.kind = tlmm::traffic_kind::neighbor;
    t.rate = 0.001;
    t.cycles = 100000;
    t.warmup = 0;
    t.packet_flits = 8;
    t.flit_bytes = 4;
    tlmm::platform_options o;
    o.sw = tlmm::switching::store_forward;
    o.torus = {20, 1, 0};
    const auto r = tlmm::run_traffic(tessera::parse_fabric("torus:4x4").value, t, o);
    std::ostringstream os;
    os << r.verified << ' ' << r.drained << ' ' << r.created << ' ' << r.delivered << ' '
       << r.min_latency << ' ' << r.max_latency << ' ' << r.offered << ' ' << r.accepted_packets;
    return os.str();
  });
  std::istringstream is(raw);
  int verified = 0;
  int drained = 0;
  std::uint64_t created = 0;
  std::uint64_t delivered = 0;
  std::uint64_t min_lat = 0;
  std::uint64_t max_lat = 0;
  double offered = 0;
  double accepted = 0;
  is >> verified >> drained >> created >> delivered >> min_lat >> max_lat >> offered >> accepted;
  INFO(raw);
  CHECK(verified == 1);
  CHECK(drained == 1);
  CHECK(created == delivered);
  const std::uint64_t hop = 20 + 1 * 32;
  CHECK(min_lat == 2 * hop);
  CHECK(max_lat >= min_lat);
  CHECK(std::abs(offered - 0.001) < 0.0002);  // 1600 expected packets
  CHECK(std::abs(accepted - offered) < 0.0001);
}

TEST_CASE("tlm: a broadcast on 16,384 tiles runs, one SystemC thread a tile",
          "[tlm][platform][size]") {
  // Grama slide 21: a binomial broadcast on the 14-cube is log p = 14 steps of ts + tw m on
  // the ideal fabric. Each tile's thread is its only SystemC thread: with a second one
  // per NIC the run needs more memory maps than Linux gives a process by default.
  fw::collective_params c = coll("hypercube:14", fw::collective::bcast, 64);
  c.alg = fw::tb_algorithm::binomial;
  tlmm::platform_options o;
  o.sw = tlmm::switching::ideal;
  o.ideal = {37, 3};
  const result r = tlm_run(c, o);
  INFO(r.raw);
  REQUIRE(r.ok);
  CHECK(r.verified);
  CHECK(r.cycles == 14 * (37 + 3 * 64));
}

TEST_CASE("tlm: a run of more threads than the machine can map is refused before elaboration",
          "[tlm][platform][size]") {
  std::uint64_t limit = 65530;
  {
    std::ifstream in("/proc/sys/vm/max_map_count");
    in >> limit;
  }
  // Two maps a thread (its stack and the stack's guard page).
  CHECK_THROWS_AS(tlmm::check_thread_count(limit / 2 + 1, "tiles"), tessera::input_error);
  CHECK_NOTHROW(tlmm::check_thread_count(1, "tiles"));
}
