// tb_torus: Verilator testbench for rtl_models/rtl/tsr_torus_top.sv (4 x 4 and 8 x 8).
//
//   tb_torus [--size 4x4|8x8] --scenario S [--compare 1] [--family F] [--root T]
//            [--packets Q] [--bytes L] [--packet-bytes B] [--beta B] [--tau T] [--seed S]
//            [--count N] [--window W] [--timeout C] [--trace FILE.fst]
//
// The model is Bermond, Michallon and Trystram's ("Broadcasting in wraparound meshes with
// parallel monodirectional links", Bermond92 §1.1-2.1). Golden cycle counts
// come from it, never from the RTL: one hop of an L-byte packet holds a link for
// P = beta + tau L cycles, and a packet is complete (delivered) at a tile in the cycle
// its last hop ends; a packet written into its source node at cycle w (the NI writes a
// whole packet in one cycle, in the cycle the message is posted when it is idle) is
// complete h hops away at w + h P.
//   hops:   a packet over h hops arrives h P after it is written at its source;
//   lone:   from two sources to every other tile, one message at a time, of
//           --packets q packets of L bytes: delivered (h + q - 1) P after it is posted;
//   ports:  a tile's four packets to its four neighbours (written in cycles 0..3), and
//           its four neighbours' packets to it, each arrive P after they are written
//           (all ports at once);
//   contention: four packets meet at one output, and bursts meet at one output and at
//           one ejection port (derivation in build_contention);
//   bcast:  on the trees of a family (firmware trees.hpp, multicast tree tables), packet
//           j of a tree reaches a tile at depth k exactly (k + j) P after the tree's
//           first packet is written at the root, so the last of q takes (h + q - 1) P;
//           Saad-Schultz's fill-in packet j reaches line depth k at (q + k + j) P;
//   forward: the same trees run by the tiles: a tile that receives packet j of a tree
//           posts it to each of its children, one-hop unicast messages, in that cycle;
//   random: unicast messages of 1..96 bytes between random tiles, cut into packets of at
//           most --packet-bytes, all arrive once, in order per source, bytes intact;
//   transpose: tile (r, c) sends --count messages to tile (c, r);
//   flood:  a deliberately broken forwarding table floods the torus; the run must end in
//           the deadlock report (ctest checks its text).
// With --compare 1 the same messages (post cycles, sizes, packets, tree tables) also run
// through the TLM engine net::torus_engine with buffers = Buffers, and every packet's
// arrival cycle at every tile, hence every message's delivery cycle, must be equal.
// Exit 0 on pass, 1 on a failed check, a disagreement, a deadlock (the packets owed and
// what every stuck input waits for) or a timeout (the undelivered packets named),
// 2 on bad arguments. The cycles run in the shared loop (tb/common/run_loop.hpp).
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "../common/run_loop.hpp"
#include "../common/sim_control.hpp"
#include "../common/tb_main.hpp"
#include "tessera/rtl_tops/torus_check.hpp"
#include "tessera/rtl_tops/torus_ni.hpp"
#include "tessera/rtl_tops/torus_top.hpp"
#include "torus_compare.hpp"
#include "torus_scenarios.hpp"

