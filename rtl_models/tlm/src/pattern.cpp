#include "tessera/tlm/pattern.hpp"

#include <algorithm>
#include <memory>
#include <numeric>

#include "tessera/schedule/errors.hpp"
#include "tessera/tlm/fabric_module.hpp"
#include "tessera/tlm/tile_nic.hpp"

namespace tessera::tlm_models {
namespace {

struct tile_work {
  std::vector<std::uint32_t> sends;  // transfer indices, by start then index
  std::vector<std::uint32_t> recvs;  // by (src, start, index): the order each source sends
};

class pattern_tile : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(pattern_tile);

  pattern_tile(const sc_core::sc_module_name& name, tlm_nic& n,
               const std::vector<pattern_transfer>& all, const tile_work& work,
               std::vector<std::vector<std::byte>>& buffers, std::vector<nic_handle>& handles)
      : sc_core::sc_module(name),
        nic_{&n},
        all_{&all},
        work_{&work},
        buffers_{&buffers},
        handles_{&handles} {
    SC_THREAD(run);
  }

 private:
  void run() {
    for (const std::uint32_t i : work_->recvs) {
      (*buffers_)[i].resize((*all_)[i].bytes);
      (*handles_)[i] = nic_->post_recv((*all_)[i].src, (*buffers_)[i]);
    }
    std::vector<std::byte> payload;
    for (const std::uint32_t i : work_->sends) {
      const pattern_transfer& t = (*all_)[i];
      const std::uint64_t now = now_cycles();
      if (t.start > now) sc_core::wait(cycles(t.start - now));
      payload.resize(t.bytes);
      for (std::uint64_t b = 0; b < t.bytes; ++b)
        payload[b] = pattern_byte(i, b);
      msg_header h{};
      h.dst = t.dst;
      h.kind = msg_kind::data;
      h.tag = i;
      h.bytes = t.bytes;
      nic_->post_send(h, payload);
    }
  }

  tlm_nic* nic_;
  const std::vector<pattern_transfer>* all_;
  const tile_work* work_;
  std::vector<std::vector<std::byte>>* buffers_;
  std::vector<nic_handle>* handles_;
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

  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  fabric_module fab{"fabric", *engine};
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
                                                   transfers, work[t], buffers, handles));
  }
  sc_core::sc_start(cycles(o.max_cycles), sc_core::SC_EXIT_ON_STARVATION);

  pattern_outcome out;
  out.transfers.resize(transfers.size());
  for (std::size_t i = 0; i < transfers.size(); ++i)
    out.transfers[i].posted = transfers[i].start;
  std::vector<bool> seen(transfers.size(), false);
  for (const nic::transfer_record& r : fab.transfers()) {
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
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const pattern_transfer& t = transfers[i];
    const std::string name = "transfer " + std::to_string(i) + " (" + std::to_string(t.src) +
                             " -> " + std::to_string(t.dst) + ")";
    if (!seen[i]) {
      out.failure = name + " never arrived";
      if (!engine->idle()) {
        const auto why = engine->stuck();
        if (!why.empty()) out.failure += ": " + why.front();
      }
      return out;
    }
  }
  out.completed = true;
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const pattern_transfer& t = transfers[i];
    const std::string name = "transfer " + std::to_string(i) + " (" + std::to_string(t.src) +
                             " -> " + std::to_string(t.dst) + ")";
    const nic::endpoint& ep = nics[t.dst]->endpoint();
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
  }
  out.verified = true;
  return out;
}

}  // namespace tessera::tlm_models
