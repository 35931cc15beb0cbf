// tb_mesh: Verilator testbench for rtl_models/rtl/tsr_mesh_top.sv, the wormhole mesh
// with XY routing and virtual channels, in its three Verilated configurations
// (rtl_models/tops mesh_top.hpp): --model 8x8 (the default), 8 x 8 with one VC, the plain
// wormhole router; --model 4x4_vc4, 4 x 4 with four VCs, assertions and tracing; --model
// 8x8_vc4, 8 x 8 with four VCs. A test runs on an R x C mesh in the
// model's top-left corner (--mesh, default 4x4); the other tiles stay idle. The timing
// settings are the model's run-time inputs: --router-delay r (default 1), --inject-gap g
// (1), --vcs V (1), --depth B (4, the usable flits per VC FIFO), --alpha.
//
//   tb_mesh --scenario hops|contention|arbitration|vc_share|vc_alloc|random|agree|share|uniform
//           |file [--stimulus FILE.json] [--model 8x8|4x4_vc4|8x8_vc4] [--mesh RxC] [--alpha A]
//           [--flits F] [--packets P]
//           [--src T] [--seed S] [--count N] [--window W] [--idle X] [--stall X] [--timeout C]
//           [--router-delay R] [--inject-gap G] [--vcs V] [--depth B] [--routing NAME]
//           [--pipeline P] [--credit-delay D]
//           [--packet-flits K] [--rate X] [--cycles N] [--trace FILE.fst]
//
// Every scenario runs its cycles in the shared loop (tb/common/run_loop.hpp).
//
// Golden cycle counts come from the wormhole rules of docs/wormhole.md (the machine of
// Thakur, Choudhary and Fox, "Complete Exchange on a Wormhole Routed Mesh"), for the real
// VC router with credits that come back one cycle after a slot frees (docs/rtl.md),
// never from the RTL. A message's time runs from the cycle its NI took it to the cycle
// after the last of its tails crossed the ejection channel.
//
//   hops:        one message of P packets of F flits from --src to every other tile, one
//                at a time. The head crosses a channel every r + 1 cycles, a body flit
//                one cycle after the flit ahead of it and g cycles after it left the NI.
//                A FIFO holds the flits that arrived and those whose slot's credit is
//                still on its way: r + 1 + d with d = 1 (credits one cycle late), so with
//                B >= r + 2 no FIFO fills (docs/wormhole.md "Zero load": the lag term
//                M max(0, r + 1 + d - gB) is 0, and the real router gives a lone worm the
//                whole link whatever V, s = 1). The last tail crosses the ejection
//                channel at alpha + max(g(PF - 1) + h + 1, g(P - 1)F + (h + 1)(r + 1) +
//                F - 1), P packets adding (P - 1)gF ("Zero load", B >= r + 1 + d):
//                delivery one cycle later. With g = 1 that is alpha + (h + 1)(r + 1) + PF.
//   contention:  0->3 and 1->3 through link 1->2; with one VC 1->3 keeps the link until
//                its tail, with more the two interleave flit by flit.
//   arbitration: four heads ask router 5's south output in the same cycle; with one VC
//                each worm keeps the output to its tail, with four they share it in turn.
//   vc_share:    r = 1, g = 2, V = 2: 1->3 and 0->3 share a row's links flit by flit.
//   vc_alloc:    r = 1, g = 2, V = 2, B = 4: three worms to tile 5, two on the
//                ejection's VCs, the third waiting for one.
//   (Each scenario's derivation and count is with its code below, and in docs/rtl.md.)
//   random:      random messages between random tiles, with random back-pressure on
//                both sides (payload withheld with probability --idle, ejection
//                refused with --stall), each delivered exactly once, in order per
//                source with one VC, every word intact, before the timeout.
//   agree:       random messages (posted over --window cycles, 1..--flits flits, cut
//                into packets of --packet-flits) through the RTL and through the
//                cycle-by-cycle reference tb/reference/flit_reference.hpp in the same
//                settings (the real round-robin VC router, credits back after one cycle,
//                one byte per flit): every message must start and be delivered in the
//                same cycle in both.
//   share:       the messages of agree through the RTL and the reference's fixed-share
//                mode (the wormhole engine's rule): reports the difference and checks the
//                ratio of summed latencies against docs/wormhole.md's bounds.
//   uniform:     the speed measurement: every tile of the mesh offers a packet of F
//                flits to a random other tile with probability --rate per cycle, for
//                --cycles cycles; prints the simulated cycles per second.
//   file:        the messages of --stimulus FILE.json (docs/rtl.md, "Add your own golden
//                test"), each delivered exactly once, intact; a message with "want" must
//                take exactly that many cycles, a golden count its author derived.
// Exit 0 on pass, 1 on a failed check, a deadlock or a timeout (naming the input VCs and
// what each waits for), 2 on bad arguments.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../common/run_loop.hpp"
#include "../common/sim_control.hpp"
#include "../common/tb_main.hpp"
#include "../reference/flit_reference.hpp"
#include "mesh_options.hpp"
#include "stimulus.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/rtl_tops/mesh_check.hpp"
#include "tessera/rtl_tops/mesh_ni.hpp"
#include "tessera/rtl_tops/mesh_top.hpp"

