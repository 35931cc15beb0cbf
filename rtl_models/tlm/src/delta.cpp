#include "tessera/tlm/delta.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "tessera/analytic/thakur_delta.hpp"
#include "tessera/tlm/isolated.hpp"

namespace tessera::tlm_models {

std::vector<delta_cell> delta_cells() {
  std::vector<delta_cell> out;
  for (const auto& t : analytic::thakur_tables()) {
    for (std::size_t col = 0; col < t.meshes.size(); ++col) {
      for (std::size_t row = 0; row < t.bytes.size(); ++row) {
        delta_cell c;
        c.table = t.number;
        c.alg = t.alg;
        c.rows = t.meshes[col][0];
        c.cols = t.meshes[col][1];
        c.bytes = t.bytes[row];
        c.paper_s = t.seconds[row][col];
        c.fitted = t.number == 2 && c.rows == 4 && c.cols == 4;
        out.push_back(c);
      }
    }
  }
  return out;
}

cell_run run_delta_cell(fw::a2a_algorithm alg, std::uint32_t rows, std::uint32_t cols,
                        std::uint32_t bytes, const platform_options& o) {
  const std::string text = run_isolated([&] {
    fw::collective_params c;
    c.coll = fw::collective::alltoall;
    c.a2a = alg;
    c.f = parse_fabric("mesh:" + std::to_string(rows) + "x" + std::to_string(cols)).value;
    const std::uint32_t sample = std::min<std::uint32_t>(bytes, 64);
    c.bytes = sample;
    platform_options po = o;
    po.wire_scale = bytes / sample;
    const platform_outcome r = run_collective(c, po);
    std::ostringstream os;
    os << (r.run.verified ? "ok " : "failed ") << r.run.cycles << ' ' << r.run.failure;
    return os.str();
  });
  cell_run out;
  std::istringstream is(text);
  std::string tag;
  is >> tag >> out.cycles;
  out.ok = tag == "ok";
  std::getline(is, out.failure);
  if (!out.ok && out.failure.empty()) out.failure = text;
  return out;
}

delta_tlm_fit fit_delta_tlm(const platform_options& o) {
  // T_j = S a + b X_j over the five cells; normal equations of the 2 x 2 system.
  const analytic::thakur_table& t2 = analytic::thakur_tables()[0];
  platform_options zero = o;
  zero.wormhole.alpha = 0;
  const std::uint32_t steps = 4 * 4 - 1;  // PEX on 4 x 4
  double sxx = 0, sx = 0, sxy = 0, sy = 0;
  const double s = steps;
  std::vector<double> x(t2.bytes.size());
  for (std::size_t j = 0; j < t2.bytes.size(); ++j) {
    const cell_run r = run_delta_cell(t2.alg, 4, 4, t2.bytes[j], zero);
    x[j] = static_cast<double>(r.cycles);
    const double y = t2.seconds[j][0] * 1e6;  // us
    sxx += x[j] * x[j];
    sx += x[j];
    sxy += x[j] * y;
    sy += y;
  }
  const double n = static_cast<double>(t2.bytes.size());
  // minimise sum (s a + b x - y)^2:  [n s^2, s sx; s sx, sxx] [a; b] = [s sy; sxy]
  const double a11 = n * s * s, a12 = s * sx, a22 = sxx;
  const double r1 = s * sy, r2 = sxy;
  const double det = a11 * a22 - a12 * a12;
  delta_tlm_fit f;
  f.alpha_us = (r1 * a22 - a12 * r2) / det;
  f.beta_sat_us = (a11 * r2 - a12 * r1) / det;
  f.alpha_cycles = static_cast<std::uint64_t>(std::llround(f.alpha_us / f.beta_sat_us));
  double rss = 0;
  for (std::size_t j = 0; j < t2.bytes.size(); ++j) {
    const double model_us = (s * static_cast<double>(f.alpha_cycles) + x[j]) * f.beta_sat_us;
    const double e = model_us * 1e-6 - t2.seconds[j][0];
    rss += e * e;
  }
  f.rms_s = std::sqrt(rss / n);
  return f;
}

}  // namespace tessera::tlm_models
