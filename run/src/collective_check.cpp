#include "tessera/run/collective_check.hpp"

#include "tessera/common/errors.hpp"
#include "tessera/common/input.hpp"
#include "tessera/firmware/trees.hpp"
#include "tessera/runtime/reduce.hpp"

namespace tessera::run {
namespace {

std::string requirement_text(fw::a2a_requirement r) {
  switch (r) {
    case fw::a2a_requirement::power_of_two:
      return "a power-of-two tile count";
    case fw::a2a_requirement::even:
      return "an even tile count";
    case fw::a2a_requirement::two_d:
      return "a mesh or torus fabric";
    case fw::a2a_requirement::any:
      break;
  }
  return "nothing";
}

std::string suggestion(fw::a2a_requirement r) {
  switch (r) {
    case fw::a2a_requirement::power_of_two:
      return "use pex-gen, pex-gen-shift or gen";
    case fw::a2a_requirement::even:
      return "use linear or gen";
    case fw::a2a_requirement::two_d:
      return "use ring or gen";
    case fw::a2a_requirement::any:
      break;
  }
  return "";
}

std::string need_text(fw::fabric_need n) {
  switch (n) {
    case fw::fabric_need::power_of_two:
      return "a power-of-two tile count";
    case fw::fabric_need::torus:
      return "a torus fabric";
    default:
      return "a mesh or torus fabric";
  }
}

std::string usable_algorithms(fw::collective c, const fabric& f) {
  std::string out;
  for (const auto& a : fw::tb_algorithms) {
    if (a.coll != c || !fw::fabric_meets(a.needs, f)) continue;
    if (!out.empty()) out += ", ";
    out += a.name;
  }
  return out;
}

// The alltoall algorithms with exchanges, for --pair-sync's refusal.
std::string exchange_algorithms() {
  std::string out;
  for (const auto& a : fw::a2a_algorithms)
    if (fw::a2a_has_exchanges(a.alg)) out += (out.empty() ? "" : ", ") + std::string(a.name);
  return out;
}

}  // namespace

std::string algorithm_list(fw::collective c) {
  std::string out;
  fw::for_each_algorithm(
      c, [&](std::string_view name) { out += (out.empty() ? "" : ", ") + std::string(name); });
  return out;
}

void require_a2a_supported(fw::a2a_algorithm alg, const fabric& f, const std::string& spec) {
  if (fw::a2a_supported(alg, f)) return;
  const auto need = fw::info(alg).needs;
  const std::string has = need == fw::a2a_requirement::two_d
                              ? "is a " + std::string(kind_name(f.kind))
                              : "has " + std::to_string(f.tiles()) + " tiles";
  throw input_error("--algorithm " + std::string(fw::info(alg).name) + " needs " +
                    requirement_text(need) + ", but " + spec + " " + has + "; " + suggestion(need));
}

void resolve_algorithm(run_config& r) {
  const std::string coll{fw::info(r.c.coll).name};
  if (r.algorithm == "auto") {
    // run() chooses (tessera/run/choose.hpp), among the alltoall algorithms only.
    if (r.c.coll != fw::collective::alltoall) {
      throw input_error("--algorithm auto chooses among the alltoall algorithms; give " + coll +
                        " one of " + algorithm_list(r.c.coll));
    }
    return;
  }
  if (r.algorithm.empty()) {
    if (r.c.coll == fw::collective::alltoall)
      r.c.a2a = fw::default_a2a_algorithm(r.c.f);
    else
      r.c.alg = fw::default_algorithm(r.c.coll, r.c.f);
    r.algorithm = std::string(fw::algorithm_name(r.c));
    return;
  }
  if (!fw::parse_algorithm(r.algorithm, r.c)) {
    throw input_error("--algorithm '" + shown(r.algorithm) + "' is not " +
                      (r.c.coll == fw::collective::alltoall ? "an alltoall" : "a " + coll) +
                      " algorithm (available: " + algorithm_list(r.c.coll) + ")");
  }
}

void check_collective(const run_config& r) {
  const std::uint32_t p = r.c.f.tiles();
  const bool choose = r.algorithm == "auto";
  if (r.c.pair_sync && r.c.coll != fw::collective::alltoall)
    throw input_error("--pair-sync goes with --collective alltoall");
  if (r.c.pair_sync && !choose && !fw::a2a_has_exchanges(r.c.a2a)) {
    throw input_error("--pair-sync: alltoall algorithm " + r.algorithm +
                      " has no exchanges to synchronize (" + exchange_algorithms() + " have)");
  }
  if (r.c.coll == fw::collective::alltoall) {
    if (!choose) require_a2a_supported(r.c.a2a, r.c.f, r.fabric_spec);
    if (p > max_alltoall_tiles) {
      throw input_error("--fabric " + r.fabric_spec + " has " + std::to_string(p) +
                        " tiles; alltoall is limited to " + std::to_string(max_alltoall_tiles));
    }
  } else {
    const fw::fabric_need need = fw::needs(r.c.coll, r.c.alg);
    if (!fw::fabric_meets(need, r.c.f)) {
      const std::string has = need == fw::fabric_need::power_of_two
                                  ? "has " + std::to_string(p) + " tiles"
                                  : "is a " + std::string(kind_name(r.c.f.kind));
      throw input_error("--algorithm " + r.algorithm + " needs " + need_text(need) + ", but " +
                        r.fabric_spec + " " + has + "; use " + usable_algorithms(r.c.coll, r.c.f));
    }
  }
  if (r.c.root >= p) {
    throw input_error("--root " + std::to_string(r.c.root) + " is not a tile of " + r.fabric_spec +
                      " (tiles 0.." + std::to_string(p - 1) + ")");
  }
  fw::tree_family fam{};
  if (fw::is_edst(r.c, fam)) {
    const fw::tree_error e = fw::tree_support(fam, r.c.f, r.c.root);
    if (e != fw::tree_error::none) {
      throw input_error("--algorithm " + r.algorithm + " " + std::string(fw::tree_error_text(e)) +
                        ", but --fabric is " + r.fabric_spec);
    }
  }
  const fw::collective_info& ci = fw::info(r.c.coll);
  if (ci.reduction && !reduce_supported(r.c.type, r.c.rop)) {
    throw input_error("--op " + std::string(reduce_op_name(r.c.rop)) + " is not defined on " +
                      std::string(info(r.c.type).name) + " elements");
  }
  if (ci.reduction && r.c.bytes % elem_bytes(r.c.type) != 0) {
    throw input_error("--bytes " + std::to_string(r.c.bytes) + " is not a multiple of the " +
                      std::to_string(elem_bytes(r.c.type)) + "-byte " +
                      std::string(info(r.c.type).name) + " element");
  }
  if (r.c.coll == fw::collective::shift) {
    if (p < 2) throw input_error("--collective shift needs at least 2 tiles");
    if (r.c.shift == 0 || r.c.shift >= p) {
      throw input_error("--shift " + std::to_string(r.c.shift) + " is not between 1 and " +
                        std::to_string(p - 1) + " (p = " + std::to_string(p) + ")");
    }
  }
}

}  // namespace tessera::run
