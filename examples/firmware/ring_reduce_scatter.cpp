// A reduce-scatter around a ring of one's own, with its own contract: every tile starts
// with p contribution blocks (block k holding its elements k E .. (k + 1) E - 1) and ends
// holding block t reduced over all p tiles with the run's --op on --type elements. The
// contract says exactly that (contrib inputs, one fold rule picking the holder's block), so
// the platform checks every element of every tile's result against the fold it computes
// itself (docs/tiles.md, "A contract of one's own").
//
// The program: in step s = 1 .. p-1 tile t sends its partial sum of block t - s to tile
// t + 1, dropping it, and receives tile t - 1's partial sum of block t - s - 1, which the
// executor combines into its own. Block b starts at tile b + 1 and gains one tile's
// contribution a step until tile b itself adds its own at step p - 1.
//
// Run it: tessera run --model tlm --tiles cortex-m4 --firmware ring_reduce_scatter.elf
//         --fabric ring:8 --bytes 64 --type f32 --op max
#include <cstdint>
#include <span>

#include "tessera/firmware/contract.hpp"
#include "tessera/runtime/ids.hpp"
#include "tessera/runtime/op.hpp"
#include "tile_app.hpp"

namespace ct = tessera::fw::contract_terms;

// p contribution blocks a tile; tile t ends with block t folded over every tile.
TESSERA_CONTRACT = {
    .name = "ring-reduce-scatter",
    .inputs = ct::inputs::contrib,
    .blocks = 0,
    .rules = {{.holds = ct::holds::fold, .from = ct::from::every, .pick = ct::pick::holder}},
};

namespace {

using namespace tessera;

class ring_reduce_scatter {
 public:
  ring_reduce_scatter(std::uint32_t p, std::uint32_t me) : p_{p}, me_{me} {}

  bool next(op& o, std::span<block_id> send, std::span<block_id> recv) {
    if (step_ + 1 >= p_) return false;
    ++step_;
    o = op{};
    o.step = step_;
    o.to = (me_ + 1) % p_;
    o.from = (me_ + p_ - 1) % p_;
    o.kind = o.to == o.from ? op_kind::exchange : op_kind::sendrecv;
    // The sent partial sum leaves the tile; the received one is combined into its own.
    o.flags = op_flag::release | op_flag::combine_in;
    send[0] = block_id{(me_ + p_ - step_) % p_};
    recv[0] = block_id{(me_ + 2 * p_ - step_ - 1) % p_};
    o.send_count = 1;
    o.recv_count = 1;
    return true;
  }
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
  tile::run(ring_reduce_scatter{b.tiles, b.tile});
}
