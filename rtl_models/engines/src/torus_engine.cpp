// The store-and-forward torus through the Verilated tsr_torus_top (docs/rtl.md, "The RTL
// as a model"): torus:4x4 on Vtsr_torus_4x4, torus:8x8 on Vtsr_torus_8x8. A torus has no
// corner to run a smaller one in (its wraparound links close each ring), so only the two
// built sizes run.
//
// Timing follows the fabric module's protocol (clocked_bridge.hpp) and the rules
// net::torus_engine shares with the RTL (docs/rtl.md, "Store-and-forward torus"): a
// tile's queue front is offered to its NI from the cycle it is posted, and the NI writes
// its packets into the node one a cycle. A message
// has started in the cycle its first packet begins its first hop (its header is on a
// link, or on the ejection port of a message to the tile itself): net::torus_engine's
// first grant. A packet is delivered in the cycle it is complete at its destination
// (the node's arrive_o); a link input reports that from a register, read after the
// clock edge of the cycle before, so fire(t) reports the messages whose last packet
// arrived at t before the tiles post what they send in reaction. A packet written to
// the tile itself arrives in its write cycle, reported from arbitrate(t).
//
// The bridge sees messages, not their bytes. Each packet carries a payload computed from
// (source, packet number, byte index), and every byte the ejection ports hand out is
// compared with it: a packet the RTL loses, repeats, corrupts, reorders or misroutes ends
// the run (net::engine::failure). The NIs are driven, the arrivals and ejection ports
// read and every packet checked by the tops' torus driver, monitor and check
// (rtl_models/tops), which tb_torus uses too. The run goes on until every packet has
// left its ejection port (a header cycle and L byte cycles after it arrived).
//
// A control message (no payload) travels as a one-byte packet: the RTL's packets carry
// at least one byte, so each of its hops takes tau cycles more than net::torus_engine's
// zero-byte packet (docs/rtl.md).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <verilated.h>

#include "clocked_bridge.hpp"
#include "fabric_engines.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/models/registry.hpp"
#include "tessera/rtl_engines/rtl_model.hpp"
#include "tessera/rtl_engines/tlm2rtl.hpp"
#include "tessera/rtl_tops/coverage.hpp"
#include "tessera/rtl_tops/torus_check.hpp"
#include "tessera/rtl_tops/torus_ni.hpp"
#include "tessera/rtl_tops/torus_top.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::rtl_engines {
namespace {

using net::cycle_t;

// Every torus top's parameters but its size (torus_top.hpp checks they agree).
constexpr const rtl_tops::torus_top_limits& limits = rtl_tops::torus_4x4;
// --model rtl's default packet size (rtl_model.hpp) is the largest packet the RTL takes.
static_assert(rtl_tops::torus_4x4.max_packet_bytes == rtl_tops::torus_max_bytes);
constexpr const char* port_names[rtl_tops::torus_ports] = {"E", "W", "S", "N", "local"};

template <class Top>
class rtl_torus_engine final : public clocked_bridge {
  using model_t = typename Top::model;
  static constexpr unsigned tiles = Top::tiles;

 public:
  rtl_torus_engine(const fabric& f, const net::torus_params& p)
      : f_{f},
        p_{p},
        ctx_(std::make_unique<VerilatedContext>()),
        model_(make_model(*ctx_)),
        drv_(*model_),
        mon_(*model_),
        check_(tiles, true),
        hop_(std::size_t{tiles} * rtl_tops::torus_local) {
    model_t& m = *model_;
    m.beta_i = static_cast<std::uint16_t>(p.beta);
    m.tau_i = static_cast<std::uint8_t>(p.tau);
    m.tbl_we_i = 0;
    reset(m);
    // No hop lasts longer than beta + tau * MaxBytes, and while packets are owed some
    // link, NI or ejection port shows a header or byte at least every beta + tau cycles.
    watchdog_ = 2 * (p.beta + p.tau * (rtl_tops::torus_max_bytes + 1)) + 1000;
    // An idle torus is unchanged once the last credit is back, in the cycle its last
    // packet leaves the ejection port.
    quiet_needed_ = 16;
  }
  ~rtl_torus_engine() override { model_->final(); }
  rtl_torus_engine(const rtl_torus_engine&) = delete;
  rtl_torus_engine& operator=(const rtl_torus_engine&) = delete;