namespace {

using namespace tessera::tb;
using namespace tessera::tb::torus;
using namespace tessera::rtl_tops;

std::string own_option(options& o, std::string_view a, std::string_view v) {
  std::uint64_t n = 0;
  const bool num = parse_number(v, n);
  if (a == "--scenario") {
    o.scenario = v;
  } else if (a == "--size") {
    o.size = v;
  } else if (a == "--family") {
    o.family = v;
  } else if (!num) {
    return "bad value for " + std::string(a) + ": '" + std::string(v) + "'";
  } else if (a == "--compare") {
    o.compare = n != 0;
  } else if (a == "--window") {
    o.window = n;
  } else {
    const std::pair<std::string_view, unsigned*> counts[] = {
        {"--root", &o.root},  {"--packets", &o.packets},           {"--bytes", &o.bytes},
        {"--beta", &o.beta},  {"--packet-bytes", &o.packet_bytes}, {"--tau", &o.tau},
        {"--count", &o.count}};
    for (const auto& [name, field] : counts) {
      if (a != name) continue;
      *field = static_cast<unsigned>(n);
      return {};
    }
    return "unknown option " + std::string(a);
  }
  return {};
}

// What the options say together, once all are read.
std::string consistent(const options& o) {
  if (o.size != "4x4" && o.size != "8x8") return "--size must be 4x4 or 8x8";
  const torus_top_limits& l = torus_4x4;  // every torus top's ranges (torus_top.hpp)
  const std::string bytes = "1.." + std::to_string(torus_max_bytes);
  if (o.bytes < 1 || o.bytes > torus_max_bytes) return "--bytes must be " + bytes;
  if (o.packet_bytes < 1 || o.packet_bytes > torus_max_bytes)
    return "--packet-bytes must be " + bytes;
  if (o.beta < l.min_beta || o.beta > l.max_beta || o.tau < l.min_tau || o.tau > l.max_tau)
    return "--beta must be " + std::to_string(l.min_beta) + ".." + std::to_string(l.max_beta) +
           " and --tau " + std::to_string(l.min_tau) + ".." + std::to_string(l.max_tau);
  if (o.packets < 1) return "--packets must be at least 1";
  return {};
}

// The cycle each packet arrived (was complete) at each tile, as the tops' torus monitor
// reports it: what the golden checks and the engine comparison read. The check of what
// arrives (once, intact, in order) is the tops' torus_check.
class torus_record {
 public:
  void arrived(unsigned tile, const torus_hdr& h, std::uint64_t at) {
    arrival_.emplace(arrival_key{tile, h.src, h.seq}, at);
  }
  // The arrival cycle of (tile, src, seq), or -1.
  std::int64_t arrival(unsigned tile, unsigned src, unsigned seq) const {
    const auto it = arrival_.find({tile, src, seq});
    return it == arrival_.end() ? -1 : static_cast<std::int64_t>(it->second);
  }
  const std::map<arrival_key, std::uint64_t>& arrivals() const { return arrival_; }

