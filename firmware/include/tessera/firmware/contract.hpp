// A tile program's own contract: what each tile starts with, what it must hold at its end,
// and the memory it asks for, declared in the tile image as a table (the symbol
// `tessera_contract`) that both the tile and the platform read. With it a collective the
// catalog does not have (a halo exchange, a reduce-scatter of one's own) runs on the
// Cortex-M4 tiles and is checked byte by byte as the built-in ones are, without
// --collective or --algorithm (docs/tiles.md, "A contract of one's own").
//
// The blocks, named as the built-in collectives name them (payload.hpp):
// - inputs::data: each input tile s starts with `blocks` data blocks, block k of tile s
//   having id s * blocks + k and the bytes data_byte(id, offset);
// - inputs::contrib: each input tile s starts with `blocks` contribution blocks, block k
//   having id k and tile s's elements k E .. (k + 1) E - 1 (E = block bytes / element
//   bytes), as a reduction's inputs are.
// Each rule says which blocks some tiles hold at the end: data blocks of which sources
// (itself, every tile, its neighbours on the fabric, the tile at an offset, one tile), or
// contribution blocks folded over every tile (or, for a prefix, over tiles 0 .. t). Every
// block has the run's --bytes; reductions use the run's --type and --op.
//
// Freestanding (the tile image includes it): plain words only, so the table's layout is
// one on the Cortex-M4 and on the host.
#pragma once

#include <cstdint>

#include "tessera/firmware/payload.hpp"
#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::fw {

inline constexpr std::uint32_t contract_magic = 0x4352'5354U;  // "TSRC"
inline constexpr std::uint32_t contract_version = 1;
inline constexpr std::uint32_t max_contract_rules = 8;
inline constexpr std::uint32_t contract_name_bytes = 24;

namespace contract_terms {
// What the input tiles start with.
enum class inputs : std::uint32_t { data = 0, contrib = 1 };
// Which tiles a part of the contract concerns.
enum class tiles : std::uint32_t { every = 0, one = 1 };
// A rule's blocks: data blocks of sources, or a fold of contributions; none ends the
// table's rules.
enum class holds : std::uint32_t { none = 0, data = 1, fold = 2 };
// The sources of a data rule, relative to the holding tile t (fold rules: every, upto).
enum class from : std::uint32_t {
  self = 0,        // t itself
  every = 1,       // every tile
  neighbours = 2,  // the tiles one link away on the fabric (each once, never t)
  offset = 3,      // tile (t + arg) mod p
  tile = 4,        // tile arg
  upto = 5,        // fold only: tiles 0 .. t (an inclusive prefix)
};
// Which of a source's blocks: all of them, block t (the holder's number), or block arg.
enum class pick : std::uint32_t { all = 0, holder = 1, index = 2 };
}  // namespace contract_terms

// One rule: which blocks the tiles `at` hold at the end.
struct contract_rule {
  contract_terms::holds holds{contract_terms::holds::none};
  contract_terms::from from{contract_terms::from::self};
  std::int32_t arg{0};  // from::offset's offset, from::tile's tile
  contract_terms::pick pick{contract_terms::pick::all};
  std::uint32_t index{0};  // pick::index's block
  contract_terms::tiles at{contract_terms::tiles::every};
  std::uint32_t at_tile{0};  // tiles::one: which
};

// The table an image declares (TESSERA_CONTRACT, below); every word 32 bits.
struct contract {
  std::uint32_t magic{contract_magic};
  std::uint32_t version{contract_version};
  char name[contract_name_bytes]{};  // shown as the run's collective, NUL-terminated
  contract_terms::inputs inputs{contract_terms::inputs::data};
  contract_terms::tiles input_at{contract_terms::tiles::every};  // who starts with blocks
  std::uint32_t input_tile{0};                                   // tiles::one: which
  std::uint32_t blocks{1};  // blocks an input tile starts with; 0: one per tile (p)
  // The memory plan (memory_plan.hpp); 0: derived from the blocks (plan_of, below).
  std::uint32_t peak_blocks{0};  // blocks held at once (default: a tile's initial + final)
  std::uint32_t max_send{0};     // blocks of the largest send (default: the larger count)
  std::uint32_t max_recv{0};     // blocks of the largest receive (default: the same)
  std::uint32_t reserved{0};
  contract_rule rules[max_contract_rules]{};  // up to the first holds::none
};

