// The wormhole mesh through the Verilated tsr_mesh_top (docs/rtl.md, "The RTL as a
// model"). An R x C mesh runs in the top-left corner of a Verilated model, where XY
// routing keeps every flit; the other tiles stay idle. So does an R x C torus, on a
// model built with the wraparound links (wrap_i closes its rings there).
//
// Timing follows the fabric module's protocol (clocked_bridge.hpp). A message is offered
// to its NI from the cycle it is posted, and it has started in the cycle the NI takes it
// (msg_ready). A message is delivered the cycle after the tail flit of its last packet
// left the ejection port, as tb_mesh counts it, and fire(t) reports it. The NIs are
// driven, the ejection ports read and every flit checked by the tops' mesh driver,
// monitor and check (rtl_models/tops), which tb_mesh uses too.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <verilated.h>

#include "clocked_bridge.hpp"
#include "fabric_engines.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/rtl_engines/tlm2rtl.hpp"
#include "tessera/rtl_tops/coverage.hpp"
#include "tessera/rtl_tops/mesh_check.hpp"
#include "tessera/rtl_tops/mesh_ni.hpp"
#include "tessera/rtl_tops/mesh_top.hpp"

namespace tessera::rtl_engines {
namespace {

using net::cycle_t;
using rtl_tops::mesh_shape;

template <class Top>
class rtl_mesh_engine final : public clocked_bridge {
  using model_t = typename Top::model;
  static constexpr unsigned in_vcs = rtl_tops::mesh_ports * Top::vcs;

 public:
  rtl_mesh_engine(const fabric& f, const net::wormhole_params& p)
      : shape_{f.rows, f.cols, Top::cols, f.kind == fabric_kind::torus},
        ctx_(std::make_unique<VerilatedContext>()),
        model_(make_model(*ctx_)),
        drv_(*model_, shape_),
        mon_(*model_, shape_),  // ejection never refused
        // In order where one path and one VC keep it: xy or yx with one VC.
        check_(shape_.tiles(), p.vcs, p.vcs == 1 && net::oblivious(p.routing)),
        stall_run_(std::size_t{shape_.tiles()} * in_vcs, 0),
        vcs_(p.vcs),
        out_vc_(std::size_t{shape_.tiles()} * rtl_tops::mesh_ports * Top::vcs),
        in_vc_(std::size_t{shape_.tiles()} * Top::vcs),
        stalls_(std::size_t{shape_.tiles()} * in_vcs) {
    rtl_tops::mesh_settings s;
    s.alpha = static_cast<unsigned>(p.alpha);
    s.inject_gap = p.inject_gap;
    s.router_delay = p.router_delay;
    s.pipeline = p.pipeline;
    s.credit_delay = p.credit_delay;
    s.vcs = p.vcs;
    s.depth = p.buffer;
    s.routing = static_cast<unsigned>(p.routing);
    s.wrap = shape_.wrap;
    s.rows = f.rows;
    s.cols = f.cols;
    rtl_tops::apply(*model_, s);
    reset(*model_);
    // An idle RTL is unchanged once the last credit is back and the NIs' gap counters
    // have run out: after r + p + d + g + 16 quiet cycles.
    quiet_needed_ = std::uint64_t{p.router_delay} + p.pipeline + p.credit_delay + p.inject_gap + 16;
    // No flit moved and no message taken for this long while something is in flight:
    // the RTL is wedged (a lone wait is at most alpha + g + r cycles).
    watchdog_ = p.alpha + p.inject_gap + p.router_delay + p.pipeline + p.credit_delay + 10000;
  }
  ~rtl_mesh_engine() override { model_->final(); }
  rtl_mesh_engine(const rtl_mesh_engine&) = delete;
  rtl_mesh_engine& operator=(const rtl_mesh_engine&) = delete;