  void inject(const net::xfer& x, cycle_t now) override {
    if (x.src >= tiles || x.dst >= tiles) {
      throw input_error("rtl torus: message " + std::to_string(x.id) + " tile " +
                        std::to_string(std::max(x.src, x.dst)) + " is outside the torus");
    }
    if (x.tree != 0) {
      throw input_error("rtl torus: message " + std::to_string(x.id) + " is a multicast on tree " +
                        std::to_string(x.tree) + "; the bridge carries unicast messages");
    }
    const std::uint64_t bytes = (x.control || x.bytes == 0) ? 1 : x.bytes;
    if (bytes > limits.max_message_bytes) {
      throw input_error("rtl torus: a message of " + std::to_string(bytes) +
                        " bytes; the RTL NI takes at most " +
                        std::to_string(limits.max_message_bytes) + " bytes a message");
    }
    if (p_.packet_bytes == 0 && bytes > rtl_tops::torus_max_bytes) {
      throw input_error("rtl torus: a message of " + std::to_string(bytes) +
                        " bytes in one packet (packet_bytes 0); the RTL's packets carry at most " +
                        std::to_string(rtl_tops::torus_max_bytes) +
                        " bytes: give --param packet_bytes=1.." +
                        std::to_string(rtl_tops::torus_max_bytes) + " (the default is " +
                        std::to_string(rtl_tops::torus_max_bytes) + ")");
    }
    message m{.id = x.id,
              .src = x.src,
              .dst = x.dst,
              .len = static_cast<std::uint32_t>(bytes),
              .packet_bytes = static_cast<std::uint32_t>(p_.packet_bytes)};
    const std::uint32_t unit = m.packet_bytes == 0 ? m.len : m.packet_bytes;
    m.seq = check_.add(x.id, x.src, (m.len + unit - 1) / unit);
    // Offered from the cycle it is posted: step(true) runs no earlier.
    drv_.send({.id = x.id,
               .src = m.src,
               .dst = m.dst,
               .seq = m.seq,
               .len = m.len,
               .packet_bytes = m.packet_bytes});
    msgs_.emplace(x.id, m);
    (void)now;
  }

  [[nodiscard]] std::vector<net::link_stat> links() const override {
    std::vector<net::link_stat> out;
    for (unsigned t = 0; t < tiles; ++t) {
      for (unsigned port = 0; port < rtl_tops::torus_local; ++port) {
        const hop_state& h = hop_[std::size_t{t} * rtl_tops::torus_local + port];
        if (h.packets == 0) continue;
        net::link_stat s;
        s.from = t;
        s.to = neighbour(f_, tile_id{t}, port)->value();
        s.name = port_names[port];
        s.busy = h.busy;
        s.messages = h.packets;
        s.units = h.bytes;
        out.push_back(s);
      }
    }
    return out;
  }

  // Bytes on the links (link_o), written by the NIs (their packets' headers as sent) and
  // ejected (the ejection ports' bytes and headers), by the store-and-forward rule of
  // net/energy.hpp.
  [[nodiscard]] net::energy_counts energy() const override {
    std::vector<net::link_stat> rows = links();
    for (unsigned t = 0; t < f_.tiles(); ++t) {
      if (written_[t] != 0)
        rows.push_back(net::link_stat{t, t, "inject", 0, 0, 0, written_[t], {}});
      if (ejected_packets_[t] != 0) {
        rows.push_back(
            net::link_stat{t, t, "eject", 0, ejected_packets_[t], 0, ejected_bytes_[t], {}});
      }
    }
    return net::channel_energy(net::energy_rule::store_forward, f_.tiles(), 1, rows);
  }

  [[nodiscard]] net::contention_stat contention() const override { return contention_; }

  [[nodiscard]] std::vector<std::string> stuck() const override {
    std::vector<std::string> out = owed_messages(
        msgs_, [](const message& m) { return std::to_string(m.len) + " bytes"; },
        [this](std::uint64_t id, const message&) {
          return std::to_string(check_.arrived(id)) + " of " + std::to_string(check_.packets(id)) +
                 " packets arrived";
        });
    // Where the RTL's stored packets wait: per input, its oldest and the outputs it owes.
    const model_t& mm = *model_;
    for (unsigned t = 0; t < tiles && out.size() < 32; ++t) {
      for (unsigned in = 0; in < rtl_tops::torus_ports; ++in) {
        const unsigned at = t * rtl_tops::torus_ports + in;  // the element of (tile, input)
        if (((rtl_tops::lane<rtl_tops::torus_ports>(mm.wait_o, t) >> in) & 1U) == 0) continue;
        const rtl_tops::torus_hdr h =
            rtl_tops::get_hdr(mm.wait_hdr_o, at * rtl_tops::torus_hdr_bits);
        std::string s = "tile " + std::to_string(t) + " input " + port_names[in] +
                        " holds packet " + std::to_string(h.seq) + " of tile " +
                        std::to_string(h.src) + " to " + std::to_string(h.dst) + ", waiting for";
        const std::uint64_t owed = rtl_tops::lane<rtl_tops::torus_ports>(mm.wait_ports_o, at);
        for (unsigned o = 0; o < rtl_tops::torus_ports; ++o)
          if (((owed >> o) & 1U) != 0) s += std::string(" ") + port_names[o];
        out.push_back(s);
      }
    }
    return out;
  }