static_assert(sizeof(contract_rule) == 28);
static_assert(sizeof(contract) == 64 + max_contract_rules * sizeof(contract_rule));
static_assert(alignof(contract) == 4);

// The rules before the first holds::none.
constexpr std::uint32_t rule_count(const contract& k) {
  std::uint32_t n = 0;
  while (n < max_contract_rules && k.rules[n].holds != contract_terms::holds::none)
    ++n;
  return n;
}

// The first problem of a table for fabric f, or nullptr when there is none. `which`
// names the rule at fault (0-based) for rule problems.
constexpr const char* contract_problem(const contract& k, const fabric& f, std::uint32_t& which) {
  using namespace contract_terms;
  const std::uint32_t p = f.tiles();
  which = max_contract_rules;
  if (k.magic != contract_magic) return "its magic is not a contract's";
  if (k.version != contract_version) return "its version is not this platform's (1)";
  bool terminated = false;
  for (char ch : k.name)
    terminated = terminated || ch == '\0';
  if (!terminated || k.name[0] == '\0') return "its name is empty or not NUL-terminated";
  if (static_cast<std::uint32_t>(k.inputs) > 1) return "its inputs are neither data nor contrib";
  if (static_cast<std::uint32_t>(k.input_at) > 1)
    return "its input tiles are neither every nor one";
  if (k.input_at == tiles::one && k.input_tile >= p)
    return "its input tile is not a tile of the fabric";
  if (k.blocks > 65536) return "it starts a tile with more than 65536 blocks";
  const std::uint32_t rules = rule_count(k);
  if (rules == 0) return "it has no rule: no tile would hold anything";
  const std::uint32_t n = k.blocks == 0 ? p : k.blocks;
  for (std::uint32_t i = 0; i < rules; ++i) {
    which = i;
    const contract_rule& r = k.rules[i];
    const bool fold = r.holds == holds::fold;
    if (static_cast<std::uint32_t>(r.holds) > 2) return "the rule holds neither data nor a fold";
    if (static_cast<std::uint32_t>(r.from) > 5)
      return "the rule's sources are none of self, every, neighbours, offset, tile, upto";
    if (static_cast<std::uint32_t>(r.pick) > 2)
      return "the rule's pick is none of all, holder, index";
    if (static_cast<std::uint32_t>(r.at) > 1) return "the rule's tiles are neither every nor one";
    if (r.at == tiles::one && r.at_tile >= p) return "the rule's tile is not a tile of the fabric";
    if (r.pick == pick::index && r.index >= n)
      return "the rule's block index is not one an input tile has";
    if (r.pick == pick::holder && n < p)
      return "the rule picks block t, but input tiles have fewer than p blocks";
    if (fold != (k.inputs == inputs::contrib))
      return "a fold needs contrib inputs, a data rule data inputs";
    if (fold && r.from != from::every && r.from != from::upto)
      return "a fold is over every tile or upto t";
    if (fold && k.input_at != tiles::every) return "a fold needs every tile's contribution";
    if (!fold && r.from == from::upto) return "upto goes with a fold";
    if (r.from == from::tile && (r.arg < 0 || static_cast<std::uint32_t>(r.arg) >= p))
      return "the rule's source tile is not a tile of the fabric";
  }
  return nullptr;
}

// The holdings a contract defines, with the interface of the built-in collectives'
// layout (payload.hpp): initial and final blocks per tile, whether a tile must hold
// exactly its final blocks, and the largest block. Precondition: contract_problem gave
// nullptr for this fabric.
class contract_layout {
 public:
  constexpr contract_layout(const contract& k, const fabric& f, std::uint32_t bytes, elem_type type)
      : k_{&k}, f_{f}, p_{f.tiles()}, bytes_{bytes}, type_{type} {
    n_ = k.blocks == 0 ? p_ : k.blocks;
  }

