#include "tessera/tlm/pattern.hpp"

#include <algorithm>
#include <memory>
#include <numeric>

#include "tessera/common/errors.hpp"
#include "tessera/schedule/verdict.hpp"
#include "tessera/tlm/fabric_module.hpp"
#include "tessera/tlm/sim_control.hpp"
#include "tessera/tlm/tile_nic.hpp"

namespace tessera::tlm_models {
namespace {

struct tile_work {
  std::vector<std::uint32_t> sends;  // transfer indices, by start then index
  std::vector<std::uint32_t> recvs;  // by (src, start, index): the order each source sends
};

// Posts every receive at 0, then each send at its start cycle, without waiting for
// earlier sends. FORCED data is dropped by the destination NIC if no receive waits
// (none is missing here: every receive is posted at 0). An UNFORCED message above the
// threshold is preceded by a reserve to its destination, which answers with an ack
// whatever it is doing (its operating system does, Bokhari §2.2); the data goes when
// the ack is back. Later sends do not wait for it.
class pattern_tile : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(pattern_tile);

  pattern_tile(const sc_core::sc_module_name& name, tlm_nic& n,
               const std::vector<pattern_transfer>& all, const tile_work& work,
               std::vector<std::vector<std::byte>>& buffers, std::vector<nic_handle>& handles,
               const platform_options& o)
      : sc_core::sc_module(name),
        nic_{&n},
        all_{&all},
        work_{&work},
        buffers_{&buffers},
        handles_{&handles},
        proto_{o.proto},
        threshold_{o.unforced_threshold} {
    SC_THREAD(run);
    SC_METHOD(serve);
    sensitive << n.changed();
    dont_initialize();
  }

 private:
  void run() {
    for (const std::uint32_t i : work_->recvs) {
      (*buffers_)[i].resize((*all_)[i].bytes);
      (*handles_)[i] = nic_->post_recv((*all_)[i].src, (*buffers_)[i]);
    }
    for (const std::uint32_t i : work_->sends) {
      const pattern_transfer& t = (*all_)[i];
      const std::uint64_t now = now_cycles();
      if (t.start > now) sc_core::wait(cycles(t.start - now));
      if (proto_ == protocol::unforced && t.bytes > threshold_) {
        msg_header r{};
        r.dst = t.dst;
        r.kind = msg_kind::reserve;
        r.tag = i;
        nic_->post_control(r);
        awaiting_.push_back(i);
        continue;
      }
      send_data(i);
    }
  }

  void send_data(std::uint32_t i) {
    const pattern_transfer& t = (*all_)[i];
    payload_.resize(t.bytes);
    for (std::uint64_t b = 0; b < t.bytes; ++b)
      payload_[b] = pattern_byte(i, b);
    msg_header h{};
    h.dst = t.dst;
    h.kind = msg_kind::data;
    h.proto = proto_;
    h.tag = i;
    h.bytes = t.bytes;
    nic_->post_send(h, payload_);
  }

  // On every NIC change: answer reservations, send what was acknowledged.
  void serve() {
    msg_header want{};
    want.kind = msg_kind::reserve;
    want.src = any_tile;
    want.tag = any_tag;
    msg_header got{};
    while (nic_->take_control(want, got)) {
      msg_header ack{};
      ack.dst = got.src;
      ack.kind = msg_kind::ack;
      ack.tag = got.tag;
      nic_->post_control(ack);
    }
    for (std::size_t k = 0; k < awaiting_.size();) {
      const std::uint32_t i = awaiting_[k];
      want.kind = msg_kind::ack;
      want.src = (*all_)[i].dst;
      want.tag = i;
      if (nic_->take_control(want, got)) {
        send_data(i);
        awaiting_.erase(awaiting_.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    }
  }

  tlm_nic* nic_;
  const std::vector<pattern_transfer>* all_;
  const tile_work* work_;
  std::vector<std::vector<std::byte>>* buffers_;
  std::vector<nic_handle>* handles_;
  protocol proto_;
  std::uint64_t threshold_;
  std::vector<std::uint32_t> awaiting_;  // UNFORCED sends waiting for their ack
  std::vector<std::byte> payload_;
};

}  // namespace

pattern_outcome run_pattern(const fabric& f, const std::vector<pattern_transfer>& transfers,
                            const platform_options& o) {
  const std::uint32_t p = f.tiles();
  std::uint64_t memory = 0;
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const pattern_transfer& t = transfers[i];
    if (t.src >= p || t.dst >= p) {
      throw input_error("pattern transfer " + std::to_string(i) + ": tile " +
                        std::to_string(t.src >= p ? t.src : t.dst) +
                        " is not on the fabric (tiles 0.." + std::to_string(p - 1) + ")");
    }
    memory += 2 * t.bytes;
  }
  if (memory > o.memory_limit) {
    throw input_error("the pattern needs more than " + std::to_string(o.memory_limit >> 20) +
                      " MiB for its messages");
  }
  std::unique_ptr<net::engine> engine = make_engine(f, o);

