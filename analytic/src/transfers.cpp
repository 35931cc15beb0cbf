#include "tessera/analytic/transfers.hpp"

#include <algorithm>

namespace tessera::analytic {

transfer_list extract_transfers(const schedule& s) {
  transfer_list out;
  out.items.resize(s.tiles);
  for (std::uint32_t t = 0; t < s.tiles; ++t) {
    const auto& ops = s.programs[t].ops;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const sched_op& o = ops[i];
      out.rounds = std::max(out.rounds, o.step);
      if (o.kind == op_kind::idle) {
        out.items[t].push_back({slot_item::idle});
      } else if (o.sends()) {
        out.items[t].push_back({static_cast<std::uint32_t>(out.all.size())});
        out.all.push_back({t, o.to, o.step, static_cast<std::uint32_t>(i), o.send_bytes,
                           o.kind == op_kind::exchange});
      }
    }
  }
  return out;
}

}  // namespace tessera::analytic