  [[nodiscard]] constexpr std::uint32_t slot_bytes() const { return bytes_; }
  [[nodiscard]] constexpr const contract& table() const { return *k_; }
  [[nodiscard]] constexpr std::uint32_t blocks_per_input() const { return n_; }
  // Data movement is exact; a reduction may keep partial results besides its final blocks.
  [[nodiscard]] constexpr bool exact() const { return k_->inputs == contract_terms::inputs::data; }

  template <typename F>
  constexpr void initial(std::uint32_t t, F&& emit) const {
    if (!is_input(t)) return;
    for (std::uint32_t b = 0; b < n_; ++b)
      emit(exact() ? data(t, b) : contrib(t, b));
  }

  // Tile t's final blocks, each once (a block two rules name is emitted by the first).
  template <typename F>
  constexpr void final_blocks(std::uint32_t t, F&& emit) const {
    const std::uint32_t rules = rule_count(*k_);
    for (std::uint32_t i = 0; i < rules; ++i) {
      const contract_rule& r = k_->rules[i];
      if (r.at == contract_terms::tiles::one && r.at_tile != t) continue;
      rule_blocks(r, t, [&](const block_desc& d) {
        if (!named_before(i, t, d.id)) emit(d);
      });
    }
  }

  // Which input block an id names: its source tile and its number there (contrib ids
  // name a block number only, source = p).
  constexpr void source_of(std::uint32_t id, std::uint32_t& source, std::uint32_t& number) const {
    if (exact()) {
      source = id / n_;
      number = id % n_;
    } else {
      source = p_;
      number = id;
    }
  }

 private:
  [[nodiscard]] constexpr bool is_input(std::uint32_t t) const {
    return k_->input_at == contract_terms::tiles::every || k_->input_tile == t;
  }
  [[nodiscard]] constexpr block_desc data(std::uint32_t s, std::uint32_t b) const {
    return block_desc{s * n_ + b, bytes_, content::data, 0, 0};
  }
  [[nodiscard]] constexpr std::uint32_t elems() const { return bytes_ / elem_bytes(type_); }
  [[nodiscard]] constexpr block_desc contrib(std::uint32_t s, std::uint32_t b) const {
    return block_desc{b, bytes_, content::contrib, s, b * elems()};
  }

  // The blocks of a rule's pick from source s for holder t.
  template <typename F>
  constexpr void picked(const contract_rule& r, std::uint32_t t, F&& each) const {
    switch (r.pick) {
      case contract_terms::pick::all:
        for (std::uint32_t b = 0; b < n_; ++b)
          each(b);
        return;
      case contract_terms::pick::holder:
        each(t);
        return;
      case contract_terms::pick::index:
        each(r.index);
        return;
    }
  }

  template <typename F>
  constexpr void rule_blocks(const contract_rule& r, std::uint32_t t, F&& emit) const {
    using contract_terms::from;
    if (r.holds == contract_terms::holds::fold) {
      const std::uint32_t last = r.from == from::upto ? t : p_ - 1;
      picked(r, t, [&](std::uint32_t b) {
        emit(block_desc{b, bytes_, content::fold, last, b * elems()});
      });
      return;
    }
    sources(r, t, [&](std::uint32_t s) {
      if (!is_input(s)) return;
      picked(r, t, [&](std::uint32_t b) { emit(data(s, b)); });
    });
  }

