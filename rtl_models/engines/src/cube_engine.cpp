// The circuit-switched hypercube through the Verilated tsr_cube_top (docs/rtl.md, "The
// RTL as a model"): hypercube:D for D = 1..7 runs on Vtsr_cube_7, in the sub-cube of
// tiles 0 .. 2^D - 1, which e-cube routing never leaves (a path only crosses the
// dimensions in which its source and destination differ).
//
// Timing follows the fabric module's protocol (clocked_bridge.hpp) and the rules
// net::circuit_engine shares with the RTL (docs/tlm.md, docs/rtl.md "Circuit-switched
// hypercube"): a tile's queue front is offered to its NI from the cycle it is posted,
// with the message's start-up on the NI's per-tile xi inputs (xi and xi_held for data,
// control_xi and no held part for a control message of the message layer, xi and xi_held
// for a pairwise synchronization, net::xfer::program); the message has started in the
// cycle the NI takes it (net::circuit_engine's t0). With presetup the NIs' presetup_i is
// set and the queue front is offered while the NI still sends: the NI takes it beside
// the message it streams, as the engine's pre-setup rule says. The bridge offers every
// element in the cycle the NI asks for it (those of the oldest message taken), so
// nothing but the RTL decides when a path completes and when the tail arrives. A
// message is delivered in the cycle its tail leaves the destination's ejection port
// (E). Over one or more hops the tail reaches the ejection port from the last link's
// register, so its arrival is read after the clock edge of the cycle before, and
// fire(E) reports it before the tiles react; a message to the tile itself is reported
// from arbitrate(E), when its NI is busy through E anyway.
//
// The bridge sees messages, not their bytes. Each element carries a word computed from
// (source, sequence number, element index), and every element an ejection port hands
// out is compared with it, as is its header and its last flag: an element the RTL
// loses, repeats, corrupts, reorders or misroutes ends the run (net::engine::failure).
// The NIs are driven, the ejection ports read and every message checked by the tops'
// cube driver, monitor and check (rtl_models/tops), which tb_cube uses too.
//
// What the RTL does not have is refused (exit 2): fifo arbitration, release-retry,
// multicast, and values beyond its inputs' widths.
#include <algorithm>
#include <cstdint>
#include <deque>
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
#include "tessera/rtl_tops/cube_check.hpp"
#include "tessera/rtl_tops/cube_ni.hpp"
#include "tessera/rtl_tops/cube_top.hpp"

namespace tessera::rtl_engines {
namespace {

using net::cycle_t;

constexpr unsigned cube_eject = rtl_tops::cube_local;  // the ejection port's output index

class rtl_cube_engine final : public clocked_bridge {
  using model_t = rtl_tops::cube_model;

 public:
  rtl_cube_engine(const fabric& f, const net::circuit_params& p)
      : p_{p},
        tiles_{f.tiles()},
        dims_{f.ports()},
        ctx_(std::make_unique<VerilatedContext>()),
        model_(make_model(*ctx_)),
        drv_(*model_, tiles_),
        mon_(*model_, tiles_),
        check_(tiles_),
        next_seq_(tiles_, 0),
        res_(std::size_t{tiles_} * (dims_ + 1)),
        injected_(tiles_, 0),
        wait_run_(std::size_t{tiles_} * rtl_tops::cube_inputs, 0) {
    model_t& m = *model_;
    for (unsigned t = 0; t < rtl_tops::cube_tiles; ++t) {
      rtl_tops::set_lane<16>(m.xi_i, t, p.xi);
      rtl_tops::set_lane<16>(m.xi_held_i, t, p.xi_held);
    }
    m.tau_i = static_cast<std::uint8_t>(p.tau);
    m.presetup_i = p.presetup ? 1 : 0;
    m.arb_i = static_cast<std::uint8_t>(p.arbitration == net::circuit_arbitration::round_robin
                                            ? rtl_tops::cube_arb::round_robin
                                            : rtl_tops::cube_arb::lowest_id);
    reset(m);
    // The longest stretch in which nothing visible moves while messages are owed: a
    // start-up before the header, a header hop, or the held part of a start-up.
    watchdog_ = 2 * (std::max(p.xi, p.control_xi) + p.tau) + 1000;
    // An idle cube is unchanged once the last path is torn down, at most D + 1 cycles
    // after its tail arrived.
    quiet_needed_ = 16;
  }
  ~rtl_cube_engine() override { model_->final(); }
  rtl_cube_engine(const rtl_cube_engine&) = delete;
  rtl_cube_engine& operator=(const rtl_cube_engine&) = delete;