namespace {

using namespace tessera::tb;
using namespace tessera::tb::mesh;
using namespace tessera::rtl_tops;

namespace ref = tessera::net::reference;

constexpr const char* port_name[mesh_ports] = {"E", "W", "S", "N", "local"};

// No flit moved and no message taken for this long, with messages owed: a deadlock. A
// live network is quiet at most for a message's start-up (alpha), the gap between two
// flits of one NI and a hop's delays, so those come on top.
std::uint64_t stall_limit(const mesh_settings& s) {
  return 2000 + std::uint64_t{s.alpha} + s.inject_gap + s.router_delay + s.pipeline +
         s.credit_delay;
}

// The settings the chosen model can take, or an error naming the one it cannot.
template <class Dut>
std::string fits(const options& o) {
  if (o.shape.wrap && !Dut::limits.wrap)
    return std::string(
               "--torus needs a model built with the wraparound links (--model 4x4_vc4 "
               "or 8x8_vc4); ") +
           Dut::name + " has none";
  if (o.shape.rows > Dut::rows || o.shape.cols > Dut::cols)
    return (o.shape.wrap ? "--torus " : "--mesh ") + std::to_string(o.shape.rows) + "x" +
           std::to_string(o.shape.cols) + " does not fit " + Dut::name + "'s " +
           std::to_string(Dut::rows) + "x" + std::to_string(Dut::cols);
  if (o.set.vcs > Dut::vcs)
    return "--vcs " + std::to_string(o.set.vcs) + " is more than " + Dut::name + "'s VCs " +
           std::to_string(Dut::vcs);
  if (o.set.depth > Dut::buffer)
    return "--depth " + std::to_string(o.set.depth) + " is more than " + Dut::name +
           "'s BufferDepth " + std::to_string(Dut::buffer);
  if (o.set.pipeline > Dut::max_pipeline || o.set.credit_delay > Dut::max_credit_delay)
    return "--pipeline " + std::to_string(o.set.pipeline) + " --credit-delay " +
           std::to_string(o.set.credit_delay) + " is more than " + Dut::name + "'s " +
           std::to_string(Dut::max_pipeline) + " (use --model 4x4_vc4 or 8x8_vc4)";
  return {};
}

struct check {
  unsigned src, seq;
  std::uint64_t want;  // delivery - start
  std::string what;
};

// A scenario's precondition, or a usage error naming it.
std::string require(bool ok, const std::string& what) {
  return ok ? std::string{} : what;
}

// The model, its clock and the test's traffic, run to completion.
template <class Dut>
class bench {
  using model_t = typename Dut::model;
  static constexpr unsigned in_vcs = mesh_ports * Dut::vcs;  // index port * VCs + vc

 public:
  explicit bench(const options& o)
      : o_(o),
        ctx_(std::make_unique<VerilatedContext>()),
        model_(make_model(*ctx_, !o.trace_path.empty())),
        sim_(*ctx_, *model_),
        drv_(*model_, o.shape, o.scenario == "random" ? o.idle : 0.0, o.seed),
        mon_(*model_, o.shape, o.scenario == "random" ? o.stall : 0.0, o.seed + 1),
        // In order where one path and one VC keep it: xy or yx (codes 0, 1) with one VC.
        check_(o.shape.tiles(), o.set.vcs, o.set.vcs == 1 && o.set.routing <= 1) {
#if TESSERA_RTL_TRACE_FST
    if constexpr (Dut::traced) {
      if (!o.trace_path.empty()) sim_.open_trace(o.trace_path);
    }
#endif
  }

  // Posts a message; returns its number at src.
  unsigned post(unsigned src, unsigned dst, unsigned flits, unsigned packet_flits,
                std::uint64_t at) {
    const std::uint64_t id = sent_.size();
    const std::uint32_t seq = check_.add(id, src, dst, flits, packet_flits);
    drv_.send(mesh_message{id, src, dst, seq, flits, packet_flits, at});
    sent_.emplace_back(src, seq);
    return seq;
  }

  // Runs until every message is delivered, a check fails, a deadlock or the timeout.
  bool run() {
    apply(*model_, o_.set);
    sim_.reset();  // the monitor made the tiles ready in cycle 0 too (registered in reset)
    const run_outcome outcome = run_loop(
        sim_, *this, {o_.timeout.value_or(default_timeout), stall_limit(o_.set), clocking::rise});
    for (const std::string& e : {drv_.error(), check_.failure()})
      if (!e.empty()) std::cerr << "tb_mesh: " << e << '\n';
    print_verdict("tb_mesh", outcome);
    model_->final();
    return outcome.result == verdict::pass;
  }