  template <typename F>
  constexpr void sources(const contract_rule& r, std::uint32_t t, F&& each) const {
    using contract_terms::from;
    switch (r.from) {
      case from::self:
        each(t);
        return;
      case from::every:
      case from::upto:
        for (std::uint32_t s = 0; s < p_; ++s)
          each(s);
        return;
      case from::neighbours:
        for (std::uint32_t port = 0; port < f_.ports(); ++port) {
          const auto nb = neighbour(f_, tile_id{t}, port);
          if (!nb || nb->value() == t) continue;
          bool seen = false;
          for (std::uint32_t q = 0; q < port; ++q) {
            const auto other = neighbour(f_, tile_id{t}, q);
            seen = seen || (other && other->value() == nb->value());
          }
          if (!seen) each(nb->value());
        }
        return;
      case from::offset: {
        const auto pp = static_cast<std::int64_t>(p_);
        const std::int64_t s = ((static_cast<std::int64_t>(t) + r.arg) % pp + pp) % pp;
        each(static_cast<std::uint32_t>(s));
        return;
      }
      case from::tile:
        each(static_cast<std::uint32_t>(r.arg));
        return;
    }
  }

  // Whether an earlier rule already gave tile t block `id`.
  [[nodiscard]] constexpr bool named_before(std::uint32_t rule, std::uint32_t t,
                                            std::uint32_t id) const {
    for (std::uint32_t i = 0; i < rule; ++i) {
      const contract_rule& r = k_->rules[i];
      if (r.at == contract_terms::tiles::one && r.at_tile != t) continue;
      if (names(r, t, id)) return true;
    }
    return false;
  }

  // Whether rule r gives tile t block `id`: decided from the id, without listing the
  // rule's blocks (a rule `from every` lists p of them).
  [[nodiscard]] constexpr bool names(const contract_rule& r, std::uint32_t t,
                                     std::uint32_t id) const {
    const bool fold = r.holds == contract_terms::holds::fold;
    const std::uint32_t number = fold ? id : id % n_;
    bool picked = false;
    switch (r.pick) {
      case contract_terms::pick::all:
        picked = number < n_;
        break;
      case contract_terms::pick::holder:
        picked = number == t;
        break;
      case contract_terms::pick::index:
        picked = number == r.index;
        break;
    }
    if (!picked || fold) return picked;
    const std::uint32_t source = id / n_;
    if (source >= p_ || !is_input(source)) return false;
    if (r.from == contract_terms::from::every) return true;
    bool found = false;
    sources(r, t, [&](std::uint32_t s) { found = found || s == source; });
    return found;
  }

  const contract* k_;
  fabric f_;
  std::uint32_t p_;
  std::uint32_t n_{1};
  std::uint32_t bytes_;
  elem_type type_;
};

// The memory plan a contract asks of tile t: its own words where it gives them, else
// bounds from its blocks (every block a tile starts and ends with held at once; a message
// as large as the larger of the two).
struct contract_plan {
  std::uint32_t peak_blocks{0};
  std::uint32_t max_send{0};
  std::uint32_t max_recv{0};
  std::uint32_t initial{0};
  std::uint32_t final{0};
};

constexpr contract_plan plan_of(const contract_layout& l, std::uint32_t t) {
  const contract& k = l.table();
  contract_plan pl;
  l.initial(t, [&](const block_desc&) { ++pl.initial; });
  l.final_blocks(t, [&](const block_desc&) { ++pl.final; });
  const std::uint32_t larger = pl.initial > pl.final ? pl.initial : pl.final;
  pl.peak_blocks = k.peak_blocks != 0 ? k.peak_blocks : pl.initial + pl.final;
  pl.max_send = k.max_send != 0 ? k.max_send : (larger > 0 ? larger : 1);
  pl.max_recv = k.max_recv != 0 ? k.max_recv : (larger > 0 ? larger : 1);
  if (pl.peak_blocks == 0) pl.peak_blocks = 1;
  return pl;
}

}  // namespace tessera::fw

// Declares the image's contract: TESSERA_CONTRACT = { ... }; at namespace scope, once per
// image (examples/firmware/halo_exchange.cpp). The tile library finds it by its symbol.
#define TESSERA_CONTRACT extern "C" [[gnu::used]] const ::tessera::fw::contract tessera_contract
