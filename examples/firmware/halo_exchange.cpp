// A halo exchange, a collective the catalog does not have, with its own contract: every
// tile starts with one block of its own data (block t) and ends holding it and the block
// of each of its neighbours on the fabric (the tiles one link away: four inside a mesh,
// fewer at its edges, four on a torus, d on a d-cube). The image declares that in its
// TESSERA_CONTRACT, so the platform loads the initial blocks, plans the memory and checks
// every block each tile ends with from the table, without --collective or --algorithm
// (docs/tiles.md, "A contract of one's own").
//
// The program: one step per port (east, west, south, north on a mesh or torus): in step k
// the tile sends its block out of port k and receives the block that comes in from the
// opposite side, which is the neighbour's send of the same step. A peer it already sent
// to (or heard from) in an earlier step is skipped: on a 2-wide torus east and west are
// one tile.
//
// Build it: scripts/tile-image.sh halo_exchange.cpp halo_exchange.elf (or
// tessera_add_tile_image with an installed Tessera). Run it:
//   tessera run --model tlm --tiles cortex-m4 --firmware halo_exchange.elf --fabric mesh:4x4
// HALO_BUG (for tests/iss/own_contract.py): 1 leaves out the north step, so tiles miss the
// block of their northern neighbour; 2 receives the south step from the wrong side; 3 sends
// its block twice in the east step, where the receive expects one.
#include <cstdint>
#include <optional>
#include <span>

#include "tessera/firmware/contract.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/op.hpp"
#include "tessera/runtime/routing.hpp"
#include "tile_app.hpp"

#ifndef HALO_BUG
#define HALO_BUG 0
#endif

namespace ct = tessera::fw::contract_terms;

// One data block per tile; each tile ends with its own and its neighbours'.
TESSERA_CONTRACT = {
    .name = "halo-exchange",
    .inputs = ct::inputs::data,
    .blocks = 1,
    .rules = {{.holds = ct::holds::data, .from = ct::from::self},
              {.holds = ct::holds::data, .from = ct::from::neighbours}},
};

namespace {

using namespace tessera;

// The port whose neighbour sends what arrives in a step of port `port`: the opposite one.
std::uint32_t opposite(const fabric& f, std::uint32_t port) {
  if (f.kind == fabric_kind::hypercube) return port;  // the link is its own way back
  return port ^ 1U;                                   // east/west, south/north, +1/-1
}

class halo_exchange {
 public:
  halo_exchange(const fabric& f, std::uint32_t me) : f_{f}, me_{me} {}

  bool next(op& o, std::span<block_id> send, std::span<block_id> recv) {
    while (port_ < f_.ports()) {
      const std::uint32_t port = port_++;
      if (HALO_BUG == 1 && f_.is_2d() && port == static_cast<std::uint32_t>(port2d::north))
        continue;
      std::uint32_t in_port = opposite(f_, port);
      if (HALO_BUG == 2 && f_.is_2d() && port == static_cast<std::uint32_t>(port2d::south))
        in_port = port;  // the bug: listens on the side it sends to
      const std::optional<std::uint32_t> to = fresh(port, true);
      const std::optional<std::uint32_t> from = fresh(in_port, false);
      if (!to && !from) continue;
      o = op{};
      o.step = port + 1;
      if (to) {
        o.to = *to;
        send[0] = block_id{me_};
        o.send_count = 1;
        if (HALO_BUG == 3 && port == 0) {
          send[1] = block_id{me_};
          o.send_count = 2;
        }
      }
      if (from) {
        o.from = *from;
        recv[0] = block_id{*from};
        o.recv_count = 1;
      }
      o.kind = to && from ? (*to == *from ? op_kind::exchange : op_kind::sendrecv)
               : to       ? op_kind::send
                          : op_kind::recv;
      return true;
    }
    return false;
  }
  [[nodiscard]] std::uint32_t max_blocks() const { return HALO_BUG == 3 ? 2 : 1; }
  [[nodiscard]] std::uint32_t async_slots() const { return 0; }

 private:
  // The neighbour through `port`, unless there is none, it is this tile, or an earlier
  // step already sent to it (`sending`) or received from it.
  std::optional<std::uint32_t> fresh(std::uint32_t port, bool sending) const {
    const std::optional<tile_id> nb = neighbour(f_, tile_id{me_}, port);
    if (!nb || nb->value() == me_) return std::nullopt;
    for (std::uint32_t q = 0; q + 1 < port_; ++q) {
      const std::uint32_t earlier = sending ? q : opposite(f_, q);
      const std::optional<tile_id> other = neighbour(f_, tile_id{me_}, earlier);
      if (other && other->value() == nb->value()) return std::nullopt;
    }
    return nb->value();
  }

  fabric f_;
  std::uint32_t me_;
  std::uint32_t port_{0};
};

}  // namespace

int main() {
  const tile_abi::boot_block& b = tile::boot();
  tile::run(halo_exchange{tile::fabric_of(b), b.tile});
}