  // run_loop's hooks.
  void drive(std::uint64_t now) {
    drv_.drive(now);
    mon_.drive();
  }
  // Progress: a message taken by its NI, or a flit on any link.
  bool sample(std::uint64_t now) {
    bool moved = false;
    drv_.sample(now, [&](const mesh_message& m, std::uint64_t t) {
      started_[{m.src, m.seq}] = t;
      moved = true;
    });
    // A message is delivered the cycle after the tail of its last packet came out.
    mon_.sample([&](unsigned tile, const mesh_flit& f) {
      std::uint64_t id = 0;
      if (!check_.eject(tile, f, id)) return;
      delivered_[sent_[id]] = now + 1;
      check_.remove(id);
    });
    for (unsigned t = 0; t < o_.shape.tiles(); ++t) {
      const std::uint64_t flits = lane<mesh_ports>(model_->link_valid_o, o_.shape.phys(t));
      moved = moved || flits != 0;
      flits_moved_ += static_cast<unsigned>(__builtin_popcountll(flits));
    }
    return moved;
  }
  bool done(std::uint64_t) const {
    return delivered_.size() == sent_.size();
  }
  bool failed() const {
    return !check_.failure().empty() || !drv_.error().empty();
  }
  bool waiting_for_time(std::uint64_t now) const {
    return drv_.waiting_for_time(now);
  }
  std::string deadlock_report() {
    return check_.owed(4) + " waiting:" + waiting();
  }
  std::string timeout_report() const {
    return check_.owed(4);
  }

  // Start and delivery of message (src, seq), or false.
  bool times(unsigned src, unsigned seq, std::uint64_t& start, std::uint64_t& end) const {
    const auto d = delivered_.find({src, seq});
    const auto s = started_.find({src, seq});
    if (d == delivered_.end() || s == started_.end()) return false;
    start = s->second;
    end = d->second;
    return true;
  }

  std::uint64_t now() const {
    return sim_.now();
  }
  std::uint64_t flits_moved() const {
    return flits_moved_;
  }
  std::uint64_t packets() const {
    return check_.packets_out();
  }
  std::uint64_t messages() const {
    return delivered_.size();
  }

 private:
  static std::unique_ptr<model_t> make_model(VerilatedContext& ctx, bool trace) {
    ctx.traceEverOn(trace);
    return std::make_unique<model_t>(&ctx, "mesh");
  }

  // Every input VC whose front flit is stuck, the packet there and the output it wants.
  // The probe's choice is registered, so each look costs a clock edge; nothing moves in
  // a deadlock, and no new message is offered.
  std::string waiting() {
    std::string out;
    std::vector<std::uint32_t> stuck(o_.shape.tiles());
    for (unsigned t = 0; t < o_.shape.tiles(); ++t)
      stuck[t] = static_cast<std::uint32_t>(lane<in_vcs>(model_->stall_o, o_.shape.phys(t)));
    set_mask(model_->msg_valid_i, 0);
    set_mask(model_->data_valid_i, 0);
    for (unsigned t = 0; t < o_.shape.tiles(); ++t) {
      const unsigned phys = o_.shape.phys(t);
      for (unsigned iv = 0; iv < in_vcs; ++iv) {
        if (!bit(stuck[t], iv)) continue;
        model_->probe_tile_i = static_cast<std::uint16_t>(phys);
        model_->probe_vc_i = static_cast<std::uint8_t>(iv);
        sim_.settle();
        sim_.rise();
        sim_.settle();
        const unsigned src = o_.shape.at(model_->probe_src_row_o, model_->probe_src_col_o);
        const unsigned dst = o_.shape.at(model_->probe_dst_row_o, model_->probe_dst_col_o);
        out += " tile " + std::to_string(t) + " input " + port_name[iv / Dut::vcs] + " VC " +
               std::to_string(iv % Dut::vcs) + " holds " +
               (model_->probe_head_o ? "the head" : "a flit") + " of " + std::to_string(src) +
               "->" + std::to_string(dst) + ", which waits for output " +
               port_name[o_.shape.xy_port(t, dst)] + ';';
      }
    }
    return out;
  }

