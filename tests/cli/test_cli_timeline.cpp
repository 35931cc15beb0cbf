// Timeline pictures (tessera/pictures/timeline.hpp, docs/visualize.md): the SVG drawn from a
// hand-made trace_data, read back with a small parser. Every op and wait span is one
// rectangle of its kind at the x and width the picture's declared axis gives its
// cycles, every message one line from its sender's row at its start to its receiver's
// at its end, every step and link interval one rectangle, and text escaped. A run
// without op spans still draws the rest and says so, and a 512-tile run stays bounded.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/pictures/timeline.hpp"

namespace {

using tessera::harness::op_span;
using what = tessera::harness::op_span::what;

// One element of the SVG: its tag and attributes, and the text of its <title> child.
struct element {
  std::string tag;
  std::map<std::string, std::string> attr;
  std::string title;

  [[nodiscard]] double num(const std::string& key) const { return std::stod(attr.at(key)); }
  [[nodiscard]] std::string cls() const {
    const auto it = attr.find("class");
    return it == attr.end() ? "" : it->second;
  }
};

std::string unescaped(std::string s) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1))
      s.replace(at, from.size(), to);
  }
  return s;
}

// A small XML reader, enough for what write_timeline_svg writes: tags balance, text
// holds no raw '<', and every '&' starts one of the four entities escape_markup writes.
std::vector<element> parse_svg(const std::string& svg) {
  std::vector<element> out;
  std::vector<std::string> open;        // tags not yet closed
  std::vector<std::size_t> open_index;  // their elements in `out`
  std::size_t at = 0;
  while (at < svg.size()) {
    const std::size_t lt = svg.find('<', at);
    const std::string text = svg.substr(at, lt == std::string::npos ? lt : lt - at);
    for (std::size_t amp = text.find('&'); amp != std::string::npos;
         amp = text.find('&', amp + 1)) {
      const std::string rest = text.substr(amp, 6);
      INFO("text: " << text);
      CHECK((rest.rfind("&lt;", 0) == 0 || rest.rfind("&gt;", 0) == 0 ||
             rest.rfind("&amp;", 0) == 0 || rest.rfind("&quot;", 0) == 0));
    }
    if (!open.empty() && open.back() == "title" && !text.empty())
      out[open_index.back()].title += unescaped(text);
    if (lt == std::string::npos) break;
    const std::size_t gt = svg.find('>', lt);
    REQUIRE(gt != std::string::npos);
    const std::string tag = svg.substr(lt + 1, gt - lt - 1);
    at = gt + 1;
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      REQUIRE(!open.empty());
      REQUIRE(open.back() == tag.substr(1));
      if (open.back() == "title" && open_index.size() >= 2)
        out[open_index[open_index.size() - 2]].title = out[open_index.back()].title;
      open.pop_back();
      open_index.pop_back();
      continue;
    }
    element e;
    const bool empty = tag.back() == '/';
    const std::string body = empty ? tag.substr(0, tag.size() - 1) : tag;
    const std::size_t name_end = body.find_first_of(" \n");
    e.tag = body.substr(0, name_end);
    for (std::size_t p = name_end; p != std::string::npos && p < body.size();) {
      const std::size_t eq = body.find("=\"", p);
      if (eq == std::string::npos) break;
      const std::size_t key_start = body.find_first_not_of(" \n", p);
      const std::size_t close = body.find('"', eq + 2);
      REQUIRE(close != std::string::npos);
      const std::string value = body.substr(eq + 2, close - eq - 2);
      CHECK(value.find('<') == std::string::npos);
      e.attr[body.substr(key_start, eq - key_start)] = unescaped(value);
      p = close + 1;
    }
    out.push_back(std::move(e));
    if (!empty) {
      open.push_back(out.back().tag);
      open_index.push_back(out.size() - 1);
    }
  }
  CHECK(open.empty());
  return out;
}

