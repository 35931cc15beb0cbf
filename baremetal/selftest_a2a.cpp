// Complete exchange on the tile: every algorithm of fw::a2a_algorithms that a fabric
// supports delivers every block exactly once (a2a_delivery.hpp), and the check itself
// notices a damaged op stream.
#include <cstdint>
#include <span>
#include <string_view>

#include "a2a_delivery.hpp"
#include "selftest.hpp"
#include "selftest_tests.hpp"
#include "tessera/firmware/complete_exchange.hpp"
#include "tessera/runtime/fabric.hpp"

namespace tessera::selftest {
namespace {

// 8-tile fabrics; the longest stream is naive's 2(p - 1) ops, the most steps are p.
using checker = delivery_checker<8, 16>;
// Static storage: the checker's tables are larger than a tile stack should carry.
constinit checker the_checker;

constexpr std::string_view requirement_text(fw::a2a_requirement r) {
  switch (r) {
    case fw::a2a_requirement::any:
      return "any fabric";
    case fw::a2a_requirement::power_of_two:
      return "a power-of-two tile count";
    case fw::a2a_requirement::even:
      return "an even tile count";
    case fw::a2a_requirement::two_d:
      return "a 2D fabric";
  }
  return "?";
}

void print_where(line& l, const delivery_report& r) {
  l << describe(r.error) << " (tile " << r.tile;
  if (r.peer != no_tile) l << ", peer " << r.peer;
  l << ", step " << r.step << ", block " << r.block << ")";
}

struct parsed_fabric {
  fabric value;
  bool ok;
};

parsed_fabric parse(std::string_view spec) {
  const auto p = parse_fabric(spec);
  if (!p.ok()) check(false) << spec << ": " << describe(p.error);
  return {p.value, p.ok()};
}

bool a2a_delivers_on(std::string_view spec) {
  const auto [f, parsed] = parse(spec);
  if (!parsed) return false;
  bool all = true;
  std::uint32_t checked = 0;
  for (const fw::a2a_info& info : fw::a2a_algorithms) {
    if (!fw::a2a_supported(info.alg, f)) {
      line{} << "  skip " << info.name << " on " << spec << ": needs "
             << requirement_text(info.needs);
      continue;
    }
    const delivery_report r = the_checker.check(f, [&](tile_id t) {
      return fw::a2a_generator{info.alg, f, t};
    });
    const std::uint32_t want = f.tiles() * (f.tiles() - 1);
    const bool ok = r.ok() && r.delivered == want;
    line l = check(ok);
    l << info.name << " on " << spec << ": ";
    if (r.ok()) {
      l << r.delivered << "/" << want << " blocks delivered, " << r.messages << " messages, "
        << r.ops << " ops";
    } else {
      print_where(l, r);
    }
    all = all && ok;
    ++checked;
  }
  // A table or support rule that left nothing to check must not pass.
  check(checked > 0) << checked << " algorithms checked on " << spec;
  return all && checked > 0;
}

// A tile's generator with one op damaged: dropped, or handed out twice.
class damaged_generator {
 public:
  enum class damage : std::uint8_t { drop, repeat };

  constexpr damaged_generator(fw::a2a_generator g, bool victim, damage d, std::uint32_t at)
      : gen_{g}, victim_{victim}, damage_{d}, at_{at} {}

  [[nodiscard]] constexpr std::uint32_t max_blocks() const { return gen_.max_blocks(); }

  constexpr bool next(op& out, std::span<block_id> send, std::span<block_id> recv) {
    if (repeat_pending_) {
      // The caller left the buffers as the previous op filled them.
      repeat_pending_ = false;
      out = last_;
      return true;
    }
    if (!gen_.next(out, send, recv)) return false;
    if (!victim_ || n_++ != at_) return true;
    if (damage_ == damage::drop) return gen_.next(out, send, recv);
    last_ = out;
    repeat_pending_ = true;
    return true;
  }

 private:
  fw::a2a_generator gen_;
  bool victim_;
  damage damage_;
  std::uint32_t at_;
  std::uint32_t n_{0};
  bool repeat_pending_{false};
  op last_{};
};

// Damages op `at` (0-based) of tile 3's stream; that op must move blocks, or the
// damage is harmless (standard's odd ops are local shuffles).
bool rejects(std::string_view spec, fw::a2a_algorithm alg, damaged_generator::damage d,
             std::uint32_t at) {
  const auto [f, parsed] = parse(spec);
  if (!parsed) return false;
  constexpr std::uint32_t victim = 3;
  const delivery_report r = the_checker.check(f, [&](tile_id t) {
    return damaged_generator{fw::a2a_generator{alg, f, t}, t.value() == victim, d, at};
  });
  const bool ok = !r.ok();
  line l = check(ok);
  l << fw::info(alg).name << " on " << spec << " with tile " << victim << "'s op " << at
    << (d == damaged_generator::damage::drop ? " dropped" : " repeated") << ": ";
  if (ok) {
    print_where(l, r);
  } else {
    l << "not detected";
  }
  return ok;
}

}  // namespace

bool a2a_delivers_on_hypercube3() {
  return a2a_delivers_on("hypercube:3");
}

bool a2a_delivers_on_mesh2x4() {
  return a2a_delivers_on("mesh:2x4");
}

bool a2a_checker_rejects_damaged_streams() {
  using enum damaged_generator::damage;
  bool all = true;
  all = rejects("hypercube:3", fw::a2a_algorithm::pairwise, drop, 1) && all;
  all = rejects("hypercube:3", fw::a2a_algorithm::pairwise, repeat, 1) && all;
  all = rejects("mesh:2x4", fw::a2a_algorithm::ring, drop, 1) && all;
  all = rejects("mesh:2x4", fw::a2a_algorithm::ring, repeat, 1) && all;
  all = rejects("mesh:2x4", fw::a2a_algorithm::standard, drop, 2) && all;
  all = rejects("mesh:2x4", fw::a2a_algorithm::mesh, drop, 0) && all;
  all = rejects("mesh:2x4", fw::a2a_algorithm::naive, repeat, 8) && all;
  return all;
}

}  // namespace tessera::selftest