  const options& o_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<model_t> model_;
  sim_control<model_t> sim_;
  mesh_driver<model_t> drv_;
  mesh_monitor<model_t> mon_;
  mesh_check check_;
  std::vector<std::pair<unsigned, unsigned>> sent_;                   // by id: (src, seq)
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> started_;    // (src, seq) -> cycle
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> delivered_;  // (src, seq) -> cycle
  std::uint64_t flits_moved_ = 0;
};

// Checks every timed message against its golden count.
template <class Bench>
bool check_all(const Bench& b, const std::vector<check>& checks, std::uint64_t& latest) {
  bool ok = true;
  for (const check& c : checks) {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    if (!b.times(c.src, c.seq, start, end)) {
      std::cerr << "tb_mesh: message " << c.what << " has no delivery time\n";
      return false;
    }
    const std::uint64_t got = end - start;
    latest = std::max(latest, got);
    if (got != c.want) {
      std::cerr << "tb_mesh: message " << c.what << " took " << got << " cycles, want " << c.want
                << '\n';
      ok = false;
    }
  }
  return ok;
}

// The agreement scenario: the same messages through the RTL and the flit reference,
// which must agree exactly in its round-robin mode (the real router). The share
// scenario compares the RTL with the reference's fixed-share mode, the wormhole engine's
// rule (docs/wormhole.md, "Virtual channels"), and reports how far they are apart: the
// ratio of summed latencies (delivery - post), fixed over RTL, must stay within the
// bounds docs/wormhole.md gives for random traffic, [0.9, 1.25 max(1, V/g)].
template <class Dut>
int agree(const options& o, ref::link_share share) {
  struct job {
    unsigned src, dst, flits;
    std::uint64_t post;
  };
  std::mt19937_64 rng(o.seed);
  const unsigned tiles = o.shape.tiles();
  std::vector<job> jobs;
  for (unsigned n = 0; n < o.count; ++n) {
    const auto src = static_cast<unsigned>(rng() % tiles);
    const auto dst = static_cast<unsigned>(rng() % tiles);  // the own tile too
    const auto flits = static_cast<unsigned>(1 + rng() % o.flits);
    jobs.push_back({src, dst, flits, o.window == 0 ? 0 : rng() % o.window});
  }
  // Both sides send a tile's messages in posting order.
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const job& a, const job& b) { return a.post < b.post; });

  bench<Dut> b(o);
  std::vector<unsigned> seq(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i)
    seq[i] = b.post(jobs[i].src, jobs[i].dst, jobs[i].flits, o.packet_flits, jobs[i].post);
  if (!b.run()) return exit_fail;

  ref::flit_params p;
  p.width = 1;  // one flit per byte: a message of F bytes is F flits
  p.router_delay = o.set.router_delay;
  p.buffer = o.set.depth;
  p.alpha = o.set.alpha;
  p.packet_bytes = o.packet_flits;
  p.inject_gap = o.set.inject_gap;
  p.vcs = o.set.vcs;
  p.share = share;
  p.credit_delay = o.set.credit_delay;
  p.pipeline = o.set.pipeline;
  p.route = static_cast<ref::routing>(o.set.routing);
  p.torus = o.shape.wrap;
  std::vector<ref::message> msgs;
  for (const job& j : jobs)
    msgs.push_back({j.src, j.dst, j.flits, false, j.post});
  ref::flit_mesh mesh(o.shape.rows, o.shape.cols, p);
  const std::vector<ref::outcome> want = mesh.run(msgs);

  const bool exact = share == ref::link_share::round_robin;
  unsigned bad = 0;
  std::uint64_t last = 0;
  std::uint64_t rtl_latency = 0;
  std::uint64_t ref_latency = 0;
  std::int64_t most_later = 0;    // fixed - RTL, per message
  std::int64_t most_earlier = 0;  // RTL - fixed
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    if (!b.times(jobs[i].src, seq[i], start, end)) {
      std::cerr << "tb_mesh: message " << i << " has no delivery time\n";
      return exit_fail;
    }
    last = std::max(last, end);
    rtl_latency += end - jobs[i].post;
    ref_latency += want[i].delivered - jobs[i].post;
    const auto delta =
        static_cast<std::int64_t>(want[i].delivered) - static_cast<std::int64_t>(end);
    most_later = std::max(most_later, delta);
    most_earlier = std::max(most_earlier, -delta);
    if (start != want[i].started || end != want[i].delivered) {
      if (++bad <= 10 && exact)
        std::cerr << "tb_mesh: message " << i << " (" << jobs[i].src << "->" << jobs[i].dst << ", "
                  << jobs[i].flits << " flits, posted " << jobs[i].post << "): RTL started "
                  << start << " delivered " << end << ", reference " << want[i].started << ' '
                  << want[i].delivered << '\n';
    }
  }
  std::cout << "tb_mesh " << o.scenario << " (" << Dut::name << "): " << jobs.size()
            << " messages (" << b.packets() << " packets) compared with the "
            << (exact ? "flit reference" : "flit reference's fixed shares") << " on "
            << o.shape.rows << "x" << o.shape.cols << ", vcs " << o.set.vcs << " inject_gap "
            << o.set.inject_gap << " depth " << o.set.depth << " r " << o.set.router_delay
            << " alpha " << o.set.alpha << " packet_flits " << o.packet_flits
            << "; last delivery at " << last << ", " << bad << " differ";
  if (exact) {
    std::cout << ": " << (bad == 0 ? "PASS" : "FAIL") << '\n';
    return bad == 0 ? exit_pass : exit_fail;
  }
  const double ratio = static_cast<double>(ref_latency) / static_cast<double>(rtl_latency);
  const double hi = 1.25 * std::max(1.0, static_cast<double>(o.set.vcs) / o.set.inject_gap);
  const bool ok = ratio >= 0.9 && ratio <= hi;
  std::cout << "; summed latency RTL " << rtl_latency << ", fixed shares " << ref_latency
            << ", ratio " << ratio << " (bounds 0.9.." << hi
            << "); per message fixed later by up to " << most_later << ", earlier by up to "
            << most_earlier << " cycles: " << (ok ? "PASS" : "FAIL") << '\n';
  return ok ? exit_pass : exit_fail;
}

// The speed measurement: Bernoulli injection of F-flit packets, the model alone, one
// settle and one rising edge per cycle, for --cycles cycles; nothing is checked but that
// packets move, so it has no watchdog.
template <class Dut>
class uniform_traffic {
  using model_t = typename Dut::model;

 public:
  uniform_traffic(model_t& m, const options& o)
      : o_(o),
        tiles_(o.shape.tiles()),
        rng_(o.seed),
        offer_(o.rate),
        drv_(m, o.shape),
        mon_(m, o.shape),
        seq_(tiles_, 0) {}