  void inject(const net::xfer& x, cycle_t now) override {
    (void)now;
    if (x.src >= tiles_ || x.dst >= tiles_) {
      throw input_error("rtl cube: message " + std::to_string(x.id) + " tile " +
                        std::to_string(std::max(x.src, x.dst)) + " is outside the hypercube");
    }
    if (x.tree != 0) {
      throw input_error("rtl cube: message " + std::to_string(x.id) + " is a multicast on tree " +
                        std::to_string(x.tree) + "; the bridge carries unicast messages");
    }
    const std::uint64_t k = (x.control || x.bytes == 0) ? 1 : (x.bytes + p_.width - 1) / p_.width;
    if (k > rtl_tops::cube_7.max_elements) {
      throw input_error("rtl cube: a message of " + std::to_string(x.bytes) + " bytes is " +
                        std::to_string(k) + " elements of " + std::to_string(p_.width) +
                        " bytes; the RTL NI takes at most " +
                        std::to_string(rtl_tops::cube_7.max_elements) +
                        " elements a message: give a larger --param width");
    }
    const message m{.id = x.id,
                    .src = x.src,
                    .dst = x.dst,
                    .k = static_cast<std::uint32_t>(k),
                    .layer_control = x.layer_control(),
                    .seq = next_seq_[x.src]};
    next_seq_[x.src] = static_cast<std::uint16_t>(next_seq_[x.src] + 1);
    // Offered from the cycle it is posted (step(true) runs no earlier), with the start-up
    // of its kind.
    drv_.send({.id = x.id,
               .src = m.src,
               .dst = m.dst,
               .seq = m.seq,
               .k = m.k,
               .xi = static_cast<std::uint16_t>(m.layer_control ? p_.control_xi : p_.xi),
               .xi_held = static_cast<std::uint16_t>(m.layer_control ? 0 : p_.xi_held)});
    msgs_.emplace(x.id, m);
  }

  // The cube links ("dim d") with traffic, then the ejection ports ("eject"), as
  // net::circuit_engine lists them.
  [[nodiscard]] std::vector<net::link_stat> links() const override {
    std::vector<net::link_stat> out;
    for (unsigned t = 0; t < tiles_; ++t) {
      for (unsigned d = 0; d < dims_; ++d) {
        const resource_stat& r = res_[std::size_t{t} * (dims_ + 1) + d];
        if (r.messages == 0) continue;
        out.push_back(net::link_stat{t,
                                     t ^ (1U << d),
                                     "dim " + std::to_string(d),
                                     r.busy,
                                     r.messages,
                                     r.max_queue,
                                     r.units,
                                     {}});
      }
    }
    for (unsigned t = 0; t < tiles_; ++t) {
      const resource_stat& r = res_[std::size_t{t} * (dims_ + 1) + dims_];
      if (r.messages == 0) continue;
      out.push_back(net::link_stat{t, t, "eject", r.busy, r.messages, r.max_queue, r.units, {}});
    }
    return out;
  }

  [[nodiscard]] net::energy_counts energy() const override {
    std::vector<net::link_stat> rows = links();
    for (unsigned t = 0; t < tiles_; ++t) {
      if (injected_[t] != 0)
        rows.push_back(net::link_stat{t, t, "inject", 0, 0, 0, injected_[t], {}});
    }
    return net::channel_energy(net::energy_rule::circuit, tiles_, p_.width, rows);
  }

  [[nodiscard]] net::contention_stat contention() const override { return contention_; }

