#include "tessera/analytic/chart.hpp"

#include <algorithm>
#include <sstream>

#include "tessera/runtime/routing.hpp"

namespace tessera::analytic {
namespace {

std::string tile_label(const fabric& f, std::uint32_t t) {
  if (f.kind != fabric_kind::hypercube) return std::to_string(t);
  std::string s(f.dim, '0');
  for (std::uint32_t b = 0; b < f.dim; ++b) {
    if ((t >> b) & 1U) s[f.dim - 1 - b] = '1';
  }
  return s;
}

}  // namespace

std::string link_chart(const fabric& f, const transfer_list& t,
                       const std::vector<std::uint32_t>& number_of) {
  std::vector<bool> used(f.link_slots(), false);
  std::vector<std::vector<std::uint32_t>> routes(t.all.size());
  for (std::size_t i = 0; i < t.all.size(); ++i) {
    for_each_hop(f, tile_id{t.all[i].src}, tile_id{t.all[i].dst}, [&](link_id l) {
      used[l.value()] = true;
      routes[i].push_back(l.value());
    });
  }
  std::vector<std::uint32_t> columns;
  std::vector<std::string> headers;
  std::vector<std::size_t> column_of(f.link_slots(), 0);
  std::size_t width = 1;
  for (const auto n : number_of)
    width = std::max(width, std::to_string(n).size());
  for (std::uint32_t l = 0; l < f.link_slots(); ++l) {
    if (!used[l]) continue;
    const auto ends = endpoints(f, link_id{l});
    column_of[l] = columns.size();
    columns.push_back(l);
    headers.push_back(tile_label(f, ends.from.value()) + ">" + tile_label(f, ends.to.value()));
    width = std::max(width, headers.back().size());
  }
  std::vector<std::string> rows;
  std::size_t label_width = 0;
  for (const auto& tr : t.all) {
    rows.push_back(tile_label(f, tr.src) + "->" + tile_label(f, tr.dst));
    label_width = std::max(label_width, rows.back().size());
  }

  std::ostringstream os;
  os << std::string(label_width, ' ');
  for (const auto& h : headers)
    os << ' ' << std::string(width - h.size(), ' ') << h;
  os << '\n';
  // Per column, the index of the transfer holding it in the current row (or none).
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> holder(columns.size(), none);
  for (std::size_t i = 0; i < t.all.size(); ++i) {
    for (std::uint32_t l : routes[i])
      holder[column_of[l]] = i;
    os << rows[i] << std::string(label_width - rows[i].size(), ' ');
    for (std::size_t col = 0; col < holder.size(); ++col) {
      const std::string cell = holder[col] == i ? std::to_string(number_of[i]) : ".";
      os << ' ' << std::string(width - cell.size(), ' ') << cell;
    }
    os << '\n';
  }
  return os.str();
}

}  // namespace tessera::analytic