  void drive(std::uint64_t now) {
    for (unsigned t = 0; t < tiles_; ++t) {
      if (!offer_(rng_)) continue;
      const auto d = static_cast<unsigned>(rng_() % (tiles_ - 1));
      drv_.send(mesh_message{posted_++, t, d >= t ? d + 1 : d, seq_[t]++, o_.flits, 0, 0});
    }
    drv_.drive(now);
  }
  bool sample(std::uint64_t now) {
    bool go = false;
    drv_.sample(now, [&](const mesh_message&, std::uint64_t) {
      ++taken_;
      go = true;
    });
    mon_.sample([&](unsigned, const mesh_flit& f) { delivered_ += f.tail ? 1 : 0; });
    return go;
  }
  bool done(std::uint64_t now) const { return now >= o_.cycles; }
  bool failed() const { return false; }
  bool waiting_for_time(std::uint64_t) const { return false; }
  std::string deadlock_report() const { return {}; }
  std::string timeout_report() const { return {}; }

  std::uint64_t posted() const { return posted_; }
  std::uint64_t taken() const { return taken_; }
  std::uint64_t delivered() const { return delivered_; }

 private:
  const options& o_;
  unsigned tiles_;
  std::mt19937_64 rng_;
  std::bernoulli_distribution offer_;
  mesh_driver<model_t> drv_;
  mesh_monitor<model_t> mon_;
  std::vector<std::uint32_t> seq_;  // per tile: the next message's number
  std::uint64_t posted_ = 0;
  std::uint64_t taken_ = 0;
  std::uint64_t delivered_ = 0;
};

template <class Dut>
int uniform(const options& o) {
  using model_t = typename Dut::model;
  auto ctx = std::make_unique<VerilatedContext>();
  auto m = std::make_unique<model_t>(ctx.get(), "mesh");
  sim_control<model_t> sim(*ctx, *m);
  apply(*m, o.set);
  uniform_traffic<Dut> traffic(*m, o);  // its monitor makes every tile ready
  sim.reset();
  const auto t0 = std::chrono::steady_clock::now();
  const run_outcome outcome = run_loop(sim, traffic, {no_watchdog, no_watchdog, clocking::rise});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m->final();
  std::cout << "tb_mesh uniform (" << Dut::name << "): " << o.shape.rows << "x" << o.shape.cols
            << ", " << o.cycles << " cycles in " << s
            << " s: " << static_cast<std::uint64_t>(static_cast<double>(o.cycles) / s)
            << " cycles/s; rate " << o.rate << " packets/node/cycle of " << o.flits
            << " flits, vcs " << o.set.vcs << "; " << traffic.posted() << " posted, "
            << traffic.taken() << " taken, " << traffic.delivered() << " delivered\n";
  if (outcome.result != verdict::pass) return print_verdict("tb_mesh", outcome);
  return traffic.taken() > 0 && traffic.delivered() > 0 ? exit_pass : exit_fail;
}