std::vector<const element*> with_class(const std::vector<element>& all, const std::string& tag,
                                       const std::string& cls) {
  std::vector<const element*> out;
  for (const element& e : all)
    if (e.tag == tag && (e.cls() == cls || e.cls().rfind(cls + " ", 0) == 0)) out.push_back(&e);
  return out;
}

op_span make_span(what is, std::uint32_t tile, std::uint32_t index, tessera::op_kind kind,
                  std::uint32_t step, std::uint64_t start, std::uint64_t end,
                  std::uint32_t to = tessera::no_tile, std::uint32_t from = tessera::no_tile,
                  tessera::wait_kind waits = tessera::wait_kind::nothing) {
  op_span s;
  s.is = is;
  s.tile = tile;
  s.index = index;
  s.kind = kind;
  s.step = step;
  s.start = start;
  s.end = end;
  s.to = to;
  s.from = from;
  s.waits = waits;
  return s;
}

tessera::harness::transfer_record message(std::uint32_t src, std::uint32_t dst, tessera::msg_kind k,
                                          std::uint32_t step, std::uint64_t start,
                                          std::uint64_t end) {
  tessera::harness::transfer_record t;
  t.header.src = src;
  t.header.dst = dst;
  t.header.kind = k;
  t.header.tag = step;
  t.header.bytes = k == tessera::msg_kind::data ? 64 : 0;
  t.start = start;
  t.end = end;
  return t;
}

// A 4-tile ring: each tile's prologue (a barrier round as its wait), an exchange with
// its right neighbour in step 1 and a sendrecv around the ring in step 2 (each with its
// wait for data), an idle and a combine; tile 0 drains. Messages: a barrier message and
// one data message a step per tile. The two steps overlap; link 0->1 holds two worms at
// once.
tessera::run::trace_data ring_run(double us_per_cycle) {
  using tessera::msg_kind;
  using tessera::op_kind;
  using tessera::wait_kind;
  tessera::run::trace_data d;
  d.available = true;
  d.f = tessera::fabric::ring(4);
  d.title = "alltoall <ring> & \"test\" on ring:4";
  d.model = "tlm";
  d.us_per_cycle = us_per_cycle;
  d.cycles = 1000;
  d.spans_recorded = true;
  for (std::uint32_t t = 0; t < 4; ++t) {
    const std::uint32_t right = (t + 1) % 4;
    const std::uint32_t left = (t + 3) % 4;
    const std::uint64_t lag = 10 * t;  // tiles out of step, so steps overlap
    d.spans.push_back(make_span(what::prologue, t, 0, op_kind::idle, 0, 0, 100));
    d.spans.push_back(make_span(what::wait, t, 0, op_kind::idle, 0, 0, 60, tessera::no_tile, right,
                                wait_kind::sync));
    d.spans.push_back(
        make_span(what::op, t, 1, op_kind::exchange, 1, 100, 400 + lag, right, right));
    d.spans.push_back(make_span(what::wait, t, 1, op_kind::exchange, 1, 150, 400 + lag,
                                tessera::no_tile, right, wait_kind::data));
    d.spans.push_back(
        make_span(what::op, t, 2, op_kind::sendrecv, 2, 400 + lag, 700 + lag, right, left));
    d.spans.push_back(make_span(what::wait, t, 2, op_kind::sendrecv, 2, 450 + lag, 700 + lag,
                                tessera::no_tile, left, wait_kind::data));
    d.spans.push_back(make_span(what::op, t, 3, op_kind::idle, 3, 700 + lag, 800 + lag));
    d.spans.push_back(make_span(what::op, t, 4, op_kind::combine, 3, 800 + lag, 850 + lag));
    d.transfers.push_back(message(t, right, msg_kind::sync, 0, 10, 50));
    d.transfers.push_back(message(t, right, msg_kind::data, 1, 120, 390 + lag));
    d.transfers.push_back(message(t, right, msg_kind::data, 2, 420 + lag, 690 + lag));
  }
  d.spans.push_back(make_span(what::drain, 0, 5, tessera::op_kind::idle, 0, 850, 900));
  d.steps.push_back({1, 100, 420, 4, 256});
  d.steps.push_back({2, 400, 730, 4, 256});
  d.links.push_back({0, 1, 0, 120, 390, 0, 1});
  d.links.push_back({0, 1, 0, 200, 300, 3, 1});  // overlaps the first: a second lane
  d.links.push_back({3, 2, 1, 420, 690, 3, 2});
  return d;
}