 private:
  std::map<arrival_key, std::uint64_t> arrival_;
};

template <class Dut>
int run(const options& o) {
  using model_t = typename Dut::model;
  builder<Dut> b(o);
  if (o.root >= Dut::tiles) {
    std::cerr << "tb_torus: --root must be a tile 0.." << Dut::tiles - 1 << '\n';
    return exit_usage;
  }
  scenario sc;
  std::string err;
  if (o.scenario == "hops")
    err = b.hops(sc);
  else if (o.scenario == "lone")
    err = b.lone(sc);
  else if (o.scenario == "ports")
    err = b.ports(sc);
  else if (o.scenario == "contention")
    err = b.contention(sc);
  else if (o.scenario == "bcast")
    err = b.bcast(sc);
  else if (o.scenario == "forward")
    err = b.forward(sc);
  else if (o.scenario == "random")
    err = b.random(sc, false);
  else if (o.scenario == "transpose")
    err = b.random(sc, true);
  else if (o.scenario == "flood")
    err = b.flood(sc);
  else
    err = "unknown scenario '" + o.scenario + "'";
  if (!err.empty()) {
    std::cerr << "tb_torus: " << err << '\n';
    return exit_usage;
  }
  if (o.compare && o.scenario == "flood") {
    std::cerr << "tb_torus: flood deadlocks by design; it has no comparison\n";
    return exit_usage;
  }
  const std::uint64_t P = b.P;

  if (!Dut::traced && !o.trace_path.empty()) {
    std::cerr << "tb_torus: the " << Dut::size << " model is built without tracing\n";
    return exit_usage;
  }
  const auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(!o.trace_path.empty());
  const auto model = std::make_unique<model_t>(ctx.get(), "torus");
  sim_control<model_t> sim(*ctx, *model);
#if TESSERA_RTL_TRACE_FST
  if constexpr (Dut::traced) {
    if (!o.trace_path.empty()) sim.open_trace(o.trace_path);
  }
#endif
  torus_driver<Dut> drv(*model);
  torus_monitor<Dut> mon(*model);
  torus_check packets(Dut::tiles, true);
  torus_record sb;
  std::map<std::uint64_t, std::uint64_t> ready;  // src * 65536 + seq -> cycle written
  numbering num;
  std::vector<plan_msg> posted;
  std::vector<std::vector<unsigned>> owed_to;  // per posted message: the tiles it is for
  std::map<std::pair<unsigned, unsigned>, std::size_t> by_packet;  // (src, seq) -> posted

  const auto post = [&](plan_msg m) {
    num.assign(m);
    torus_message msg;
    msg.id = posted.size();
    msg.src = m.src;
    msg.dst = m.dst;
    msg.multicast = m.multicast;
    msg.tree = m.tree;
    msg.seq = static_cast<std::uint16_t>(m.seq);
    msg.len = m.bytes;
    msg.packet_bytes = m.packet_bytes;
    msg.post = m.post;
    for (unsigned j = 0; j < packets_of(m); ++j)
      by_packet[{m.src, m.seq + j}] = posted.size();
    // flood: owed to tile 5, never delivered.
    owed_to.push_back(o.scenario == "flood" ? std::vector<unsigned>{5} : destinations(m, sc, b.f));
    drv.send(msg);
    posted.push_back(m);
  };

  model->beta_i = static_cast<std::uint16_t>(o.beta);
  model->tau_i = static_cast<std::uint8_t>(o.tau);
  sim.reset();
  for (const auto& [tile, tree, mask] : sc.table) {
    model->tbl_we_i = 1;
    model->tbl_tile_i = static_cast<std::uint16_t>(tile);
    model->tbl_tree_i = static_cast<std::uint8_t>(tree);
    model->tbl_mask_i = static_cast<std::uint8_t>(mask);
    sim.edge();
  }
  model->tbl_we_i = 0;
  std::uint64_t timeout = o.timeout.value_or(default_timeout);
  {
    std::vector<plan_msg> msgs = sc.msgs;
    std::stable_sort(msgs.begin(), msgs.end(),
                     [](const plan_msg& x, const plan_msg& y) { return x.post < y.post; });
    if (!msgs.empty()) timeout += msgs.back().post;
    for (const plan_msg& m : msgs)
      post(m);
  }

  // run_loop's hooks. Progress: a packet complete at any tile, or written by an NI.
  struct hooks {
    const scenario& sc;
    model_t& model;
    torus_driver<Dut>& drv;
    torus_monitor<Dut>& mon;
    torus_check& packets;
    torus_record& sb;
    decltype(post)& post_message;
    const std::vector<plan_msg>& posted;
    const std::vector<std::vector<unsigned>>& owed_to;
    const std::map<std::pair<unsigned, unsigned>, std::size_t>& by_packet;
    std::map<std::uint64_t, std::uint64_t>& ready;
    std::vector<std::pair<unsigned, torus_hdr>> fresh;  // this cycle's arrivals: tile, packet
    bool moved = false;

    void arrived(unsigned tile, const torus_hdr& h, std::uint64_t at) {
      packets.arrive(tile, h, at);
      sb.arrived(tile, h, at);
      fresh.emplace_back(tile, h);
      moved = true;
    }
    // The link inputs' arrivals of this cycle come first: forward posts in the cycle a
    // packet arrives.
    void drive(std::uint64_t now) {
      fresh.clear();
      mon.links(now, [&](unsigned t, unsigned, const torus_hdr& h, std::uint64_t at) {
        arrived(t, h, at);
      });
      if (!sc.children.empty()) {
        std::vector<std::tuple<unsigned, unsigned, unsigned>> got;
        for (const auto& [tile, h] : fresh) {
          const plan_msg& m = posted[by_packet.at({h.src, h.seq})];
          got.emplace_back(tile, m.stream, m.index);
        }
        for (const plan_msg& m : reactions(sc, got, now))
          post_message(m);
      }
      drv.drive(now);
    }
    bool sample(std::uint64_t now) {
      drv.sample(
          now, [](const torus_message&) {},
          [&](const torus_message& msg, const torus_hdr& h, std::uint64_t at) {
            ready[h.src * 65536ULL + h.seq] = at;
            packets.sent(h.src, h.seq, msg.id, h.dst, h.len, h.multicast, owed_to[msg.id], at);
            moved = true;
          });
      mon.local(
          now,
          [&](unsigned t, unsigned, const torus_hdr& h, std::uint64_t at) { arrived(t, h, at); },
          [&](unsigned t, const link_word& w) { packets.eject(t, w, now); });
      return std::exchange(moved, false);
    }
    bool done(std::uint64_t) const { return drv.idle() && !packets.holds_packets(); }
    bool failed() const { return !packets.failure().empty() || !drv.error().empty(); }
    bool waiting_for_time(std::uint64_t now) const { return drv.waiting_for_time(now); }
    // Every input whose oldest packet is stuck (the nodes' wait_o), that packet and the
    // outputs it waits for.
    std::string deadlock_report() const {
      static constexpr const char* port_name[torus_ports] = {"E", "W", "S", "N", "local"};
      std::ostringstream os;
      os << packets.owed(4) << " waiting:";
      for (unsigned t = 0; t < Dut::tiles; ++t) {
        for (unsigned p = 0; p < torus_ports; ++p) {
          const unsigned at = t * torus_ports + p;  // the element of (tile, input)
          if (((lane<torus_ports>(model.wait_o, t) >> p) & 1U) == 0) continue;
          const torus_hdr h = get_hdr(model.wait_hdr_o, at * torus_hdr_bits);
          os << " tile " << t << " input " << port_name[p] << " holds (src " << h.src << ", seq "
             << h.seq << ", "
             << (h.multicast ? "tree " + std::to_string(h.tree) : "to " + std::to_string(h.dst))
             << "), which waits for output";
          const std::uint64_t owed = lane<torus_ports>(model.wait_ports_o, at);
          for (unsigned q = 0; q < torus_ports; ++q)
            if ((owed >> q) & 1U) os << ' ' << port_name[q];
          os << ';';
        }
      }
      return os.str();
    }
    std::string timeout_report() const { return packets.owed(4); }
  };
  hooks loop_hooks{sc,     *model,  drv,       mon,   packets, sb,   post,
                   posted, owed_to, by_packet, ready, {},      false};
  // No hop takes longer than beta + tau MaxBytes; a moving network delivers far sooner.
  const std::uint64_t stall_limit = 64 * (o.beta + std::uint64_t{o.tau} * torus_max_bytes);
  const run_outcome outcome = run_loop(sim, loop_hooks, {timeout, stall_limit, clocking::edge});
  model->final();

  for (const std::string& e : {drv.error(), packets.failure()})
    if (!e.empty()) std::cerr << "tb_torus: " << e << '\n';
  bool ok = print_verdict("tb_torus", outcome) == exit_pass;
  const bool ran = ok;  // every packet delivered once, intact: the runs can be compared
  std::uint64_t last = 0;
  for (const check& c : sc.checks) {
    if (!ran) break;
    const std::int64_t a = sb.arrival(c.tile, c.src, c.seq);
    std::uint64_t base = c.base;
    if (c.ref_key != no_ref) {
      const auto r = ready.find(c.ref_key);
      if (r == ready.end()) {
        std::cerr << "tb_torus: no write time for reference packet " << c.ref_key << '\n';
        ok = false;
        break;
      }
      base = r->second;
    }
    if (a < 0) {
      std::cerr << "tb_torus: no arrival time for tile " << c.tile << " seq " << c.seq << '\n';
      ok = false;
      break;
    }
    const std::uint64_t got = static_cast<std::uint64_t>(a) - base;
    last = std::max(last, got);
    if (got != c.want) {
      std::cerr << "tb_torus: tile " << c.tile << " packet (src " << c.src << ", seq " << c.seq
                << ") arrived after " << got << " cycles, want " << c.want << '\n';
      ok = false;
    }
  }
  std::cout << "tb_torus " << Dut::size << ' ' << o.scenario
            << (o.scenario == "bcast" || o.scenario == "forward" ? " " + o.family : "") << ": "
            << packets.delivered() << " packets delivered, beta " << o.beta << " tau " << o.tau
            << " L " << o.bytes << ", P = " << P << "; " << sc.checks.size()
            << " timed arrivals, latest " << last << " cycles, last arrival at cycle "
            << (sb.arrivals().empty() ? 0
                                      : std::max_element(sb.arrivals().begin(), sb.arrivals().end(),
                                                         [](const auto& x, const auto& y) {
                                                           return x.second < y.second;
                                                         })
                                            ->second)
            << ": " << (ok ? "PASS" : "FAIL") << '\n';
  if (!ran || !o.compare) return ok ? exit_pass : exit_fail;

  return compare_with_engine(sc, o, b.f, posted, sb.arrivals(), Dut::size, ok);
}

}  // namespace

