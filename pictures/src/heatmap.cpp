#include "tessera/pictures/heatmap.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <tuple>

#include "tessera/pictures/svg.hpp"
#include "tessera/runtime/routing.hpp"
#include "trace_parts.hpp"

namespace tessera::pictures {
namespace {

struct pt {
  double x{0};
  double y{0};
};
pt operator+(pt a, pt b) {
  return {a.x + b.x, a.y + b.y};
}
pt operator-(pt a, pt b) {
  return {a.x - b.x, a.y - b.y};
}
pt operator*(pt a, double k) {
  return {a.x * k, a.y * k};
}
double norm(pt a) {
  return std::hypot(a.x, a.y);
}
pt unit(pt a) {
  const double n = norm(a);
  return n > 0 ? a * (1.0 / n) : pt{1, 0};
}
// The right-hand side of travel along d on screen (y grows downwards).
pt right_of(pt d) {
  return {-d.y, d.x};
}

constexpr double cell = 64.0;     // pixels between neighbouring tiles
constexpr double box = 0.40;      // a tile's square, in cells
constexpr double offset = 0.085;  // a link beside its reverse, in cells
constexpr double stroke = 0.075;  // link width, in cells

// Viridis, sampled at nine points (the perceptually uniform scale of matplotlib).
constexpr std::array<std::array<int, 3>, 9> viridis{{{68, 1, 84},
                                                     {72, 40, 120},
                                                     {62, 73, 137},
                                                     {49, 104, 142},
                                                     {38, 130, 142},
                                                     {31, 158, 137},
                                                     {53, 183, 121},
                                                     {110, 206, 88},
                                                     {253, 231, 37}}};

std::string colour(double v) {  // v in [0, 1]
  v = std::clamp(v, 0.0, 1.0) * (viridis.size() - 1);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(v), viridis.size() - 2);
  const double t = v - static_cast<double>(i);
  char buf[8];
  int rgb[3];
  for (std::size_t k = 0; k < 3; ++k)
    rgb[k] = static_cast<int>(std::lround(viridis[i][k] + t * (viridis[i + 1][k] - viridis[i][k])));
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return buf;
}

// Where each tile sits, in cells, and the panel's size.
struct layout {
  std::vector<pt> at;
  double width{1};
  double height{1};
  std::uint32_t low_bits{0};  // hypercube: dimensions laid out across
};

layout place(const fabric& f) {
  layout l;
  const std::uint32_t p = f.tiles();
  l.at.resize(p);
  switch (f.kind) {
    case fabric_kind::mesh:
    case fabric_kind::torus: {
      // A torus leaves room around the grid for its wrap links' stubs.
      const double pad = f.kind == fabric_kind::torus ? 0.35 : 0.0;
      for (std::uint32_t t = 0; t < p; ++t) {
        l.at[t] = {pad + static_cast<double>(t % f.cols), pad + static_cast<double>(t / f.cols)};
      }
      l.width = f.cols + 2 * pad;
      l.height = f.rows + 2 * pad;
      break;
    }
    case fabric_kind::hypercube: {
      l.low_bits = (f.dim + 1) / 2;
      const std::uint32_t mask = (std::uint32_t{1} << l.low_bits) - 1;
      for (std::uint32_t t = 0; t < p; ++t)
        l.at[t] = {static_cast<double>(t & mask), static_cast<double>(t >> l.low_bits)};
      l.width = static_cast<double>(mask + 1);
      l.height = static_cast<double>(p >> l.low_bits);
      break;
    }
    case fabric_kind::ring: {
      const double r = p < 3 ? 0.65 : 1.3 / (2 * std::sin(std::numbers::pi / p));
      for (std::uint32_t t = 0; t < p; ++t) {
        const double a = -std::numbers::pi / 2 + 2 * std::numbers::pi * t / p;
        l.at[t] = {r + r * std::cos(a), r + r * std::sin(a)};
      }
      l.width = l.height = 2 * r + 1;
      break;
    }
  }
  return l;
}

// The direction a mesh or torus port points, in cells.
pt port_dir(const std::string& name) {
  if (name == "E") return {1, 0};
  if (name == "W") return {-1, 0};
  if (name == "S") return {0, 1};
  return {0, -1};
}

// Links drawn as arrows, `scale` pixels a cell; dashed when the link carried nothing.
class link_painter {
 public:
  explicit link_painter(svg_writer& w) : w_{w} {}