std::string drawn(const tessera::run::trace_data& d, const tessera::pictures::trace_filter& f,
                  tessera::pictures::timeline_counts& n) {
  std::ostringstream os;
  n = tessera::pictures::write_timeline_svg(os, d, f);
  return os.str();
}

// The declared axis: pixels of a cycle, from the root element's attributes.
struct axis {
  double x0, k;
  std::uint64_t from, to;
  double x(std::uint64_t c) const {
    return x0 + static_cast<double>(std::clamp(c, from, to) - from) * k;
  }
};

axis axis_of(const std::vector<element>& all) {
  const element& root = all.front();
  REQUIRE(root.tag == "svg");
  return {root.num("data-x0"), root.num("data-px-per-cycle"),
          std::stoull(root.attr.at("data-from-cycle")), std::stoull(root.attr.at("data-to-cycle"))};
}

const char* class_of(const op_span& s) {
  using tessera::op_kind;
  if (s.is == what::wait) return "wait";
  if (s.is == what::prologue) return "op sync";
  if (s.is == what::drain) return "op drain";
  switch (s.kind) {
    case op_kind::exchange:
      return "op exchange";
    case op_kind::sendrecv:
      return "op sendrecv";
    case op_kind::send:
      return "op send";
    case op_kind::recv:
      return "op recv";
    case op_kind::idle:
      return "op idle";
    case op_kind::barrier:
    case op_kind::pair_sync:
      return "op sync";
    case op_kind::shuffle:
    case op_kind::combine:
      return "op compute";
  }
  return "?";
}

// Every kept span is one rectangle of its kind, on its tile's row, at its cycles.
void check_spans(const std::vector<element>& all, const tessera::run::trace_data& d,
                 const std::vector<const op_span*>& kept) {
  const axis a = axis_of(all);
  const double unit = d.us_per_cycle > 0 ? d.us_per_cycle : 1.0;
  std::map<std::string, std::size_t> want;
  for (const op_span* s : kept)
    ++want[class_of(*s)];
  std::size_t bars = 0;
  for (const auto& [cls, count] : want) {
    INFO(cls);
    CHECK(with_class(all, "rect", cls).size() == count);
    bars += count;
  }
  CHECK(with_class(all, "rect", "op").size() + with_class(all, "rect", "wait").size() == bars);
  std::set<const element*> used;
  for (const op_span* s : kept) {
    INFO("tile " << s->tile << " " << class_of(*s) << " " << s->start << ".." << s->end);
    const element* match = nullptr;
    for (const element* e : with_class(all, "rect", class_of(*s))) {
      if (std::stoul(e->attr.at("data-tile")) == s->tile &&
          e->num("data-start") == Approx(static_cast<double>(s->start) * unit) &&
          e->num("data-end") == Approx(static_cast<double>(s->end) * unit) && !used.count(e))
        match = e;
    }
    REQUIRE(match != nullptr);
    used.insert(match);
    CHECK(match->num("x") == Approx(a.x(s->start)).margin(0.006));
    CHECK(match->num("width") == Approx(a.x(s->end) - a.x(s->start)).margin(0.011));
    CHECK(match->title.find(s->is == what::wait ? "wait for" : "") != std::string::npos);
  }
}