  [[nodiscard]] std::vector<std::string> stuck() const override {
    std::vector<std::string> out = owed_messages(
        msgs_, [](const message& m) { return std::to_string(m.k) + " elements"; },
        [this](std::uint64_t, const message& m) {
          const rtl_tops::cube_check::message* c =
              check_.find(rtl_tops::cube_check::key(m.src, m.seq));
          if (c == nullptr || !c->set_up) return std::string("its header is setting up its path");
          return std::to_string(c->got) + " of " + std::to_string(m.k) + " elements arrived";
        });
    // Where the RTL's headers wait: the output each wants and the circuit holding it.
    const model_t& mm = *model_;
    for (unsigned t = 0; t < tiles_ && out.size() < 32; ++t) {
      for (unsigned in = 0; in < rtl_tops::cube_inputs; ++in) {
        const unsigned at = t * rtl_tops::cube_inputs + in;
        if (rtl_tops::lane<1>(mm.wait_o, at) == 0) continue;
        const rtl_tops::cube_hdr h = rtl_tops::cube_hdr_at(mm.want_hdr_o, at);
        const auto o =
            static_cast<unsigned>(rtl_tops::lane<rtl_tops::cube_out_width>(mm.want_o, at));
        const rtl_tops::cube_hdr by =
            rtl_tops::cube_hdr_at(mm.hold_hdr_o, t * rtl_tops::cube_ports + o);
        out.push_back("node " + std::to_string(t) + " input " + port_name(in) + ": header " +
                      std::to_string(h.src) + "->" + std::to_string(h.dst) + " seq " +
                      std::to_string(h.seq) + " waits for " + output_name(t, o) + ", held by " +
                      std::to_string(by.src) + "->" + std::to_string(by.dst) + " seq " +
                      std::to_string(by.seq));
      }
    }
    return out;
  }

  [[nodiscard]] bool busy() const override { return !msgs_.empty(); }

  void deliver(std::uint64_t id, cycle_t now) override {
    const auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    // A tail announced after the clock edge must still leave the ejection port in the
    // cycle it was announced for; step() checks it and erases the message there.
    it->second.delivered = true;
    if (listener_ != nullptr) listener_->delivered(id, now);
  }

 private:
  struct message {
    std::uint64_t id{0};
    std::uint32_t src{0};
    std::uint32_t dst{0};
    std::uint32_t k{1};         // elements
    bool layer_control{false};  // control_xi and no held part (net::xfer::layer_control)
    std::uint16_t seq{0};
    bool taken{false};
    bool delivered{false};  // reported to the listener
    cycle_t due{0};         // the cycle its tail was announced for (hops >= 1)
  };
  struct resource_stat {
    cycle_t busy{0};
    std::uint64_t messages{0};
    std::uint32_t max_queue{0};
    std::uint64_t units{0};  // elements of the circuits set up through it
  };

  static std::unique_ptr<model_t> make_model(VerilatedContext& ctx) {
    ctx.randReset(0);
    return std::make_unique<model_t>(&ctx, "cube");
  }
  [[nodiscard]] std::string port_name(unsigned p) const {
    return p >= rtl_tops::cube_local ? "local " + std::to_string(p - rtl_tops::cube_local)
                                     : "dim " + std::to_string(p);
  }
  [[nodiscard]] std::string output_name(unsigned node, unsigned o) const {
    if (o == cube_eject) return "the ejection port of tile " + std::to_string(node);
    return "link " + std::to_string(node) + "->" + std::to_string(node ^ (1U << o));
  }

  // One RTL cycle: drive, settle, sample the NIs, the crossbars and the ejection ports,
  // then the rising edge, after which the tails that leave an ejection port in the next
  // cycle over a link are read.
  void step(bool offer) override {
    model_t& m = *model_;
    const cycle_t now = rtl_time();
    drv_.drive(now, offer);
    m.eval();
    bool moved = drv_.sample(now, [&](const rtl_tops::cube_message& w, cycle_t at) {
      msgs_.at(w.id).taken = true;
      if (!check_.taken(w.id, w.src, w.dst, w.seq, w.k)) fail(check_.failure());
      if (listener_ != nullptr) listener_->started(w.id, at);
    });

    observe_resources(moved);
    moved |= mon_.sample([&](unsigned t, const rtl_tops::cube_rx& rx) { receive(t, rx, now); });

    // The rising edge. The ejection ports now show the next cycle's elements of the
    // circuits that reach them over a link (from its register).
    rising_edge(m);
    for (unsigned t = 0; t < tiles_; ++t) {
      if (rtl_tops::lane<1>(m.rx_valid_o, t) == 0 || rtl_tops::lane<1>(m.rx_last_o, t) == 0)
        continue;
      const rtl_tops::cube_hdr h = rtl_tops::cube_hdr_at(m.rx_hdr_o, t);
      if (h.src == t) continue;  // to itself: through the local input, this cycle's inputs
      const rtl_tops::cube_check::message* c = check_.find(rtl_tops::cube_check::key(h.src, h.seq));
      if (c == nullptr) continue;  // step() of the next cycle reports it
      message& msg = msgs_.at(c->id);
      if (msg.due == 0) {
        msg.due = now + 1;
        due_.emplace(now + 1, msg.id);
      }
    }
    if (account(check_.holds_messages() || (offer && busy()), moved))
      watchdog_expired("cube", "header or element", now, 4);
  }