  void inject(const net::xfer& x, cycle_t now) override {
    if (x.src >= shape_.tiles() || x.dst >= shape_.tiles()) {
      throw input_error("rtl mesh: message " + std::to_string(x.id) + " tile " +
                        std::to_string(std::max(x.src, x.dst)) + " is outside the " +
                        (shape_.wrap ? "torus" : "mesh"));
    }
    // A flit stands for `width` bytes, as in the wormhole engine; the RTL's 32-bit flit
    // carries the bridge's check word (the NICs carry and check the bytes themselves).
    const std::uint64_t flits = x.bytes == 0 ? 1 : (x.bytes + width_ - 1) / width_;
    if (flits > Top::limits.max_flits) {
      throw input_error("rtl mesh: a message of " + std::to_string(x.bytes) + " bytes is " +
                        std::to_string(flits) + " flits; the RTL NI takes at most " +
                        std::to_string(Top::limits.max_flits) + " flits a message");
    }
    message m;
    m.id = x.id;
    m.src = x.src;
    m.dst = x.dst;
    m.flits = static_cast<std::uint32_t>(flits);
    m.packet_flits = static_cast<std::uint32_t>(packet_flits_);
    m.seq = check_.add(x.id, m.src, m.dst, m.flits, m.packet_flits);
    // Offered from the cycle it is posted: step(true) runs no earlier.
    drv_.send(rtl_tops::mesh_message{x.id, m.src, m.dst, m.seq, m.flits, m.packet_flits, 0});
    msgs_.emplace(x.id, m);
    (void)now;
  }

  // As the flit engine counts them (docs/wormhole.md, "Statistics"): busy = cycles from
  // each head's crossing to its tail's, summed over the VCs; messages = packets; per VC
  // flits, busy and the stall cycles of the FIFO the channel feeds, by cause.
  [[nodiscard]] std::vector<net::link_stat> links() const override {
    static constexpr const char* names[] = {"E", "W", "S", "N"};
    std::vector<net::link_stat> out;
    // Channel rows from per-VC counters and the FIFO behind the channel (fifo: tile *
    // in_vcs + port * VCs, or none).
    const auto row = [&](unsigned from, unsigned to, const char* name, const channel_vc* vc,
                         const stall_count* fifo) {
      net::link_stat s;
      s.from = from;
      s.to = to;
      s.name = name;
      for (unsigned v = 0; v < vcs_; ++v) {
        net::vc_stat x;
        x.flits = vc[v].flits;
        x.busy = vc[v].busy;
        if (fifo != nullptr) {
          x.no_credit = fifo[v].no_credit;
          x.arbitration = fifo[v].arbitration;
          x.no_vc = fifo[v].no_vc;
        }
        s.busy += x.busy;
        s.messages += vc[v].packets;
        s.units += x.flits;
        s.vcs.push_back(x);
      }
      out.push_back(std::move(s));
    };
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      for (unsigned port = 0; port < 4; ++port) {
        const std::size_t k = std::size_t{t} * rtl_tops::mesh_ports + port;
        if (!carried(k)) continue;
        const unsigned to = neighbour(t, port);
        row(t, to, names[port], &out_vc_[k * Top::vcs],
            &stalls_[std::size_t{to} * in_vcs + port * Top::vcs]);
      }
    }
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      if (drv_.flits_in(t) != 0) {
        row(t, t, "inject", &in_vc_[std::size_t{t} * Top::vcs],
            &stalls_[std::size_t{t} * in_vcs + rtl_tops::mesh_local * Top::vcs]);
      }
      const std::size_t k = std::size_t{t} * rtl_tops::mesh_ports + rtl_tops::mesh_local;
      if (carried(k)) row(t, t, "eject", &out_vc_[k * Top::vcs], nullptr);
    }
    return out;
  }

  // From the channels' flits and packets, which the design's own handshakes counted
  // (link_valid_o, inject_valid_o, rx_valid_o), by the wormhole rule of net/energy.hpp.
  [[nodiscard]] net::energy_counts energy() const override {
    return net::channel_energy(net::energy_rule::wormhole, shape_.tiles(), width_, links());
  }