// The y centre of tile t's row, from its op rectangles.
double row_centre(const std::vector<element>& all, std::uint32_t t) {
  for (const element* e : with_class(all, "rect", "op"))
    if (std::stoul(e->attr.at("data-tile")) == t) return e->num("y") + e->num("height") / 2;
  FAIL("no rectangle on tile " << t);
  return 0;
}

}  // namespace

TEST_CASE("timeline: a rectangle per span on the declared axis, a line per message",
          "[cli][timeline]") {
  for (const double us : {0.0, 0.394}) {
    INFO("us_per_cycle " << us);
    const tessera::run::trace_data d = ring_run(us);
    tessera::pictures::timeline_counts n;
    const std::string svg = drawn(d, {}, n);
    const std::vector<element> all = parse_svg(svg);
    const element& root = all.front();
    CHECK(root.attr.at("data-unit") == (us > 0 ? "us" : "cycle"));
    CHECK(root.attr.at("data-op-spans") == "true");
    CHECK(root.num("width") == 1200);

    std::vector<const op_span*> every;
    for (const op_span& s : d.spans)
      every.push_back(&s);
    check_spans(all, d, every);
    CHECK(n.spans == d.spans.size());
    CHECK(with_class(all, "rect", "op sync").size() == 4);  // the prologues
    CHECK(with_class(all, "rect", "op drain").size() == 1);
    CHECK(with_class(all, "rect", "merged").empty());

    // Every message once, from its sender's row at its start to its receiver's at its end.
    const axis a = axis_of(all);
    const auto lines = with_class(all, "line", "msg");
    CHECK(n.messages == d.transfers.size());
    REQUIRE(lines.size() == d.transfers.size());
    CHECK(with_class(all, "line", "msg data").size() == 8);
    CHECK(with_class(all, "line", "msg control").size() == 4);
    std::set<std::uint64_t> ids;
    for (const element* l : lines) {
      const std::uint64_t id = std::stoull(l->attr.at("data-id"));
      REQUIRE(id >= 1);
      REQUIRE(id <= d.transfers.size());
      ids.insert(id);
      const auto& t = d.transfers[id - 1];
      INFO("message " << id << " " << l->title);
      CHECK(std::stoul(l->attr.at("data-src")) == t.header.src);
      CHECK(std::stoul(l->attr.at("data-dst")) == t.header.dst);
      CHECK(l->num("x1") == Approx(a.x(t.start)).margin(0.006));
      CHECK(l->num("x2") == Approx(a.x(t.end)).margin(0.006));
      CHECK(l->num("y1") == Approx(row_centre(all, t.header.src)).margin(0.006));
      CHECK(l->num("y2") == Approx(row_centre(all, t.header.dst)).margin(0.006));
      CHECK(l->cls() == (t.header.kind == tessera::msg_kind::data ? "msg data" : "msg control"));
    }
    CHECK(ids.size() == d.transfers.size());

    // Two overlapping steps in two lanes; three link intervals on three link rows.
    const auto steps = with_class(all, "rect", "step");
    CHECK(n.steps == 2);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0]->num("y") != steps[1]->num("y"));
    const auto links = with_class(all, "rect", "link");
    CHECK(n.link_spans == 3);
    REQUIRE(links.size() == 3);
    std::set<std::string> link_rows;
    for (const element* l : links) {
      link_rows.insert(l->attr.at("data-link"));
      CHECK(l->num("x") == Approx(a.x(static_cast<std::uint64_t>(
                                      l->num("data-start") / (us > 0 ? us : 1.0) + 0.5)))
                               .margin(0.006));
    }
    CHECK(link_rows == std::set<std::string>{"0->1 +1", "0->1 +1 (2)", "3->2 -1"});

    // Names as the JSON trace gives them, text escaped, the legend and the axis.
    std::set<std::string> titles;
    for (const element& e : all)
      titles.insert(e.title.substr(0, e.title.find('\n')));
    CHECK(titles.count("exchange with 1"));
    CHECK(titles.count("sendrecv to 2 from 0"));
    CHECK(titles.count("wait for data from tile 3 (step 2)"));
    CHECK(titles.count("wait for barrier message from tile 1 (step 0)"));
    CHECK(titles.count("alltoall <ring> & \"test\" on ring:4: timeline"));
    CHECK(svg.find("<ring>") == std::string::npos);
    CHECK(svg.find("alltoall &lt;ring&gt; &amp; &quot;test&quot;") != std::string::npos);
    std::size_t keys = 0;
    for (const element& e : all)
      if (e.tag == "text" && e.attr.count("x") && e.cls().empty()) ++keys;
    CHECK(keys > 8);
    CHECK(svg.find(us > 0 ? "time (µs)" : "time (cycles)") != std::string::npos);
    CHECK(with_class(all, "text", "note").empty());
  }
}