  void arrow_line(pt a, pt b, const std::string& col, bool dashed, double scale) {
    const pt d = unit(b - a);
    const pt base = b - d * (0.16 * scale);
    w_.tag("line").attr("x1", a.x).attr("y1", a.y).attr("x2", base.x).attr("y2", base.y);
    stroked(col, dashed, scale);
    head(b, d, col, scale);
  }

  void arrow_curve(pt a, pt ctl, pt b, const std::string& col, bool dashed, double scale) {
    const pt d = unit(b - ctl);
    const pt base = b - d * (0.16 * scale);
    w_.tag("path")
        .attr("d", "M" + w_.num(a.x) + ' ' + w_.num(a.y) + " Q" + w_.num(ctl.x) + ' ' +
                       w_.num(ctl.y) + ' ' + w_.num(base.x) + ' ' + w_.num(base.y))
        .attr("fill", "none");
    stroked(col, dashed, scale);
    head(b, d, col, scale);
  }

  void stub(pt a, pt b, const std::string& col, bool dashed, double scale) {
    w_.tag("line").attr("x1", a.x).attr("y1", a.y).attr("x2", b.x).attr("y2", b.y);
    stroked(col, dashed, scale);
  }

 private:
  void stroked(const std::string& col, bool dashed, double scale) {
    w_.attr("stroke", col).attr("stroke-width", stroke * scale);
    if (dashed) w_.attr("stroke-dasharray", "3 3");
    w_.leaf();
  }

  void head(pt tip, pt d, const std::string& col, double scale) {
    const pt n = right_of(d);
    const pt base = tip - d * (0.18 * scale);
    const pt l = base + n * (0.09 * scale);
    const pt r = base - n * (0.09 * scale);
    w_.tag("polygon")
        .attr("points", w_.num(tip.x) + ',' + w_.num(tip.y) + ' ' + w_.num(l.x) + ',' +
                            w_.num(l.y) + ' ' + w_.num(r.x) + ',' + w_.num(r.y))
        .attr("fill", col)
        .leaf();
  }