  [[nodiscard]] net::contention_stat contention() const override { return contention_; }

  [[nodiscard]] std::vector<std::string> stuck() const override {
    return owed_messages(
        msgs_, [](const message& m) { return std::to_string(m.flits) + " flits"; },
        [&](std::uint64_t id, const message&) {
          return std::to_string(check_.left(id)) + " of " + std::to_string(check_.packets(id)) +
                 " packets not yet out of the RTL";
        });
  }

  [[nodiscard]] std::string failure() const override {
    if (!failure_.empty()) return failure_;
    return check_.failure().empty() ? std::string{} : "rtl: " + check_.failure();
  }

  void set_flits(std::uint32_t width, std::uint64_t packet_flits) {
    width_ = width;
    packet_flits_ = packet_flits;
  }

 protected:
  [[nodiscard]] bool failed() const override {
    return !failure_.empty() || !check_.failure().empty();
  }
  [[nodiscard]] bool busy() const override { return !msgs_.empty(); }
  void deliver(std::uint64_t id, cycle_t t) override {
    msgs_.erase(id);
    check_.remove(id);
    --in_rtl_;
    if (listener_ != nullptr) listener_->delivered(id, t);
  }

 private:
  struct message {
    std::uint64_t id{0};
    std::uint32_t src{0};
    std::uint32_t dst{0};
    std::uint32_t flits{1};
    std::uint32_t packet_flits{0};  // 0: one packet
    std::uint32_t seq{0};           // its number at the source, in its flits' words
    bool taken{false};
  };
  [[nodiscard]] unsigned neighbour(unsigned t, unsigned port) const {
    return shape_.neighbour(t, port);
  }
  static std::unique_ptr<model_t> make_model(VerilatedContext& ctx) {
    ctx.randReset(0);
    return std::make_unique<model_t>(&ctx, "mesh");
  }

  void record_links(bool on) override {
    recording_ = on;
    clocked_bridge::record_links(on);
    if (on) worms_.assign(std::size_t{shape_.tiles()} * 4 * Top::vcs, worm_on_link{});
  }

  // The timeline's link intervals: a worm holds a VC of a link from the cycle its head
  // flit crosses to the cycle its tail does, as net::wormhole_engine records them.
  void note_worms(unsigned t, unsigned phys, unsigned crossed, cycle_t now) {
    const model_t& m = *model_;
    for (unsigned port = 0; port < 4; ++port) {
      if ((crossed >> port & 1U) == 0) continue;
      const unsigned k = phys * rtl_tops::mesh_ports + port;  // the model's output
      const rtl_tops::mesh_ctl c(rtl_tops::lane<32>(m.link_ctl_o, k));
      if (c.vc >= Top::vcs) continue;  // not reached: the RTL's VCs are 0..VCs-1
      worm_on_link& w = worms_[(std::size_t{t} * 4 + port) * Top::vcs + c.vc];
      if (c.head) {
        w.open = true;
        w.start = now;
        w.x.src = shape_.at(c.src_row, c.src_col);
        w.x.dst = shape_.at(c.dst_row, c.dst_col);
      }
      if (c.tail && w.open) {
        note_link(t, neighbour(t, port), port, w.start, now + 1, w.x);
        w.open = false;
      }
    }
  }

