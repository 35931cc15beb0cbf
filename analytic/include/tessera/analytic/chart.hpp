// A Bokhari-style link-usage chart (Bokhari91, Figs. 5-9): one row per
// transfer, one column per directed link used, each entry the slot (circuit) or
// round (otherwise) in which the transfer holds that link; '.' where it does not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/analytic/transfers.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::analytic {

// Charts are for reading: refuse fabrics with more tiles than this.
inline constexpr std::uint32_t max_chart_tiles = 64;

// number_of[i] is the entry printed for transfer i.
std::string link_chart(const fabric& f, const transfer_list& t,
                       const std::vector<std::uint32_t>& number_of);

}  // namespace tessera::analytic
