// A collective written from scratch for the Cortex-M4 tiles: an all-gather around a ring,
// in the form every tile program has (docs/tiles.md, "Bring your own collective"). Tile t
// starts with its own block (block id t, as the all-gather defines it) and, in step
// i = 1 .. p-1, sends the block it got last (first its own) to tile t+1 while it receives
// block t-i from tile t-1; after p-1 steps every tile holds all p blocks.
//
// Build it with the tile library: scripts/tile-image.sh ring_allgather.cpp ring_allgather.elf
// Run it: tessera run --model tlm --tiles cortex-m4 --firmware ring_allgather.elf
//         --fabric mesh:4x4 --collective allgather --algorithm ring
// The platform checks every block each tile ends with against the all-gather's
// definition, byte by byte.
#include <cstdint>
#include <span>

#include "tessera/firmware/collective.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/op.hpp"
#include "tile_app.hpp"

namespace {

using namespace tessera;

class ring_allgather {
 public:
  ring_allgather(const fw::collective_params& c, std::uint32_t me) : p_{c.f.tiles()}, me_{me} {}

  // The executor asks for the ops one by one; false when the program is over.
  bool next(op& o, std::span<block_id> send, std::span<block_id> recv) {
    if (step_ + 1 >= p_) return false;
    ++step_;
    o = op{};
    o.step = step_;
    o.to = (me_ + 1) % p_;
    o.from = (me_ + p_ - 1) % p_;
    // Two tiles are each other's both neighbours: one exchange.
    o.kind = o.to == o.from ? op_kind::exchange : op_kind::sendrecv;
    send[0] = block_id{(me_ + p_ - (step_ - 1)) % p_};
    recv[0] = block_id{(me_ + p_ - step_) % p_};
    o.send_count = 1;
    o.recv_count = 1;
    return true;
  }
  // The most block ids one op names, and the sends the tile leaves in flight.
  [[nodiscard]] std::uint32_t max_blocks() const { return 1; }
  [[nodiscard]] std::uint32_t async_slots() const { return 0; }

 private:
  std::uint32_t p_;
  std::uint32_t me_;
  std::uint32_t step_{0};
};

}  // namespace

int main() {
  const tile_abi::boot_block& b = tile::boot();
  tile::run(ring_allgather{tile::collective(b), b.tile});
}