  svg_writer& w_;
};

// One panel at (ox, oy) pixels, `scale` pixels a cell.
void draw_panel(svg_writer& w, const heatmap_input& in, const heatmap_panel& p, std::size_t index,
                const layout& l, double ox, double oy, double scale) {
  const fabric& f = in.f;
  link_painter paint{w};
  auto px = [&](pt c) { return pt{ox + (c.x + 0.5) * scale, oy + (c.y + 0.5) * scale}; };
  w.tag("g").attr("class", "panel").attr("data-panel", index).open();
  w.tag("text")
      .attr("x", ox + 2)
      .attr("y", oy - 6)
      .attr("font-size", std::max(9.0, 0.22 * scale))
      .attr("font-family", "sans-serif")
      .open()
      .text(p.title)
      .close("text");
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::string>, const heatmap_link*> given;
  for (const heatmap_link& x : p.links)
    given[std::make_tuple(x.from, x.to, x.name)] = &x;
  // Every link of the fabric, so one that carried nothing shows as unused.
  for (std::uint32_t t = 0; t < f.tiles(); ++t) {
    for (std::uint32_t port = 0; port < f.ports(); ++port) {
      const auto nb = neighbour(f, tile_id{t}, port);
      if (!nb) continue;
      const std::uint32_t to = nb->value();
      const std::string name = detail::port_name(f, port);
      const auto found = given.find(std::make_tuple(t, to, name));
      const heatmap_link* x = found == given.end() ? nullptr : found->second;
      const double v = x != nullptr ? x->value : 0.0;
      const bool unused = v <= 0.0;
      const std::string col = unused ? "#c8c8c8" : colour(v / in.scale_max);
      std::string tip = std::to_string(t) + "->" + std::to_string(to) + " " + name + ": ";
      tip += x != nullptr && !x->detail.empty() ? x->detail : (unused ? "unused" : w.num(v));
      w.tag("g")
          .attr("class", "link")
          .attr("data-from", t)
          .attr("data-to", to)
          .attr("data-name", name)
          .attr("data-value", v)
          .attr("data-colour", col)
          .open()
          .title(tip);
      const pt a = l.at[t];
      const pt b = l.at[to];
      const bool grid = f.kind == fabric_kind::mesh || f.kind == fabric_kind::torus;
      if (grid) {
        const pt d = port_dir(name);
        const pt side = right_of(d) * offset;
        const bool wrap = norm(b - a) > 1.5 || (a.x + d.x != b.x || a.y + d.y != b.y);
        if (!wrap) {
          paint.arrow_line(px(a + d * (box / 2 + 0.06) + side), px(b - d * (box / 2 + 0.06) + side),
                           col, unused, scale);
        } else {
          // A wrap link: out of the grid's edge at a, back in at b's opposite edge.
          paint.stub(px(a + d * (box / 2 + 0.06) + side), px(a + d * 0.75 + side), col, unused,
                     scale);
          paint.arrow_line(px(b - d * 0.75 + side), px(b - d * (box / 2 + 0.06) + side), col,
                           unused, scale);
        }
      } else {
        const pt d = unit(b - a);
        const pt side = right_of(d) * offset;
        const double span = norm(b - a);
        const pt from = a + d * (box / 2 + 0.06) + side;
        const pt end = b - d * (box / 2 + 0.06) + side;
        if (f.kind == fabric_kind::hypercube && span > 1.01) {
          // Long hypercube links bow out to the right of travel, more the longer they are.
          const pt ctl = (from + end) * 0.5 + right_of(d) * (0.22 * span);
          paint.arrow_curve(px(from), px(ctl), px(end), col, unused, scale);
        } else {
          paint.arrow_line(px(from), px(end), col, unused, scale);
        }
      }
      w.close("g");
    }
  }
  for (std::uint32_t t = 0; t < f.tiles(); ++t) {
    const pt c = px(l.at[t]);
    const double s = box * scale;
    w.tag("g").attr("class", "tile").attr("data-tile", t).open();
    w.tag("rect")
        .attr("x", c.x - s / 2)
        .attr("y", c.y - s / 2)
        .attr("width", s)
        .attr("height", s)
        .attr("rx", s / 6)
        .attr("fill", "#ffffff")
        .attr("stroke", "#555555")
        .leaf();
    if (scale >= 28) {
      w.tag("text")
          .attr("x", c.x)
          .attr("y", c.y + 0.09 * scale)
          .attr("text-anchor", "middle")
          .attr("font-size", 0.22 * scale)
          .attr("font-family", "sans-serif")
          .open()
          .text(std::to_string(t))
          .close("text");
    }
    w.close("g");
  }
  w.close("g").raw("\n");
}

}  // namespace

