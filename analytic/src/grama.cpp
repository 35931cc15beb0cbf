#include "tessera/analytic/grama.hpp"

#include <bit>

namespace tessera::analytic {
namespace {
std::uint64_t fw_elem(const fw::collective_params& c) {
  return elem_bytes(c.type);
}
}  // namespace

std::optional<grama_form> grama_cycles(const fw::collective_params& c, std::uint64_t ts,
                                       std::uint64_t tw) {
  using fw::collective;
  using fw::tb_algorithm;
  const std::uint64_t p = c.f.tiles();
  const std::uint64_t m = c.bytes;
  const bool cube = c.f.kind == fabric_kind::hypercube;
  const bool square = c.f.is_2d() && c.f.rows == c.f.cols;
  const bool ring = c.f.kind == fabric_kind::ring;
  const std::uint64_t lg =
      std::has_single_bit(p) ? static_cast<std::uint64_t>(std::countr_zero(p)) : 0;
  const std::uint64_t s = c.f.is_2d() ? c.f.rows : 0;
  switch (c.coll) {
    case collective::bcast:
      if (cube && c.alg == tb_algorithm::binomial)
        return grama_form{"(ts + tw m) log p", "slide 21 eq. (1)", (ts + tw * m) * lg};
      if (cube && c.alg == tb_algorithm::scatter_allgather && m % p == 0)
        return grama_form{"2 (ts log p + tw (p - 1) m / p)", "slide 70 eq. (10)",
                          2 * (ts * lg + tw * (p - 1) * (m / p))};
      break;
    case collective::reduce:
      if (cube && c.alg == tb_algorithm::binomial)
        return grama_form{"(ts + tw m) log p", "slide 21 eq. (1)", (ts + tw * m) * lg};
      if (cube && c.alg == tb_algorithm::rs_gather && (m / fw_elem(c)) % p == 0)
        return grama_form{"2 (ts log p + tw (p - 1) m / p)", "slide 70",
                          2 * (ts * lg + tw * (p - 1) * (m / p))};
      break;
    case collective::allreduce:
      if (cube && c.alg == tb_algorithm::recursive_doubling)
        return grama_form{"(ts + tw m) log p", "slide 37", (ts + tw * m) * lg};
      if (cube && c.alg == tb_algorithm::rs_allgather && (m / fw_elem(c)) % p == 0)
        return grama_form{"2 (ts log p + tw (p - 1) m / p)", "slide 71",
                          2 * (ts * lg + tw * (p - 1) * (m / p))};
      break;
    case collective::prefix:
      if (cube && c.alg == tb_algorithm::hypercube)
        return grama_form{"(ts + tw m) log p", "slides 37-41", (ts + tw * m) * lg};
      break;
    case collective::allgather:
    case collective::reduce_scatter:
      if (ring && c.alg == tb_algorithm::ring)
        return grama_form{"(ts + tw m)(p - 1)", "slide 34", (ts + tw * m) * (p - 1)};
      if (square && c.alg == tb_algorithm::mesh)
        return grama_form{"2 ts (sqrt p - 1) + tw m (p - 1)", "slide 34",
                          2 * ts * (s - 1) + tw * m * (p - 1)};
      if (cube && c.alg == tb_algorithm::hypercube)
        return grama_form{"ts log p + tw m (p - 1)", "slide 34 eq. (2)",
                          ts * lg + tw * m * (p - 1)};
      break;
    case collective::scatter:
    case collective::gather:
      if (cube)
        return grama_form{"ts log p + tw m (p - 1)", "slide 45 eq. (3)",
                          ts * lg + tw * m * (p - 1)};
      break;
    case collective::alltoall:
      if (ring && c.a2a == fw::a2a_algorithm::ring)
        return grama_form{"(ts + tw m p / 2)(p - 1)", "slide 52 eq. (4)",
                          ts * (p - 1) + tw * m * p * (p - 1) / 2};
      if (square && c.a2a == fw::a2a_algorithm::mesh)
        return grama_form{"(2 ts + tw m p)(sqrt p - 1)", "slide 55 eq. (5)",
                          (2 * ts + tw * m * p) * (s - 1)};
      if (cube && c.a2a == fw::a2a_algorithm::standard)
        return grama_form{"(ts + tw m p / 2) log p", "slide 58 eq. (6)",
                          (ts + tw * m * p / 2) * lg};
      if (cube && c.a2a == fw::a2a_algorithm::pairwise)
        return grama_form{"(ts + tw m)(p - 1)", "slide 63 eq. (7)", (ts + tw * m) * (p - 1)};
      break;
    case collective::shift:
      if (c.alg == tb_algorithm::direct)
        return grama_form{"ts + tw m", "slide 67 eq. (9)", ts + tw * m};
      if (ring && c.alg == tb_algorithm::ring) {
        const std::uint64_t q = c.shift % p;
        return grama_form{"(ts + tw m) min(q, p - q)", "slide 65",
                          (ts + tw * m) * (q < p - q ? q : p - q)};
      }
      break;
  }
  return std::nullopt;
}

}  // namespace tessera::analytic