  std::vector<tile_work> work(p);
  std::vector<std::uint32_t> order(transfers.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return transfers[a].start < transfers[b].start;
  });
  for (const std::uint32_t i : order) {
    work[transfers[i].src].sends.push_back(i);
    work[transfers[i].dst].recvs.push_back(i);
  }
  for (tile_work& w : work) {
    std::stable_sort(w.recvs.begin(), w.recvs.end(), [&](std::uint32_t a, std::uint32_t b) {
      return transfers[a].src < transfers[b].src;
    });
  }

  check_thread_count(p, "tiles");
  route_systemc_reports();
  fabric_module fab{"fabric", *engine};
  harness::fault_injector faults{f, o.faults};
  if (!faults.empty()) {
    if (faults.has_kind(harness::fault_kind::stall)) {
      throw input_error(
          "stall faults hold tiles that run the tile runtime (--collective, --schedule); "
          "pattern tiles run none");
    }
    set_fault_routes(faults, *engine, o, f);
    fab.set_faults(&faults);
  }
  std::vector<std::unique_ptr<tlm_nic>> nics;
  std::vector<std::unique_ptr<pattern_tile>> tiles;
  std::vector<std::vector<std::byte>> buffers(transfers.size());
  std::vector<nic_handle> handles(transfers.size(), no_handle);
  for (std::uint32_t t = 0; t < p; ++t) {
    nics.push_back(std::make_unique<tlm_nic>(("nic_" + std::to_string(t)).c_str(), t, p));
    nics.back()->out.bind(fab.in);
    fab.out.bind(nics.back()->in);
  }
  for (std::uint32_t t = 0; t < p; ++t) {
    if (work[t].sends.empty() && work[t].recvs.empty()) continue;
    tiles.push_back(std::make_unique<pattern_tile>(("tile_" + std::to_string(t)).c_str(), *nics[t],
                                                   transfers, work[t], buffers, handles, o));
  }
  const sim_end end = run_simulation(o.max_cycles);
  if (!fab.refused().empty()) throw input_error(fab.refused());

  pattern_outcome out;
  out.transfers.resize(transfers.size());
  for (std::size_t i = 0; i < transfers.size(); ++i)
    out.transfers[i].posted = transfers[i].start;
  std::vector<bool> seen(transfers.size(), false);
  for (const harness::transfer_record& r : fab.transfers()) {
    if (r.header.kind != msg_kind::data) {
      ++out.control_messages;
      continue;
    }
    const std::uint32_t i = r.header.tag;
    if (i >= transfers.size()) continue;
    if (seen[i]) {
      out.failure = "transfer " + std::to_string(i) + " (" + std::to_string(transfers[i].src) +
                    " -> " + std::to_string(transfers[i].dst) + ") was delivered twice";
      return out;
    }
    seen[i] = true;
    out.transfers[i].started = r.start;
    out.transfers[i].delivered = r.end;
    out.cycles = std::max(out.cycles, r.end);
  }
  out.links = engine->links();
  out.contention = engine->contention();
  out.energy = engine->energy();
  harness::report_faults(faults, out.faults, out.lost, out.lost_total);
  // Nothing repairs what a fault did to a transfer: name the first such one.
  for (const harness::loss_record& r : faults.losses()) {
    if (r.header.kind != msg_kind::data) continue;
    const pattern_transfer& t = transfers[r.header.tag];
    out.failure = "transfer " + std::to_string(r.header.tag) + " (" + std::to_string(t.src) +
                  " -> " + std::to_string(t.dst) + "): " + faults.cause_text(r);
    out.completed = false;
    return out;
  }
  if (!faults.losses().empty()) {  // only control messages: an UNFORCED reserve or ack
    out.failure = faults.loss_text(faults.losses().front());
    return out;
  }
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const pattern_transfer& t = transfers[i];
    const std::string name = "transfer " + std::to_string(i) + " (" + std::to_string(t.src) +
                             " -> " + std::to_string(t.dst) + ")";
    if (!seen[i]) {
      if (end.how == run_end::cycle_limit) {
        out.failure = "stopped at cycle " + std::to_string(end.cycle) + " by max_cycles: " + name +
                      " had not arrived";
        out.cycles = end.cycle;
        return out;
      }
      out.failure = name + " never arrived";
      if (!engine->idle()) {
        const auto why = engine->stuck();
        if (!why.empty()) out.failure += ": " + why.front();
      }
      return out;
    }
  }
  out.completed = true;
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const pattern_transfer& t = transfers[i];
    const std::string name = "transfer " + std::to_string(i) + " (" + std::to_string(t.src) +
                             " -> " + std::to_string(t.dst) + ")";
    const harness::endpoint& ep = nics[t.dst]->endpoint();
    if (handles[i] == no_handle || ep.test(handles[i]) != nic_status::done) {
      out.failure = "tile " + std::to_string(t.dst) + ": " + name + " was not received";
      return out;
    }
    for (std::uint64_t b = 0; b < t.bytes; ++b) {
      if (buffers[i][b] != pattern_byte(i, b)) {
        out.failure =
            "tile " + std::to_string(t.dst) + ": " + name + " differs at byte " + std::to_string(b);
        return out;
      }
    }
    bytes += t.bytes;
  }
  const verdict v = verdict_of(true, bytes);
  out.bytes_checked = bytes;
  out.verified = v == verdict::verified;
  out.nothing_checked = v == verdict::nothing_checked;
  return out;
}

}  // namespace tessera::tlm_models