  // One RTL cycle: drive the NIs (with the queued messages when offer), settle, sample
  // the handshakes and the ejected flits, then the rising edge.
  void step(bool offer) override {
    model_t& m = *model_;
    const cycle_t now = rtl_time();
    drv_.drive(now, offer);
    m.eval();

    bool moved = drv_.sample(now, [&](const rtl_tops::mesh_message& msg, cycle_t at) {
      msgs_.at(msg.id).taken = true;
      ++in_rtl_;
      if (listener_ != nullptr) listener_->started(msg.id, at);
    });
    if (!drv_.error().empty()) fail(drv_.error());
    // The flits on the ejection ports, checked against the messages.
    moved |= mon_.sample([&](unsigned tile, const rtl_tops::mesh_flit& f) {
      std::uint64_t done = 0;
      if (check_.eject(tile, f, done)) due_.emplace(now + 1, done);
    });
    count_injection(now);
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned p = shape_.phys(t);
      const auto crossed =
          static_cast<unsigned>(rtl_tops::lane<rtl_tops::mesh_ports>(m.link_valid_o, p));
      if (crossed != 0) {
        moved = true;
        count_vcs(t, p, crossed, now);
        if (recording_) note_worms(t, p, crossed, now);
      }
      count_stalls(t, p);
      const std::uint64_t stalled = rtl_tops::lane<in_vcs>(m.stall_o, p);
      for (unsigned i = 0; i < in_vcs; ++i) {
        std::uint64_t& run = stall_run_[std::size_t{t} * in_vcs + i];
        if ((stalled >> i & 1U) != 0) {
          if (run == 0) ++contention_.blocked;
          ++run;
          ++contention_.blocked_cycles;
          contention_.max_blocked = std::max(contention_.max_blocked, run);
        } else {
          run = 0;
        }
      }
    }
    rising_edge(m);
    if (account(in_rtl_ > 0 || (offer && busy()), moved)) watchdog_expired("mesh", "flit", now, 3);
  }

  // Per channel VC: flits, packets, busy cycles (head to tail), the open packet's head.
  struct channel_vc {
    std::uint64_t flits{0};
    std::uint64_t packets{0};
    cycle_t busy{0};
    cycle_t head_at{0};
    void cross(bool head, bool tail, cycle_t now) {
      ++flits;
      if (head) {
        ++packets;
        head_at = now;
      }
      if (tail) busy += now - head_at + 1;
    }
  };
  // Output k (tile * mesh_ports + port) carried a flit on some VC.
  [[nodiscard]] bool carried(std::size_t k) const {
    for (unsigned v = 0; v < Top::vcs; ++v)
      if (out_vc_[k * Top::vcs + v].flits != 0) return true;
    return false;
  }
  // Per input VC FIFO: its stall cycles by cause (tsr_pkg MeshStall*).
  struct stall_count {
    cycle_t no_credit{0};
    cycle_t arbitration{0};
    cycle_t no_vc{0};
  };

  // The per-VC statistics of one cycle: the flits on every channel and the causes of the
  // ready flits that waited.
  void count_vcs(unsigned t, unsigned p, unsigned crossed, cycle_t now) {
    const model_t& m = *model_;
    for (unsigned port = 0; port < rtl_tops::mesh_ports; ++port) {
      if ((crossed >> port & 1U) == 0) continue;
      const unsigned k = p * rtl_tops::mesh_ports + port;  // the model's output
      const rtl_tops::mesh_ctl c(rtl_tops::lane<32>(m.link_ctl_o, k));
      if (c.vc >= Top::vcs) continue;  // not reached: the RTL's VCs are 0..VCs-1
      out_vc_[(std::size_t{t} * rtl_tops::mesh_ports + port) * Top::vcs + c.vc].cross(c.head,
                                                                                      c.tail, now);
    }
  }
  void count_stalls(unsigned t, unsigned p) {
    const std::uint64_t causes = rtl_tops::lane<2 * in_vcs>(model_->stall_cause_o, p);
    if (causes == 0) return;
    for (unsigned i = 0; i < in_vcs; ++i) {
      stall_count& s = stalls_[std::size_t{t} * in_vcs + i];
      switch (causes >> (2 * i) & 3U) {
        case 1:
          ++s.no_credit;
          break;
        case 2:
          ++s.arbitration;
          break;
        case 3:
          ++s.no_vc;
          break;
        default:
          break;
      }
    }
  }
  void count_injection(cycle_t now) {
    const model_t& m = *model_;
    const std::uint64_t valid = rtl_tops::mask(m.inject_valid_o);
    if (valid == 0) return;
    for (unsigned t = 0; t < shape_.tiles(); ++t) {
      const unsigned p = shape_.phys(t);
      if ((valid >> p & 1U) == 0) continue;
      const rtl_tops::mesh_ctl c(rtl_tops::lane<32>(m.inject_ctl_o, p));
      if (c.vc >= Top::vcs) continue;
      in_vc_[std::size_t{t} * Top::vcs + c.vc].cross(c.head, c.tail, now);
    }
  }

  struct worm_on_link {
    bool open{false};
    cycle_t start{0};
    net::xfer x;  // its source and destination
  };

  mesh_shape shape_;
  std::uint32_t width_{4};
  std::uint64_t packet_flits_{0};
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<model_t> model_;
  rtl_tops::coverage_dump coverage_{*ctx_};          // written before the model goes
  rtl_tops::mesh_driver<model_t> drv_;               // the tiles' messages into the NIs
  rtl_tops::mesh_monitor<model_t> mon_;              // the ejected flits
  rtl_tops::mesh_check check_;                       // what comes out of the RTL
  std::unordered_map<std::uint64_t, message> msgs_;  // by id: posted, not yet delivered
  std::vector<std::uint64_t> stall_run_;             // per tile and input VC
  unsigned vcs_;                                     // VCs in use
  std::vector<channel_vc> out_vc_;                   // per tile, output port and VC
  std::vector<channel_vc> in_vc_;                    // per tile and VC: the injection channel
  std::vector<stall_count> stalls_;                  // per tile and input VC
  net::contention_stat contention_{};
  std::uint64_t in_rtl_{0};  // messages taken by an NI and not yet delivered
  bool recording_{false};
  std::vector<worm_on_link> worms_;  // per tile, link port and VC, while recording
};