  // Grants, holds and waits of this cycle, for links() and contention(): an output is
  // held from its grant through the cycle the tail crosses its node; a header that asks
  // for an output and is not granted it waits a cycle.
  void observe_resources(bool& moved) {
    const model_t& m = *model_;
    for (unsigned t = 0; t < tiles_; ++t) {
      const auto grant = static_cast<unsigned>(rtl_tops::lane<rtl_tops::cube_ports>(m.grant_o, t));
      const auto busy = static_cast<unsigned>(rtl_tops::lane<rtl_tops::cube_ports>(m.busy_o, t));
      const auto wait = static_cast<unsigned>(rtl_tops::lane<rtl_tops::cube_inputs>(m.wait_o, t));
      if ((grant | busy | wait) == 0 && !recording_) continue;
      if (grant != 0) moved = true;
      unsigned asking[rtl_tops::cube_ports] = {};
      for (unsigned in = 0; in < rtl_tops::cube_inputs; ++in) {
        std::uint64_t& run = wait_run_[std::size_t{t} * rtl_tops::cube_inputs + in];
        if (((wait >> in) & 1U) == 0) {
          if (run != 0) {
            ++contention_.blocked;
            contention_.blocked_cycles += run;
            contention_.max_blocked = std::max(contention_.max_blocked, cycle_t{run});
            run = 0;
          }
          continue;
        }
        ++run;
        const auto o = static_cast<unsigned>(
            rtl_tops::lane<rtl_tops::cube_out_width>(m.want_o, t * rtl_tops::cube_inputs + in));
        if (o < rtl_tops::cube_ports) ++asking[o];
      }
      for (unsigned o = 0; o < rtl_tops::cube_ports; ++o) {
        const unsigned r = o == cube_eject ? dims_ : o;
        if (o != cube_eject && o >= dims_) continue;  // outside the sub-cube
        resource_stat& s = res_[std::size_t{t} * (dims_ + 1) + r];
        const bool granted = ((grant >> o) & 1U) != 0;
        if (granted) {
          ++s.messages;
          count_elements(t, o, r);
        }
        if (granted || ((busy >> o) & 1U) != 0) ++s.busy;
        s.max_queue = std::max(s.max_queue, asking[o] + (granted ? 1U : 0U));
        if (recording_ && o != cube_eject) note_circuit(t, o, granted, ((busy >> o) & 1U) != 0);
      }
    }
  }

  // Element-hops as net::circuit_engine counts them: the elements of a circuit (its
  // header's len) on each resource of its path once the path is set up, which is when the
  // destination's ejection port is granted to it; until then its granted links wait here.
  void count_elements(unsigned t, unsigned o, unsigned r) {
    const rtl_tops::cube_hdr h =
        rtl_tops::cube_hdr_at(model_->hold_hdr_o, t * rtl_tops::cube_ports + o);
    const std::uint32_t key = (std::uint32_t{h.src} << 16) | h.seq;
    std::vector<std::size_t>& path = setting_up_[key];
    path.push_back(std::size_t{t} * (dims_ + 1) + r);
    if (o != cube_eject) return;
    for (const std::size_t at : path)
      res_[at].units += h.len;
    injected_[h.src] += h.len;
    setting_up_.erase(key);
  }

  void record_links(bool on) override {
    recording_ = on;
    clocked_bridge::record_links(on);
    if (on) held_.assign(std::size_t{tiles_} * dims_, held_link{});
  }

  // The timeline's link intervals: a circuit holds a link from its grant through the
  // cycle its tail crosses, as net::circuit_engine records them (grant to teardown).
  // Called for every output with traffic in a cycle; a link is let go in the first
  // cycle it is neither granted nor held.
  void note_circuit(unsigned t, unsigned o, bool granted, bool held) {
    held_link& h = held_[std::size_t{t} * dims_ + o];
    const cycle_t now = rtl_time();
    if (h.open && (granted || !held)) {
      note_link(t, t ^ (1U << o), o, h.start, now, h.x);
      h.open = false;
    }
    if (granted) {
      const rtl_tops::cube_hdr by =
          rtl_tops::cube_hdr_at(model_->hold_hdr_o, t * rtl_tops::cube_ports + o);
      h.open = true;
      h.start = now;
      h.x.src = by.src;
      h.x.dst = by.dst;
    }
  }

