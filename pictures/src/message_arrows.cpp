#include "message_arrows.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace tessera::pictures::detail {
namespace {

// An aggregate's key: kind (data first), when, sender block, receiver block. A data
// message's when is its step (its tag), over step_group; a control message's tag is a
// sequence number, so its when is the slice of the run its start falls in: the run in
// control_slices slices, over step_group.
using arrow_key = std::tuple<bool, std::uint64_t, std::uint32_t, std::uint32_t>;
constexpr std::uint64_t control_slices = 64;

struct grouping {
  std::uint32_t block{1};
  std::uint64_t steps{1};
  std::uint64_t t0{0};     // the first start
  std::uint64_t slice{1};  // cycles of a control slice
};

arrow_key key_of(const harness::transfer_record& t, const std::vector<std::uint32_t>& row_of,
                 const grouping& g) {
  const bool control = t.header.kind != msg_kind::data;
  const std::uint64_t when =
      control ? (t.start - g.t0) / g.slice / g.steps : t.header.tag / g.steps;
  return {control, when, row_of[t.header.src] / g.block, row_of[t.header.dst] / g.block};
}

std::size_t count_arrows(const std::vector<const harness::transfer_record*>& messages,
                         const std::vector<std::uint32_t>& row_of, const grouping& g) {
  std::vector<arrow_key> keys;
  keys.reserve(messages.size());
  for (const harness::transfer_record* t : messages)
    keys.push_back(key_of(*t, row_of, g));
  std::sort(keys.begin(), keys.end());
  return static_cast<std::size_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

}  // namespace

arrow_plan plan_arrows(const std::vector<const harness::transfer_record*>& messages,
                       const std::vector<std::uint32_t>& row_of, std::uint32_t rows,
                       std::uint64_t max_arrows) {
  arrow_plan p;
  if (messages.size() <= max_arrows) {
    for (const harness::transfer_record* t : messages) {
      const std::uint32_t src = row_of[t->header.src];
      const std::uint32_t dst = row_of[t->header.dst];
      p.arrows.push_back({{t},
                          t->header.kind == msg_kind::data,
                          src,
                          dst,
                          t->header.tag,
                          t->header.tag,
                          t->start,
                          t->end});
    }
    return p;
  }
  p.aggregated = true;
  grouping g;
  std::uint64_t last = 0;
  std::uint64_t last_step = 0;
  g.t0 = messages.front()->start;
  for (const harness::transfer_record* t : messages) {
    g.t0 = std::min(g.t0, t->start);
    last = std::max(last, t->start);
    last_step = std::max<std::uint64_t>(last_step, t->header.tag);
  }
  g.slice = std::max<std::uint64_t>((last - g.t0) / control_slices + 1, 1);
  // Blocks of rows first (the picture keeps every step apart), then runs of steps.
  while (count_arrows(messages, row_of, g) > max_arrows) {
    if (g.block < rows) {
      g.block = std::min(g.block * 2, rows);
    } else if (g.steps <= std::max(last_step, control_slices)) {
      g.steps *= 2;
    } else {
      break;  // one arrow per kind and block pair: nothing more to merge
    }
  }
  p.block_rows = g.block;
  p.step_group = g.steps;
  std::map<arrow_key, message_arrow> by_key;
  for (const harness::transfer_record* t : messages) {
    const arrow_key k = key_of(*t, row_of, g);
    auto [it, fresh] = by_key.try_emplace(k);
    message_arrow& a = it->second;
    if (fresh) {
      a.data = !std::get<0>(k);
      a.src_block = std::get<2>(k);
      a.dst_block = std::get<3>(k);
      a.first_step = a.last_step = t->header.tag;
      a.start = t->start;
      a.end = t->end;
    }
    a.messages.push_back(t);
    a.first_step = std::min<std::uint64_t>(a.first_step, t->header.tag);
    a.last_step = std::max<std::uint64_t>(a.last_step, t->header.tag);
    a.start = std::min(a.start, t->start);
    a.end = std::max(a.end, t->end);
  }
  // In time order, as single arrows are drawn.
  for (auto& [k, a] : by_key)
    p.arrows.push_back(std::move(a));
  std::stable_sort(p.arrows.begin(), p.arrows.end(),
                   [](const message_arrow& a, const message_arrow& b) {
                     return std::tie(a.start, a.end) < std::tie(b.start, b.end);
                   });
  return p;
}

std::string tile_ranges(const std::vector<std::uint32_t>& tiles) {
  std::string out;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    std::size_t end = i;
    while (end + 1 < tiles.size() && tiles[end + 1] == tiles[end] + 1)
      ++end;
    out += (out.empty() ? "" : ",") + std::to_string(tiles[i]);
    if (end > i) out += "-" + std::to_string(tiles[end]);
    i = end;
  }
  return out;
}

std::string aggregate_name(const message_arrow& m, const std::string& src, const std::string& dst) {
  const std::size_t n = m.messages.size();
  std::string out = std::to_string(n) + (m.data ? " data" : " control") +
                    (n == 1 ? " message" : " messages") + " from tiles " + src + " to tiles " + dst;
  if (!m.data) return out;
  if (m.first_step == m.last_step) return out + ", step " + std::to_string(m.first_step);
  return out + ", steps " + std::to_string(m.first_step) + " to " + std::to_string(m.last_step);
}

}  // namespace tessera::pictures::detail