TEST_CASE("timeline: a run without op spans still draws messages, steps and links",
          "[cli][timeline]") {
  tessera::run::trace_data d = ring_run(0.0);
  d.spans.clear();
  d.spans_recorded = false;
  tessera::pictures::timeline_counts n;
  const std::string svg = drawn(d, {}, n);
  const std::vector<element> all = parse_svg(svg);
  CHECK(all.front().attr.at("data-op-spans") == "false");
  CHECK(n.spans == 0);
  CHECK(with_class(all, "rect", "op").empty());
  CHECK(n.messages == d.transfers.size());
  CHECK(with_class(all, "line", "msg").size() == d.transfers.size());
  CHECK(n.steps == 2);
  CHECK(n.link_spans == 3);
  const auto notes = with_class(all, "text", "note");
  REQUIRE(notes.size() == 1);
  CHECK(svg.find("Op spans were not recorded") != std::string::npos);
  // The tile rows are there for the messages to run between.
  std::size_t rows = 0;
  for (const element& e : all)
    if (e.cls() == "row-name") ++rows;
  CHECK(rows == 4 + 2 + 3);  // tiles, step lanes, link rows
}

TEST_CASE("timeline: the filter's tiles and window", "[cli][timeline]") {
  const tessera::run::trace_data d = ring_run(0.0);
  tessera::pictures::trace_filter f;
  f.tiles = {false, true, true, false};
  f.from = 300;
  f.to = 700;
  tessera::pictures::timeline_counts n;
  const std::string svg = drawn(d, f, n);
  const std::vector<element> all = parse_svg(svg);
  const axis a = axis_of(all);
  CHECK(a.from == 300);
  CHECK(a.to == 700);
  std::vector<const op_span*> kept;
  for (const op_span& s : d.spans)
    if ((s.tile == 1 || s.tile == 2) && s.end >= 300 && s.start < 700) kept.push_back(&s);
  check_spans(all, d, kept);
  CHECK(n.spans == kept.size());
  for (const element* e : with_class(all, "rect", "op")) {
    CHECK(e->num("x") >= a.x0 - 1e-9);
    CHECK(e->num("x") + e->num("width") <= a.x0 + 1010 + 0.011);
  }
  // Messages between the kept tiles in the window: 1->2 in steps 1 and 2. Those to or
  // from tiles without a row are left out, and the picture says how many.
  CHECK(n.messages == 2);
  for (const element* l : with_class(all, "line", "msg")) {
    CHECK(l->attr.at("data-src") == "1");
    CHECK(l->num("x1") >= a.x0 - 1e-9);  // cut to the window
  }
  CHECK(svg.find("4 messages to or from tiles without a row left out") != std::string::npos);
  CHECK(svg.find("window cycles 300 to 700") != std::string::npos);
  CHECK(svg.find("2 of 4 tiles kept") != std::string::npos);
}