void write_heatmap(std::ostream& os, const heatmap_input& in) {
  const layout l = place(in.f);
  const std::size_t n = std::max<std::size_t>(in.panels.size(), 1);
  const std::size_t across =
      n == 1 ? 1 : static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  const std::size_t down = (n + across - 1) / across;
  const auto across_d = static_cast<double>(across);
  const auto down_d = static_cast<double>(down);
  // One panel at full size; small multiples shrink so the page stays about 1200 wide.
  double scale = cell;
  if (n > 1) scale = std::clamp(1100.0 / (across_d * (l.width + 0.6)), 14.0, cell);
  const double pw = (l.width + 0.6) * scale;
  const double ph = (l.height + 0.6) * scale + 22;
  const double margin = 20;
  const double top = 56;
  const double bar = 70;
  const double width = std::max(margin * 2 + across_d * pw, 680.0);
  const double height = top + down_d * ph + bar;
  svg_writer w{os, numbers::general6};
  w.root(w.num(width), w.num(height)).open().raw("\n");
  w.title(in.title + ": " + in.metric).raw("\n");
  w.background("#ffffff").raw("\n");
  w.tag("text")
      .attr("x", margin)
      .attr("y", 22)
      .attr("font-size", 15)
      .attr("font-family", "sans-serif")
      .open()
      .text(in.title)
      .close("text")
      .raw("\n");
  w.tag("text")
      .attr("x", margin)
      .attr("y", 40)
      .attr("font-size", 12)
      .attr("font-family", "sans-serif")
      .attr("fill", "#444444")
      .open()
      .text(in.metric)
      .close("text")
      .raw("\n");
  for (std::size_t i = 0; i < in.panels.size(); ++i) {
    const double ox = margin + static_cast<double>(i % across) * pw;
    const double oy = top + 18 + static_cast<double>(i / across) * ph;
    draw_panel(w, in, in.panels[i], i, l, ox, oy, scale);
  }
  // The scale: the colour ramp from 0 to scale_max with its ticks.
  const double bx = margin;
  const double by = top + down_d * ph + 16;
  const double bw = std::min(360.0, width - 2 * margin);
  w.tag("g").attr("class", "scale").attr("data-max", in.scale_max).open();
  w.tag("defs").open();
  w.tag("linearGradient")
      .attr("id", "ramp")
      .attr("x1", 0)
      .attr("x2", 1)
      .attr("y1", 0)
      .attr("y2", 0)
      .open();
  for (std::size_t i = 0; i < viridis.size(); ++i) {
    const double t = static_cast<double>(i) / (viridis.size() - 1);
    w.tag("stop").attr("offset", t).attr("stop-color", colour(t)).leaf();
  }
  w.close("linearGradient").close("defs");
  w.tag("rect")
      .attr("x", bx)
      .attr("y", by)
      .attr("width", bw)
      .attr("height", 14)
      .attr("fill", "url(#ramp)")
      .attr("stroke", "#555555")
      .leaf();
  std::vector<double> ticks;
  if (in.integer_scale && in.scale_max <= 8) {
    for (int k = 0; k <= static_cast<int>(in.scale_max); ++k)
      ticks.push_back(k);
  } else {
    for (int k = 0; k <= 4; ++k)
      ticks.push_back(in.scale_max * k / 4.0);
  }
  for (const double t : ticks) {
    const double x = bx + bw * (in.scale_max > 0 ? t / in.scale_max : 0);
    w.tag("line")
        .attr("x1", x)
        .attr("y1", by + 14)
        .attr("x2", x)
        .attr("y2", by + 19)
        .attr("stroke", "#555555")
        .leaf();
    w.tag("text")
        .attr("x", x)
        .attr("y", by + 31)
        .attr("text-anchor", "middle")
        .attr("font-size", 11)
        .attr("font-family", "sans-serif")
        .open()
        .text(w.num(in.integer_scale ? std::round(t) : t))
        .close("text");
  }
  w.tag("line")
      .attr("x1", bx + bw + 16)
      .attr("y1", by + 7)
      .attr("x2", bx + bw + 40)
      .attr("y2", by + 7)
      .attr("stroke", "#c8c8c8")
      .attr("stroke-width", 4)
      .attr("stroke-dasharray", "3 3")
      .leaf();
  w.tag("text")
      .attr("x", bx + bw + 46)
      .attr("y", by + 11)
      .attr("font-size", 11)
      .attr("font-family", "sans-serif")
      .open()
      .text("unused")
      .close("text");
  w.close("g").raw("\n");
  w.close("svg").raw("\n");
}

std::vector<heatmap_panel> step_panels(const fabric& f,
                                       const std::vector<harness::transfer_record>& transfers,
                                       double& max_load, dim_order order) {
  std::map<std::uint32_t, std::map<std::uint32_t, std::uint32_t>> load;  // step -> link -> n
  for (const harness::transfer_record& t : transfers) {
    if (t.header.kind != msg_kind::data) continue;
    auto& per = load[t.header.tag];
    for_each_hop(
        f, tile_id{t.header.src}, tile_id{t.header.dst}, [&](link_id l) { ++per[l.value()]; },
        order);
  }
  max_load = 0;
  std::vector<heatmap_panel> out;
  for (const auto& [step, per] : load) {
    heatmap_panel p;
    std::uint32_t top = 0;
    for (const auto& [link, n] : per) {
      const link_ends e = endpoints(f, link_id{link});
      const std::uint32_t port = link_port(f, link_id{link});
      heatmap_link x;
      x.from = e.from.value();
      x.to = e.to.value();
      x.name = detail::port_name(f, port);
      x.value = n;
      x.detail = std::to_string(n) + (n == 1 ? " message" : " messages") + " of step " +
                 std::to_string(step);
      p.links.push_back(std::move(x));
      top = std::max(top, n);
    }
    p.title = "step " + std::to_string(step) + " (max " + std::to_string(top) + ")";
    max_load = std::max<double>(max_load, top);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tessera::pictures