template <class Top>
std::unique_ptr<net::engine> make_mesh(const fabric& f, const net::wormhole_params& p) {
  auto e = std::make_unique<rtl_mesh_engine<Top>>(f, p);
  e->set_flits(p.width, p.packet_bytes / p.width);
  return e;
}

// The run-time ranges the refusals name are every mesh top's (mesh_top_limits).
constexpr bool same_inputs(const rtl_tops::mesh_top_limits& a, const rtl_tops::mesh_top_limits& b) {
  return a.buffer == b.buffer && a.max_router_delay == b.max_router_delay &&
         a.max_alpha == b.max_alpha && a.max_inject_gap == b.max_inject_gap &&
         a.max_flits == b.max_flits && a.min_credit_delay == b.min_credit_delay;
}
constexpr const rtl_tops::mesh_top_limits& one_vc = rtl_tops::mesh_8x8;
static_assert(rtl_tops::mesh_tops.size() == 3 && same_inputs(one_vc, rtl_tops::mesh_4x4_vc4) &&
              same_inputs(one_vc, rtl_tops::mesh_8x8_vc4));
static_assert(one_vc.vcs == 1 && one_vc.max_alpha == one_vc.max_inject_gap);

std::string size(const rtl_tops::mesh_top_limits& l) {
  return std::to_string(l.rows) + "x" + std::to_string(l.cols);
}

// Whether top l takes an R x C mesh or torus with p's VCs, pipeline and credit delay.
constexpr bool takes(const rtl_tops::mesh_top_limits& l, const fabric& f,
                     const net::wormhole_params& p) {
  return f.rows <= l.rows && f.cols <= l.cols && p.vcs <= l.vcs && p.pipeline <= l.max_pipeline &&
         p.credit_delay <= l.max_credit_delay && (f.kind == fabric_kind::mesh || l.wrap);
}

// The largest torus a top with the wraparound links takes.
constexpr const rtl_tops::mesh_top_limits& largest_torus = rtl_tops::mesh_8x8_vc4;
static_assert(largest_torus.wrap && largest_torus.rows >= rtl_tops::mesh_4x4_vc4.rows &&
              !rtl_tops::mesh_8x8.wrap);

}  // namespace

