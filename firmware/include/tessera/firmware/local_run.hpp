// Runs a collective on Tiles tiles that share one address space, over the
// in-memory NIC, and checks every tile's bytes: the bare-metal self-test's engine
// (and a host test of the same code). Fixed capacity, no heap; the tiles are
// stepped round-robin until all finish or none can progress.
#pragma once

#include <cstdint>

#include "tessera/firmware/payload.hpp"
#include "tessera/firmware/textbook.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/memory_nic.hpp"
#include "tessera/runtime/reliable.hpp"

namespace tessera::fw {

enum class local_status : std::uint8_t {
  verified,
  too_big,     // the collective does not fit the image's capacities
  tile_fault,  // a tile's executor stopped with an error
  stuck,       // no tile can progress (deadlock or a dropped FORCED message)
  mismatch,    // a tile's final bytes differ from the expected ones
};

struct local_result {
  local_status status{local_status::verified};
  std::uint32_t tile{0};
  tile_fault fault{};
  mismatch bad{};
  std::uint32_t dropped{0};
  reliable_stats reliable{};  // protocol::reliable: summed over the tiles
};

// Blocks: store capacity per tile; SlotBytes: largest block; Ids: largest op.
template <std::uint32_t Tiles, std::uint32_t Blocks, std::uint32_t SlotBytes, std::uint32_t Ids>
class local_machine {
 public:
  static constexpr std::uint32_t msg_bytes = Ids * (sizeof(dir_entry) + SlotBytes);
  using fabric_type = memory_fabric<Tiles, 8, 4 * Tiles, msg_bytes, 4 * Tiles>;
  using nic_type = typename fabric_type::port;
  using exec_type = executor<nic_type, collective_program>;

  local_result run(const collective_params& c, const executor_config& base) {
    local_result res{};
    const std::uint32_t p = c.f.tiles();
    if (p > Tiles || layout{c}.slot_bytes() > SlotBytes) {
      res.status = local_status::too_big;
      return res;
    }
    fabric_.reset();
    if (pending_.armed) fabric_.arm_fault(pending_.kind, pending_.src, pending_.dst, pending_.n);
    pending_ = pending_fault{};
    executor_config cfg = base;
    cfg.tiles = p;
    cfg.type = c.type;
    cfg.rop = c.rop;
    for (std::uint32_t t = 0; t < p; ++t) {
      tile& tl = tiles_[t];
      tl.store = tl.mem.make();
      tl.nic = fabric_.nic(t);
      const collective_program prog{c, tile_id{t}};
      if (prog.max_blocks() > Ids || !load_initial(c, t, tl.store)) {
        res.status = local_status::too_big;
        res.tile = t;
        return res;
      }
      tl.rel = reliable_state{std::span<std::uint32_t>(tl.seq_out, p),
                              std::span<std::uint32_t>(tl.seq_in, p), tl.owed};
      typename exec_type::buffers b{tl.send_ids, tl.recv_ids, tl.tx, tl.rx, tl.posted, {},
                                    {},          {},          {},    {},    &tl.rel};
      tl.ex = exec_type{tile_id{t}, tl.nic, prog, tl.store, b, cfg};
      tl.state = tile_state::blocked;
    }
    bool progress = true;
    std::uint32_t done = 0;
    while (done < p && progress) {
      progress = false;
      done = 0;
      for (std::uint32_t t = 0; t < p; ++t) {
        tile& tl = tiles_[t];
        const std::uint32_t before = tl.ex.op_index();
        const std::uint64_t sent = tl.ex.messages_sent();  // a retransmission is progress
        const tile_state s = tl.ex.poll();
        if (s == tile_state::failed) {
          res.status = local_status::tile_fault;
          res.tile = t;
          res.fault = tl.ex.fault();
          return res;
        }
        if (s != tl.state || tl.ex.op_index() != before || tl.ex.messages_sent() != sent)
          progress = true;
        tl.state = s;
        if (s == tile_state::done) ++done;
      }
    }
    res.dropped = fabric_.dropped();
    for (std::uint32_t t = 0; t < p; ++t) {
      const reliable_stats& r = tiles_[t].rel.stats;
      res.reliable.retransmissions += r.retransmissions;
      res.reliable.rejected_damaged += r.rejected_damaged;
      res.reliable.rejected_duplicate += r.rejected_duplicate;
      res.reliable.rejected_gap += r.rejected_gap;
      res.reliable.acks_sent += r.acks_sent;
    }
    if (done < p) {
      res.status = local_status::stuck;
      return res;
    }
    for (std::uint32_t t = 0; t < p; ++t) {
      const mismatch m = verify_tile(c, t, tiles_[t].store);
      if (m.kind != mismatch_kind::none) {
        res.status = local_status::mismatch;
        res.tile = t;
        res.bad = m;
        return res;
      }
    }
    return res;
  }

  // A tile's blocks after run(), e.g. to damage one and see verify_tile catch it.
  block_store& store(std::uint32_t t) { return tiles_[t].store; }
  // The fabric, to arm a fault before run() (run() resets it first: arm after reset).
  fabric_type& network() { return fabric_; }
  // Runs with one fault armed on the n-th data message from src to dst.
  local_result run_with_fault(const collective_params& c, const executor_config& base,
                              typename fabric_type::fault_kind k, std::uint32_t src,
                              std::uint32_t dst, std::uint32_t n) {
    pending_ = pending_fault{k, src, dst, n, true};
    return run(c, base);
  }
  [[nodiscard]] bool fault_acted() const { return fabric_.fault_acted(); }

 private:
  struct tile {
    block_store_storage<Blocks, SlotBytes> mem;
    block_store store;
    nic_type nic;
    block_id send_ids[Ids];
    block_id recv_ids[Ids];
    std::byte tx[msg_bytes];
    std::byte rx[msg_bytes];
    posted_recv posted[1];
    std::uint32_t seq_out[Tiles];
    std::uint32_t seq_in[Tiles];
    owed_ack owed[Tiles + 1];
    reliable_state rel;
    exec_type ex{tile_id{0},
                 nic,
                 collective_program{collective_params{}, tile_id{0}},
                 store,
                 typename exec_type::buffers{},
                 executor_config{}};
    tile_state state{tile_state::blocked};
  };

  struct pending_fault {
    typename fabric_type::fault_kind kind{fabric_type::fault_kind::none};
    std::uint32_t src{0};
    std::uint32_t dst{0};
    std::uint32_t n{0};
    bool armed{false};
  };
  fabric_type fabric_{};
  pending_fault pending_{};
  tile tiles_[Tiles];
};

}  // namespace tessera::fw