constexpr const char* usage =
    "usage: tb_torus [--size 4x4|8x8] --scenario S [--compare 1] [--family F] [--root T]\n"
    "                [--packets Q] [--bytes L] [--packet-bytes B] [--beta B] [--tau T]\n"
    "                [--count N] [--window W] [common options]\n"
    "\n"
    "Drives the Verilated store-and-forward torus (Vtsr_torus_4x4, Vtsr_torus_8x8) and holds\n"
    "it to Bermond, Michallon and Trystram's cost beta + tau L per hop (docs/rtl.md).\n"
    "  --scenario   hops, lone, ports, contention, bcast, forward, random, transpose or flood\n"
    "  --compare 1  also run net::torus_engine on the same messages: every packet's arrival\n"
    "               cycle at every tile must be equal (a disagreement fails the run)\n"
    "  --family     bcast/forward trees: single, saad-schultz, simmen, bermond-3d2 or\n"
    "               bermond-optimal (default)\n"
    "The watchdog reports a deadlock when nothing is delivered or written for\n"
    "64 (beta + 256 tau) cycles while packets are owed.\n";

static int testbench(int argc, char* argv[]) {
  options o;
  const testbench_info info{"tb_torus", usage, "200000 after the last message posted at 0"};
  if (const auto stop = parse_command_line(
          argc, argv, info, o,
          [&](std::string_view a, std::string_view v) { return own_option(o, a, v); }))
    return *stop;
  if (const std::string e = consistent(o); !e.empty()) {
    std::cerr << "tb_torus: " << e << '\n';
    return exit_usage;
  }
  try {
#if TESSERA_RTL_TORUS_8X8
    if (o.size == "8x8") return run<torus_top_8x8>(o);
#else
    if (o.size == "8x8") {
      std::cerr << "tb_torus: this build has no 8x8 model (TESSERA_RTL_ONLY)\n";
      return exit_usage;
    }
#endif
    return run<torus_top_4x4>(o);
  } catch (const std::exception& e) {
    std::cerr << "tb_torus: " << e.what() << '\n';
    return exit_fail;
  }
}

int main(int argc, char* argv[]) {
  return finish(argc, argv, testbench(argc, argv));
}