std::string mesh_configurations() {
  std::string out = "mesh: ";
  for (const rtl_tops::mesh_top_limits& l : rtl_tops::mesh_tops) {
    if (&l != &rtl_tops::mesh_tops.front())
      out += &l == &rtl_tops::mesh_tops.back() ? " and " : ", ";
    const auto range = [](unsigned hi) {
      return hi == 1 ? std::string("1") : "1.." + std::to_string(hi);
    };
    out += std::string(l.model) + " (meshes" + (l.wrap ? " and tori" : "") + " up to " + size(l) +
           ", vcs " + range(l.vcs) + ", pipeline and credit_delay " + range(l.max_pipeline) + ")";
  }
  return out + "; all buffer 1.." + std::to_string(one_vc.buffer) +
         ", full duplex, router_delay 0.." + std::to_string(one_vc.max_router_delay) +
         " with router_delay + pipeline - 1 up to " + std::to_string(one_vc.max_router_delay) +
         ", alpha and inject_gap up to " + std::to_string(one_vc.max_alpha) +
         ", messages and packet_bytes up to " + std::to_string(one_vc.max_flits) +
         " flits, packet_bytes a multiple of width";
}

bool mesh_built(const fabric& f) {
  if (f.kind == fabric_kind::torus)
    return f.rows <= largest_torus.rows && f.cols <= largest_torus.cols;
  return f.kind == fabric_kind::mesh && f.rows <= one_vc.rows && f.cols <= one_vc.cols;
}

std::unique_ptr<net::engine> make_rtl_mesh_engine(const fabric& f, const net::wormhole_params& p) {
  net::validate(p);
  const std::string built = mesh_configurations();
  const rtl_tops::mesh_top_limits& l = one_vc;
  if (f.kind != fabric_kind::mesh && f.kind != fabric_kind::torus)
    refuse("wormhole switching runs on a mesh or a torus", built);
  if (f.kind == fabric_kind::torus &&
      (p.vcs < 2 || p.share == net::vc_share::fixed ||
       (p.routing != net::mesh_routing::xy && p.routing != net::mesh_routing::yx))) {
    refuse("a wormhole torus routes xy or yx on vcs >= 2 shared round robin (dateline classes)",
           built);
  }
  // Each parameter's own range is the rtl model's limits (rtl_model.hpp), which the
  // registry checks before this runs; here what depends on several: the packets and the size.
  if (p.packet_bytes % p.width != 0 || p.packet_bytes / p.width > l.max_flits) {
    refuse("param packet_bytes " + std::to_string(p.packet_bytes) + " is not a multiple of width " +
               std::to_string(p.width) + " of at most " + std::to_string(l.max_flits) + " flits",
           built);
  }
  if (std::uint64_t{p.router_delay} + p.pipeline - 1 > l.max_router_delay) {
    refuse("param router_delay " + std::to_string(p.router_delay) + " with pipeline " +
               std::to_string(p.pipeline) + " makes a head wait " +
               std::to_string(p.router_delay + p.pipeline - 1) + " cycles, more than the " +
               std::to_string(l.max_router_delay) + " the RTL counts",
           built);
  }
  // The first top that takes the mesh (mesh_tops' order: one VC on the fast 8 x 8, VCs
  // on the 4 x 4 with assertions where it fits, else on the 8 x 8 with VCs).
  if (takes(rtl_tops::mesh_8x8, f, p)) return make_mesh<rtl_tops::mesh_top_8x8>(f, p);
  if (takes(rtl_tops::mesh_4x4_vc4, f, p)) return make_mesh<rtl_tops::mesh_top_4x4_vc4>(f, p);
  if (takes(rtl_tops::mesh_8x8_vc4, f, p)) return make_mesh<rtl_tops::mesh_top_8x8_vc4>(f, p);
  refuse(std::string(f.kind == fabric_kind::torus ? "torus:" : "mesh:") + std::to_string(f.rows) +
             "x" + std::to_string(f.cols) + " is larger than " + size(rtl_tops::mesh_8x8_vc4),
         built);
}

}  // namespace tessera::rtl_engines