  [[nodiscard]] bool busy() const override { return !msgs_.empty() || check_.holds_packets(); }

  void deliver(std::uint64_t id, cycle_t now) override {
    const auto it = msgs_.find(id);
    if (it == msgs_.end()) return;
    start(it->second, now);
    if (it->second.taken) --in_rtl_;
    msgs_.erase(it);
    check_.remove(id);
    if (listener_ != nullptr) listener_->delivered(id, now);
  }

 private:
  struct message {
    std::uint64_t id{0};
    std::uint32_t src{0};
    std::uint32_t dst{0};
    std::uint32_t len{1};           // payload bytes in the RTL (a control message: 1)
    std::uint32_t packet_bytes{0};  // 0: one packet
    std::uint16_t seq{0};           // the first packet's number at the source
    bool taken{false};
    bool started{false};
  };
  // A hop in progress on a link output: from its header to its last byte.
  struct hop_state {
    bool open{false};
    cycle_t start{0};
    std::uint32_t key{0};  // the packet's
    std::uint32_t len{0};
    std::uint32_t got{0};
    cycle_t busy{0};
    std::uint64_t packets{0};
    std::uint32_t src{0};  // the packet's message
    std::uint32_t dst{0};
    std::uint64_t bytes{0};  // payload bytes that crossed the link
  };

  void start(message& m, cycle_t now) {
    if (m.started) return;
    m.started = true;
    if (listener_ != nullptr) listener_->started(m.id, now);
  }

  // The check's first fault becomes the run's, in the order the faults came.
  void forward_failure() {
    if (!check_.failure().empty()) fail(check_.failure());
  }

  static std::unique_ptr<model_t> make_model(VerilatedContext& ctx) {
    ctx.randReset(0);
    return std::make_unique<model_t>(&ctx, "torus");
  }

  // One RTL cycle: drive, settle, sample the NIs, links, arrivals, ejection ports and
  // waits, then the rising edge, after which the link inputs' arrivals of the next cycle
  // are read.
  void step(bool offer) override {
    model_t& m = *model_;
    const cycle_t now = rtl_time();
    drv_.drive(now, offer);
    m.eval();
    bool moved = drv_.sample(
        now,
        [&](const rtl_tops::torus_message& w) {
          msgs_.at(w.id).taken = true;
          ++in_rtl_;
        },
        [&](const rtl_tops::torus_message& w, const rtl_tops::torus_hdr& h, cycle_t at) {
          check_.sent(h.src, h.seq, w.id, w.dst, h.len, at);
          written_[h.src] += h.len;  // the NI wrote the packet into its node's buffer
          forward_failure();
        });
    if (!drv_.error().empty()) fail(drv_.error());

    for (unsigned t = 0; t < tiles; ++t) {
      for (unsigned port = 0; port < rtl_tops::torus_local; ++port) {
        const rtl_tops::link_word w = rtl_tops::get_link(
            m.link_o, (t * rtl_tops::torus_links + port) * rtl_tops::torus_link_bits);
        if (!w.hdr_valid && !w.byte_valid) continue;
        moved = true;
        hop_state& h = hop_[std::size_t{t} * rtl_tops::torus_local + port];
        if (w.hdr_valid) {
          const std::uint32_t k = rtl_tops::torus_check::key(w.hdr.src, w.hdr.seq);
          h = hop_state{true,   now,           k,         w.hdr.len, 0,
                        h.busy, h.packets + 1, w.hdr.src, w.hdr.dst, h.bytes};
          if (const auto* pk = check_.find(k); pk != nullptr) {
            if (const auto mi = msgs_.find(pk->id); mi != msgs_.end()) start(mi->second, now);
            // A hop that starts after its packet was complete here waited, as
            // net::torus_engine counts contention.
            if (const cycle_t waited = now - pk->ready; waited > 0) {
              ++contention_.blocked;
              contention_.blocked_cycles += waited;
              contention_.max_blocked = std::max(contention_.max_blocked, waited);
            }
          }
        }
        if (w.byte_valid) ++h.bytes;
        if (w.byte_valid && h.open && ++h.got == h.len) {
          h.busy += now - h.start + 1;
          h.open = false;
          // The timeline's link interval: the hop from its header to its last byte.
          net::xfer x;
          x.src = h.src;
          x.dst = h.dst;
          note_link(t, neighbour(f_, tile_id{t}, port)->value(), port, h.start, now + 1, x);
          // The packet is complete at the neighbour in the next cycle.
          if (auto* pk = check_.find(h.key); pk != nullptr) pk->ready = now + 1;
        }
      }
    }
    moved |= mon_.local(
        now,
        // A message to the tile itself arrives in the cycle its NI writes it.
        [&](unsigned t, unsigned, const rtl_tops::torus_hdr& h, cycle_t at) {
          const auto id = check_.arrive(t, h, at);
          forward_failure();
          if (id) deliver(*id, at);
        },
        [&](unsigned t, const rtl_tops::link_word& rx) {
          if (rx.hdr_valid) ++ejected_packets_[t];
          if (rx.byte_valid) ++ejected_bytes_[t];
          const auto id = check_.eject(t, rx, now);
          forward_failure();
          // A message to the tile itself starts with its first packet's ejection.
          if (id) {
            if (const auto mi = msgs_.find(*id); mi != msgs_.end()) start(mi->second, now);
          }
        });

    // The rising edge. The link inputs' arrive_o now shows the packets complete in the
    // next cycle.
    rising_edge(m);
    moved |=
        mon_.links(now + 1, [&](unsigned t, unsigned, const rtl_tops::torus_hdr& h, cycle_t at) {
          const auto id = check_.arrive(t, h, at);
          forward_failure();
          if (id) due_.emplace(at, *id);
        });
    if (account(in_rtl_ > 0 || check_.holds_packets() || (offer && busy()), moved))
      watchdog_expired("torus", "packet", now, 4);
  }