  // A cycle of tile t's ejection port, checked; the tail of a message over a link must
  // come in the cycle announced after the edge before.
  void receive(unsigned t, const rtl_tops::cube_rx& rx, cycle_t now) {
    const std::optional<rtl_tops::cube_check::message> done = check_.receive(t, rx, now);
    if (!check_.failure().empty()) fail(check_.failure());
    if (!done) return;
    message& msg = msgs_.at(done->id);
    if (msg.src != t && msg.due != now) {
      fail("tile " + std::to_string(t) + "'s ejection port in cycle " + std::to_string(now) +
           ": the tail of message " + std::to_string(msg.id) + " arrived, " +
           (msg.due == 0 ? std::string("unannounced")
                         : "announced for cycle " + std::to_string(msg.due)));
      return;
    }
    const std::uint64_t id = msg.id;
    if (msg.src == t) deliver(id, now);  // to itself: reported in its tail's cycle
    msgs_.erase(id);
  }

  net::circuit_params p_;
  unsigned tiles_;
  unsigned dims_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<model_t> model_;
  rtl_tops::coverage_dump coverage_{*ctx_};          // written before the model goes
  rtl_tops::cube_driver drv_;                        // the tiles' messages into the NIs
  rtl_tops::cube_monitor mon_;                       // the ejection ports
  rtl_tops::cube_check check_;                       // the messages taken, until out whole
  std::unordered_map<std::uint64_t, message> msgs_;  // by id: posted, not yet out
  std::vector<std::uint16_t> next_seq_;              // per tile: the next seq
  std::vector<resource_stat> res_;       // per tile: dims_ links, then the ejection port
  std::vector<std::uint64_t> injected_;  // per tile: elements of its circuits set up
  // Circuits being set up, by (src, seq): the resources granted to each so far.
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> setting_up_;
  struct held_link {
    bool open{false};
    cycle_t start{0};
    net::xfer x;  // the circuit's source and destination
  };
  bool recording_{false};
  std::vector<held_link> held_;          // per tile and dimension, while recording
  std::vector<std::uint64_t> wait_run_;  // per node input: cycles its header has waited
  net::contention_stat contention_{};
};

}  // namespace

std::string cube_configurations() {
  static_assert(rtl_tops::cube_tops.size() == 1);
  const rtl_tops::cube_top_limits& l = rtl_tops::cube_7;
  const std::string xi = "0.." + std::to_string(l.max_xi);
  return "hypercube: " + std::string(l.model) +
         " (hypercube:1 to hypercube:" + std::to_string(l.dims) + ", a sub-cube of the " +
         std::to_string(l.dims) + "-cube); xi, xi_held and control_xi " + xi + ", tau " +
         std::to_string(l.min_tau) + ".." + std::to_string(l.max_tau) +
         ", arbitration lowest-id or round-robin, blocking hold-wait, presetup 0 or 1, full "
         "duplex, messages up to " +
         std::to_string(l.max_elements) + " elements";
}

bool cube_built(const fabric& f) {
  return f.kind == fabric_kind::hypercube && f.ports() <= rtl_tops::cube_7.dims;
}

std::unique_ptr<net::engine> make_rtl_cube_engine(const fabric& f, const net::circuit_params& p) {
  net::validate(p);
  const std::string built = cube_configurations();
  const rtl_tops::cube_top_limits& l = rtl_tops::cube_7;
  if (f.kind != fabric_kind::hypercube) {
    refuse("circuit switching runs on a hypercube, not a " + std::string(kind_name(f.kind)), built);
  }
  if (f.ports() > l.dims) {
    refuse("hypercube:" + std::to_string(f.ports()) + " is larger than the " +
               std::to_string(l.dims) + "-cube",
           built);
  }
  // Each parameter's own range is the rtl model's limits (rtl_model.hpp), which the
  // registry checks before this runs.
  return std::make_unique<rtl_cube_engine>(f, p);
}

}  // namespace tessera::rtl_engines
