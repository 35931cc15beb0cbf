#include "tessera/analytic/slots.hpp"

#include "tessera/runtime/routing.hpp"

namespace tessera::analytic {

slot_schedule schedule_slots(const fabric& f, const transfer_list& t) {
  slot_schedule out;
  out.slot_of.assign(t.all.size(), 0);
  const std::uint32_t tiles = static_cast<std::uint32_t>(t.items.size());
  std::vector<std::size_t> next(tiles, 0);
  std::vector<bool> lost(t.all.size(), false);
  // busy_in[l] == slot means link l is held in that slot; last_use[l] for reuse gaps.
  std::vector<std::uint32_t> busy_in(f.link_slots(), 0);
  std::vector<std::uint32_t> last_use(f.link_slots(), 0);
  std::vector<link_id> path(max_hops(f));

  std::vector<std::uint32_t> active;
  for (std::uint32_t s = 0; s < tiles; ++s) {
    if (!t.items[s].empty()) active.push_back(s);
  }
  std::uint32_t slot = 0;
  while (!active.empty()) {
    ++slot;
    std::uint32_t placed = 0;
    std::size_t keep = 0;
    for (std::uint32_t s : active) {  // ascending tile order: lowest source wins
      const slot_item item = t.items[s][next[s]];
      bool done = true;
      if (item.transfer != slot_item::idle) {
        const transfer& tr = t.all[item.transfer];
        const std::uint32_t hops = route(f, tile_id{tr.src}, tile_id{tr.dst}, path);
        bool free = true;
        for (std::uint32_t h = 0; h < hops && free; ++h)
          free = busy_in[path[h].value()] != slot;
        if (free) {
          for (std::uint32_t h = 0; h < hops; ++h) {
            const std::uint32_t l = path[h].value();
            busy_in[l] = slot;
            if (last_use[l] != 0) {
              const std::uint32_t gap = slot - last_use[l];
              if (out.min_reuse_gap == 0 || gap < out.min_reuse_gap) {
                out.min_reuse_gap = gap;
                out.min_gap_link = path[h];
              }
            }
            last_use[l] = slot;
          }
          out.slot_of[item.transfer] = slot;
          ++placed;
        } else {
          lost[item.transfer] = true;
          done = false;
        }
      }
      if (done) ++next[s];
      if (next[s] < t.items[s].size()) active[keep++] = s;
    }
    active.resize(keep);
    out.transfers_per_slot.push_back(placed);
  }
  out.slots = slot;
  for (bool l : lost)
    out.delayed += l ? 1U : 0U;
  return out;
}

}  // namespace tessera::analytic