TEST_CASE("timeline: a 512-tile run stays a bounded picture", "[cli][timeline]") {
  using tessera::op_kind;
  tessera::run::trace_data d;
  d.available = true;
  d.f = tessera::fabric::hypercube(9);
  d.title = "alltoall on hypercube:9";
  d.model = "tlm";
  d.spans_recorded = true;
  constexpr std::uint32_t ops = 300;
  for (std::uint32_t t = 0; t < 512; ++t) {
    for (std::uint32_t i = 0; i < ops; ++i) {
      const std::uint64_t at = 10 * std::uint64_t{i};
      const std::uint32_t peer = t ^ (1U + i % 511);
      d.spans.push_back(
          make_span(what::op, t, i + 1, op_kind::exchange, i + 1, at, at + 10, peer, peer));
      d.spans.push_back(make_span(what::wait, t, i + 1, op_kind::exchange, i + 1, at + 2, at + 10,
                                  tessera::no_tile, peer, tessera::wait_kind::data));
      d.transfers.push_back(message(t, peer, tessera::msg_kind::data, i + 1, at + 1, at + 9));
    }
  }
  for (std::uint32_t i = 0; i < ops; ++i)
    d.steps.push_back({i + 1, 10 * std::uint64_t{i}, 10 * std::uint64_t{i} + 10, 512, 512 * 64});
  for (std::uint32_t t = 0; t < 512; ++t)
    for (std::uint32_t k = 0; k < 9; ++k)
      d.links.push_back({t, t ^ (1U << k), k, 5, 9, t, t ^ (1U << k)});
  d.cycles = 10 * ops;
  tessera::pictures::timeline_counts n;
  const std::string svg = drawn(d, {}, n);
  CHECK(svg.size() < 20'000'000);
  const std::vector<element> all = parse_svg(svg);
  std::size_t rects = 0;
  std::size_t elements = 0;
  for (const element& e : all) {
    if (e.tag == "rect" && e.cls() != "band" && e.cls() != "key") ++rects;
    ++elements;
  }
  CHECK(rects <= tessera::pictures::timeline_max_bars + 2);  // the background and the pattern's
  CHECK(elements < 200'000);
  // Messages between two of the 256 rows: every one drawn, in at most
  // timeline_max_arrows aggregate arrows whose counts add up to them.
  std::uint64_t between_rows = 0;
  for (const auto& t : d.transfers)
    if (t.header.src < 256 && t.header.dst < 256) ++between_rows;
  CHECK(n.messages == between_rows);
  const auto arrows = with_class(all, "line", "msg");
  CHECK(arrows.size() == n.arrows);
  CHECK(n.arrows <= tessera::pictures::timeline_max_arrows);
  std::uint64_t counted = 0;
  for (const element* l : arrows) {
    CHECK(l->cls().find("aggregate") != std::string::npos);
    counted += std::stoull(l->attr.at("data-count"));
  }
  CHECK(counted == between_rows);
  CHECK(svg.find("Tile rows: the first 256 of 512 tiles; 256 tiles left out") != std::string::npos);
  CHECK(svg.find("Link rows: 256 drawn; 4352 left out") != std::string::npos);
  CHECK(svg.find("Messages: " + std::to_string(between_rows) + " in " + std::to_string(n.arrows) +
                 " arrows") != std::string::npos);
  // Narrow spans merged into bars that count them: with the ones drawn on their own,
  // every op of the 256 rows drawn.
  const auto merged = with_class(all, "rect", "merged");
  CHECK(!merged.empty());
  std::uint64_t ops_shown = with_class(all, "rect", "op").size();
  for (const element* e : merged)
    if (e->attr.at("data-what") == "spans") ops_shown += std::stoull(e->attr.at("data-count"));
  CHECK(ops_shown == 256 * ops);
  CHECK(n.spans == with_class(all, "rect", "op").size() + with_class(all, "rect", "wait").size());
  std::size_t tile_rows = 0;
  for (const element& e : all)
    if (e.cls() == "row-name" && e.title.empty()) ++tile_rows;
  CHECK(tile_rows <= 256 + tessera::pictures::timeline_max_step_lanes + 256);
}
