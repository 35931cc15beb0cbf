#include "tessera/analytic/link_load.hpp"

#include <algorithm>

#include "tessera/runtime/routing.hpp"

namespace tessera::analytic {

std::vector<round_load> round_loads(const fabric& f, const transfer_list& t) {
  std::vector<round_load> rounds(t.rounds);
  std::vector<std::vector<std::uint32_t>> by_step(t.rounds);
  for (std::uint32_t i = 0; i < t.all.size(); ++i) {
    const std::uint32_t step = t.all[i].step;
    if (step >= 1) by_step[step - 1].push_back(i);
  }
  std::vector<std::uint32_t> count(f.link_slots(), 0);
  std::vector<std::uint32_t> touched;
  for (std::uint32_t r = 0; r < t.rounds; ++r) {
    round_load& rl = rounds[r];
    rl.step = r + 1;
    touched.clear();
    for (std::uint32_t idx : by_step[r]) {
      const transfer& tr = t.all[idx];
      ++rl.transfers;
      rl.max_bytes = std::max(rl.max_bytes, tr.bytes);
      rl.all_exchange = rl.all_exchange && tr.exchange;
      std::uint32_t hops = 0;
      for_each_hop(f, tile_id{tr.src}, tile_id{tr.dst}, [&](link_id l) {
        ++hops;
        if (count[l.value()]++ == 0) touched.push_back(l.value());
        if (count[l.value()] > rl.max_link_load) {
          rl.max_link_load = count[l.value()];
          rl.hottest = l;
        }
      });
      rl.max_hops = std::max(rl.max_hops, hops);
    }
    for (std::uint32_t l : touched)
      count[l] = 0;
  }
  return rounds;
}

}  // namespace tessera::analytic