  fabric f_;
  net::torus_params p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<model_t> model_;
  rtl_tops::coverage_dump coverage_{*ctx_};          // written before the model goes
  rtl_tops::torus_driver<Top> drv_;                  // the tiles' messages into the NIs
  rtl_tops::torus_monitor<Top> mon_;                 // arrivals and ejection ports
  rtl_tops::torus_check check_;                      // the packets in the RTL
  std::unordered_map<std::uint64_t, message> msgs_;  // by id: posted, not yet delivered
  std::vector<hop_state> hop_;                       // per tile and link output
  std::vector<std::uint64_t> written_ = std::vector<std::uint64_t>(tiles, 0);  // per tile
  std::vector<std::uint64_t> ejected_bytes_ = std::vector<std::uint64_t>(tiles, 0);
  std::vector<std::uint64_t> ejected_packets_ = std::vector<std::uint64_t>(tiles, 0);
  net::contention_stat contention_{};
  std::uint64_t in_rtl_{0};  // messages taken by an NI and not yet delivered
};

}  // namespace

std::string torus_configurations() {
  std::string out = "torus: ";
  for (const rtl_tops::torus_top_limits& l : rtl_tops::torus_tops) {
    if (&l != &rtl_tops::torus_tops.front()) out += " and ";
    out += std::string(l.model) + " (torus:" + std::to_string(l.rows) + "x" +
           std::to_string(l.cols) + ")";
  }
  const std::string packet = std::to_string(limits.max_packet_bytes);
  return out + "; both buffers " + std::to_string(limits.buffers) + ", beta " +
         std::to_string(limits.min_beta) + ".." + std::to_string(limits.max_beta) + ", tau " +
         std::to_string(limits.min_tau) + ".." + std::to_string(limits.max_tau) +
         ", packets of at most " + packet + " bytes (packet_bytes 1.." + packet +
         ", or 0 when every message fits one packet), messages up to " +
         std::to_string(limits.max_message_bytes) + " bytes";
}

bool torus_built(const fabric& f) {
  if (f.kind != fabric_kind::torus) return false;
  if (f.rows == rtl_tops::torus_4x4.rows && f.cols == rtl_tops::torus_4x4.cols) return true;
  return TESSERA_RTL_TORUS_8X8 && f.rows == rtl_tops::torus_8x8.rows &&
         f.cols == rtl_tops::torus_8x8.cols;
}

std::unique_ptr<net::engine> make_rtl_torus_engine(const fabric& f, const net::torus_params& p) {
  net::validate(p);
  const std::string built = torus_configurations();
  if (f.kind != fabric_kind::torus) {
    refuse("store-forward switching runs on a torus, not a " + std::string(kind_name(f.kind)),
           built);
  }
  // Each parameter's own range is the rtl model's limits (rtl_model.hpp), which the
  // registry checks before this runs.
  if (f.rows == rtl_tops::torus_4x4.rows && f.cols == rtl_tops::torus_4x4.cols)
    return std::make_unique<rtl_torus_engine<rtl_tops::torus_top_4x4>>(f, p);
#if TESSERA_RTL_TORUS_8X8
  if (f.rows == rtl_tops::torus_8x8.rows && f.cols == rtl_tops::torus_8x8.cols)
    return std::make_unique<rtl_torus_engine<rtl_tops::torus_top_8x8>>(f, p);
#endif
  refuse("torus:" + std::to_string(f.rows) + "x" + std::to_string(f.cols) + " is not built", built);
}

}  // namespace tessera::rtl_engines