template <class Dut>
int run(const options& given) {
  if (const std::string e = fits<Dut>(given); !e.empty()) {
    std::cerr << "tb_mesh: " << e << '\n';
    return exit_usage;
  }
  if (!Dut::traced && !given.trace_path.empty()) {
    std::cerr << "tb_mesh: --trace needs --model 4x4_vc4 (" << Dut::name
              << " is built without tracing)\n";
    return exit_usage;
  }
  // The golden counts of the fixed scenarios follow XY paths; hops (a lone message takes
  // a minimal path with every credit free), random traffic and the comparisons with the
  // reference hold for every routing (share, the fixed-share reference, for xy and yx).
  const std::string_view sc = given.scenario;
  const unsigned routing = given.set.routing;
  const bool any_routing =
      sc == "hops" || sc == "random" || sc == "agree" || sc == "uniform" || sc == "file";
  if (routing != 0 && !any_routing && !(routing == 1 && sc == "share")) {
    std::cerr << "tb_mesh: --routing " << routing_names.at(routing)
              << ": the golden counts of --scenario " << sc
              << " are derived for XY paths (hops, random, agree and uniform take every "
                 "routing, share xy and yx)\n";
    return exit_usage;
  }
  // (A stimulus file's goldens are its author's, for the settings the author gives.)
  const bool no_golden = sc == "agree" || sc == "random" || sc == "uniform" || sc == "file";
  if ((given.set.pipeline != 1 || given.set.credit_delay != 1) && !no_golden) {
    std::cerr << "tb_mesh: the golden counts of --scenario " << sc
              << " are derived for --pipeline 1 --credit-delay 1 (agree, random and uniform "
                 "take any)\n";
    return exit_usage;
  }
  if (given.set.router_delay + given.set.pipeline - 1 > mesh_8x8.max_router_delay) {
    std::cerr << "tb_mesh: --router-delay " << given.set.router_delay << " with --pipeline "
              << given.set.pipeline << " makes a head wait more than " << mesh_8x8.max_router_delay
              << " cycles\n";
    return exit_usage;
  }
  if (routing == 2 && given.set.vcs < 2) {
    std::cerr << "tb_mesh: --routing o1turn needs --vcs 2 or more (a VC class for XY packets "
                 "and one for YX), got "
              << given.set.vcs << '\n';
    return exit_usage;
  }
  if (given.shape.wrap) {
    if (!any_routing || routing > 1 || given.set.vcs < 2) {
      std::cerr << "tb_mesh: --torus runs --scenario hops, random, agree or uniform with "
                   "--routing xy or yx and --vcs 2 or more (the dateline classes), not --scenario "
                << sc << " --routing " << routing_names.at(routing) << " --vcs " << given.set.vcs
                << '\n';
      return exit_usage;
    }
  }
  options o = given;
  o.shape.model_cols = Dut::cols;
  o.set.wrap = o.shape.wrap;
  o.set.rows = o.shape.rows;
  o.set.cols = o.shape.cols;
  if (o.scenario == "agree") return agree<Dut>(o, ref::link_share::round_robin);
  if (o.scenario == "share") return agree<Dut>(o, ref::link_share::fixed);
  if (o.scenario == "uniform") return uniform<Dut>(o);

  const mesh_shape& sh = o.shape;
  const mesh_settings& st = o.set;
  const std::uint64_t r = st.router_delay;
  const std::uint64_t g = st.inject_gap;
  const std::uint64_t a = st.alpha;
  const std::uint64_t F = o.flits;
  bench<Dut> b(o);
  std::vector<check> checks;
  std::string bad;

  if (o.scenario == "hops") {
    bad = require(st.depth >= r + 2, "hops: the formula needs --depth >= r + 2 (no FIFO fills)");
    // One message to every other tile, spaced so that none meets another.
    const std::uint64_t P = o.packets;
    const std::uint64_t h_max = sh.rows + sh.cols - 2;
    const std::uint64_t gap = a + (h_max + 1) * (r + 1) + g * P * F + 8;
    std::uint64_t at = 0;
    for (unsigned d = 0; d < sh.tiles(); ++d) {
      if (d == o.src) continue;
      const unsigned s = b.post(o.src, d, o.flits * o.packets, o.packets > 1 ? o.flits : 0, at);
      const std::uint64_t h = sh.hops(o.src, d);
      const std::uint64_t tail =
          std::max(g * (P * F - 1) + h + 1, g * (P - 1) * F + (h + 1) * (r + 1) + F - 1);
      checks.push_back({o.src, s, a + tail + 1,
                        std::to_string(o.src) + "->" + std::to_string(d) + " over " +
                            std::to_string(h) + " hops"});
      at += gap;
    }
  } else if (o.scenario == "contention") {
    bad = require(F >= r + 1 && g == 1 && sh.cols >= 4 && st.depth >= r + 2,
                  "contention needs --flits >= r + 1, --inject-gap 1, --depth >= r + 2 and "
                  "4 columns");
    if (bad.empty() && st.vcs > 1) {
      bad = require(r == 1 && F >= 4,
                    "contention with --vcs 2 or more needs --router-delay 1 "
                    "and --flits >= 4");
    }
    const unsigned s0 = b.post(0, 3, o.flits, 0, 0);
    const unsigned s1 = b.post(1, 3, o.flits, 0, 0);
    if (st.vcs == 1) {
      // 1->3's head wins link 1->2 and its body flits hold it every cycle (g = 1): its
      // lone time. 0->3's head gets the link the cycle after that tail, F cycles late;
      // its flits, stacked behind it, follow one a cycle (a slot freed at c takes the
      // next flit at c + 1, which may leave at c + 2, before its turn at c + B).
      checks.push_back({1, s1, a + 3 * (r + 1) + F, "1->3 (wins link 1->2)"});
      checks.push_back({0, s0, a + 3 * (r + 1) + 2 * F, "0->3 (waits for 1->3's tail)"});
    } else {
      // r = 1, g = 1, alpha 0; P = 1->3, Q = 0->3. A flit crossing at c may leave the
      // next router's FIFO at c + 1, a head at c + 2. Router 1's E output: P's head at 2
      // (VC 0), P's flit 1 at 3; the flit pointer is then past VC 0. Q's head (crossed
      // 0->1 at 2) is ready at 4 beside P's flit 2; it would take VC 1, which the pointer
      // reaches first: Q's head crosses at 4 on VC 1, and from then on the two VCs
      // alternate, each always having a flit (both are backed up at router 1): P's flit f
      // at 2f + 1 (f >= 2), Q's flit f at 2f + 4 up to f = F - 3 at 2F - 2, P's tail at
      // 2F - 1, then Q's last two at 2F and 2F + 1. Router 2's E output: P's head at 4,
      // flit 1 at 5; Q's head, ready at 6 beside P's flit 2, again wins (pointer past VC
      // 0): P's flit f at 2f + 3 (ready at 2f + 2), Q's flit f at 2f + 6 (ready at
      // 2f + 5) up to f = F - 3 at 2F, P's tail at 2F + 1, Q's last two at 2F + 2 and
      // 2F + 3. The ejection at 3, the same again two cycles on: P's head at 6, flit 1 at
      // 7, Q's head at 8, P's flit f at 2f + 5, so P's tail at 2F + 3 (delivered
      // 2F + 4), Q's flit f at 2f + 8 up to F - 3, its last two at 2F + 4 and 2F + 5
      // (delivered 2F + 6). With more VCs Q takes VC 1 all the same, and the pointer
      // past VC 0 reaches VC 1 first, past VC 1 VC 0: the same cycles.
      checks.push_back({1, s1, a + 2 * F + 4, "1->3 (wins link 1->2, then shares it)"});
      checks.push_back({0, s0, a + 2 * F + 6, "0->3 (interleaves on VC 1)"});
    }
  } else if (o.scenario == "arbitration") {
    bad = require(g == 1 && sh.rows == 4 && sh.cols == 4 && st.depth >= r + 2,
                  "arbitration needs --inject-gap 1, --depth >= r + 2 and --mesh 4x4");
    if (bad.empty()) {
      bad = require(st.vcs == 1 || st.vcs == 4,
                    "arbitration's golden counts are derived for --vcs 1 and --vcs 4");
    }
    const std::uint64_t e = a + 2 + 2 * r;
    const unsigned order[] = {4, 6, 1, 5};  // inputs E, W, S, local
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned src = order[k];
      const std::uint64_t at = src == 5 ? r + 1 : 0;
      const unsigned s = b.post(src, 13, o.flits, 0, at);
      // One VC: each worm keeps the output from the next head until its tail has
      // crossed, so the k-th in that order crosses at e + kF, then streams.
      // Four VCs: the four heads cross at e + k, the header candidate's VC being the
      // one the flit pointer reaches first (past the VC just served); then the pointer
      // serves the worms in turn, each with a flit waiting at router 5. Downstream each
      // worm's flit f arrives at e + 4f + k + 1 and, a head r cycles later, keeps its
      // turn: e + 4f + k + (r + 1) at router 9's south output, + 2(r + 1) at the
      // ejection at 13.
      const std::uint64_t done =
          st.vcs == 1 ? e + k * F + 2 * (r + 1) + F : e + 4 * F - 3 + k + 2 * (r + 1);
      checks.push_back({src, s, done - at,
                        std::to_string(src) + "->13, grant " + std::to_string(k + 1) +
                            " at router 5's south output"});
    }
  } else if (o.scenario == "vc_share") {
    // r = 1, g = 2, V = 2. Lone worm, T its start: the head crosses channel k at T + 2k;
    // body flit f crosses it at T + max(2f + k, 2k + f) (paced by the NI, or catching up
    // with the head one cycle per flit). B = 1->3 (channels: injection, 1->2, 2->3,
    // ejection) alone has its tail on the ejection at 2(F - 1) + 3: lone time 2F + 2.
    // A crossing at c may leave the next FIFO at c + 1, a head at c + 2.
    // Link 1->2: B's head at 2, flit 1 at 3 (pointer past VC 0). A = 0->3's head crossed
    // 0->1 at 2 and is ready at 4, when no flit of B is (B's flits come at odd cycles
    // 2f + 1): A takes VC 1 at 4. A's flit 1 is ready at 5 together with B's flit 2;
    // the pointer, past VC 1, starts at VC 0, so B goes, and so on: B's flit f at 2f + 1,
    // A's flit f at 2f + 4 up to f = F - 3 at 2F - 2, B's tail at 2F - 1, A's last two
    // at 2F and 2F + 1.
    // Link 2->3: B's head at 4, flit 1 at 5 (pointer past VC 0). A's head, ready at 6
    // beside B's flit 2, would take VC 1, which the pointer reaches first: A's head at 6.
    // Then the VCs alternate: B's flit f at 2f + 3 (ready at 2f + 2), A's flit f at
    // 2f + 6 (ready at 2f + 5) up to F - 3 at 2F, B's tail at 2F + 1, A's last two at
    // 2F + 2 and 2F + 3.
    // The ejection: the same two cycles on: B's head at 6, flit 1 at 7, A's head at 8,
    // B's flit f at 2f + 5, its tail at 2F + 3 (delivered 2F + 4), A's flit f at 2f + 8
    // up to F - 3, its last two at 2F + 4 and 2F + 5 (delivered 2F + 6), where alone it
    // would be max(8 + F - 1, 2(F - 1) + 4) + 1 = 2F + 3.
    bad = require(r == 1 && g == 2 && st.vcs == 2 && F >= 5 && sh.cols >= 4 && st.depth >= 3,
                  "vc_share needs --router-delay 1 --inject-gap 2 --vcs 2 --depth >= 3, "
                  "--flits >= 5 and 4 columns");
    const unsigned sa = b.post(0, 3, o.flits, 0, 0);
    const unsigned sb = b.post(1, 3, o.flits, 0, 0);
    checks.push_back({1, sb, a + 2 * F + 4, "B = 1->3 (VC 0, shares from link 2->3 on)"});
    checks.push_back({0, sa, a + 2 * F + 6, "A = 0->3 (VC 1)"});
  } else if (o.scenario == "vc_alloc") {
    // r = 1, g = 2, V = 2, B = 4, all to tile 5 of a 4 x 4 mesh, taken at 0: from 4 (its
    // flits arrive on input E, VC index 0), 6 (input W, 2) and 1 (input S, 4). Each head
    // crosses its link at 2 and asks for the ejection at 4; body flit f crosses at
    // 2f + 1 and may leave router 5's FIFO from 2f + 2. Round robin grants 4's head
    // ejection VC 0 at 4, and the header pointer moves past input VC 0. At 5 the header
    // candidate is 6's head, which would take VC 1; the flit pointer, past VC 0, reaches
    // VC 1 before 4's flit 1 on VC 0, so 6's head crosses at 5. From then on both VCs
    // always have a flit and alternate: 4's flit f at 2f + 4, its tail at 2F + 2
    // (delivered 2F + 3), 6's flit f at 2f + 5, its tail at 2F + 3 (delivered 2F + 4).
    // 1's head waits for a free VC: VC 0 is free from 2F + 3, when the pointer, past VC
    // 0, serves 6's tail on VC 1 first, so it crosses at c0 = 2F + 4. Meanwhile 1's
    // flits filled router 5's FIFO (head and flits 1-3), router 1's local FIFO (flits
    // 4-7) and stopped the NI at flit 8. From c0 the ejection takes one flit a cycle, a
    // freed slot returns a cycle later: flits 1..10 leave at c0 + 1 .. c0 + 10, flit 11
    // at c0 + 11, and from flit 12 on the NI's pace shows: flit k at c0 + 2k - 12. The
    // tail (F - 1 >= 12) at c0 + 2F - 14, delivered 4F - 9.
    bad = require(
        r == 1 && g == 2 && st.vcs == 2 && st.depth == 4 && F >= 13 && sh.rows == 4 && sh.cols == 4,
        "vc_alloc needs --router-delay 1 --inject-gap 2 --vcs 2 --depth 4, "
        "--flits >= 13 and --mesh 4x4");
    const unsigned s4 = b.post(4, 5, o.flits, 0, 0);
    const unsigned s6 = b.post(6, 5, o.flits, 0, 0);
    const unsigned s1 = b.post(1, 5, o.flits, 0, 0);
    checks.push_back({4, s4, a + 2 * F + 3, "4->5 (ejection VC 0 first)"});
    checks.push_back({6, s6, a + 2 * F + 4, "6->5 (ejection VC 1 at 5)"});
    checks.push_back({1, s1, a + 4 * F - 9, "1->5 (waits for a free VC)"});
  } else if (o.scenario == "file") {
    std::vector<file_message> msgs;
    try {
      msgs = read_stimulus(o.stimulus, sh.tiles());
    } catch (const tessera::input_error& e) {
      std::cerr << "tb_mesh: " << e.what() << '\n';
      return exit_usage;
    }
    for (const file_message& m : msgs) {
      const unsigned s = b.post(m.src, m.dst, m.flits, m.packet_flits, m.at);
      if (m.want) checks.push_back({m.src, s, *m.want, m.what});
    }
  } else if (o.scenario == "random") {
    std::mt19937_64 rng(o.seed);
    for (unsigned n = 0; n < o.count; ++n) {
      const auto src = static_cast<unsigned>(rng() % sh.tiles());
      auto dst = static_cast<unsigned>(rng() % (sh.tiles() - 1));
      if (dst >= src) ++dst;
      const auto flits = static_cast<unsigned>(1 + rng() % 24);
      const auto per = static_cast<unsigned>(rng() % 9);  // 0: one packet
      b.post(src, dst, flits, per, o.window == 0 ? 0 : rng() % o.window);
    }
  } else {
    std::cerr << "tb_mesh: unknown scenario '" << o.scenario << "'\n";
    return exit_usage;
  }
  if (!bad.empty()) {
    std::cerr << "tb_mesh: " << bad << '\n';
    return exit_usage;
  }

  bool ok = b.run();
  std::uint64_t latest = 0;
  if (ok) ok = check_all(b, checks, latest);
  std::cout << "tb_mesh " << o.scenario << " (" << Dut::name << ") on " << sh.rows << "x" << sh.cols
            << ": " << b.messages() << " messages (" << b.packets() << " packets, "
            << b.flits_moved() << " flit hops) in " << b.now() << " cycles, alpha " << st.alpha
            << " r " << r << " g " << g << " vcs " << st.vcs << " depth " << st.depth << " F "
            << o.flits << "; " << checks.size() << " timed, longest " << latest
            << " cycles: " << (ok ? "PASS" : "FAIL") << '\n';
  return ok ? exit_pass : exit_fail;
}

}  // namespace

static int testbench(int argc, char* argv[]) {
  options o;
  const std::string timeout = std::to_string(default_timeout);
  const testbench_info info{"tb_mesh", usage, timeout};
  if (const auto stop = parse_command_line(
          argc, argv, info, o,
          [&](std::string_view a, std::string_view v) { return own_option(o, a, v); }))
    return *stop;
  if (const std::string e = consistent(o); !e.empty()) {
    std::cerr << "tb_mesh: " << e << '\n';
    return exit_usage;
  }
  if (o.model == "4x4_vc4") return run<mesh_top_4x4_vc4>(o);
#if TESSERA_RTL_MESH_8X8
  if (o.model == "8x8_vc4") return run<mesh_top_8x8_vc4>(o);
  return run<mesh_top_8x8>(o);
#else
  std::cerr << "tb_mesh: this build has no " << o.model << " model (TESSERA_RTL_ONLY)\n";
  return exit_usage;
#endif
}

int main(int argc, char* argv[]) {
  return finish(argc, argv, testbench(argc, argv));
}
