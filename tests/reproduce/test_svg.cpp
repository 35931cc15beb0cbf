// The reproduction figures' SVG writer: text is escaped, a log axis leaves out the points
// it has no place for, paper series are marks and simulated ones lines.
#include <catch2/catch.hpp>
#include <string>

#include "tessera/pictures/figure.hpp"

using namespace tessera::pictures;

namespace {
std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
    ++n;
  return n;
}
}  // namespace

TEST_CASE("reproduce svg: escaped text, marks for the paper, a line for the model", "[reproduce]") {
  figure f;
  f.id = "demo";
  f.title = "t(m) < 1 ms & \"fast\"";
  f.x_label = "m, bytes";
  f.y_label = "time, us";
  f.log_x = true;
  // The paper's four points, one at m = 0, which a log axis cannot place.
  f.curves.push_back({"measured", true, {{0, 95}, {10, 99}, {100, 134}, {1000, 489}}, "t"});
  f.curves.push_back({"simulated", false, {{1, 95.4}, {10, 99}, {100, 134.4}, {1000, 489}}, "t"});
  f.curves.push_back({"empty", false, {}, ""});
  f.curves.push_back({"other", false, {{1, 2}, {10, 20}}, ""});
  const std::string svg = to_svg(f);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("t(m) &lt; 1 ms &amp; &quot;fast&quot;") != std::string::npos);
  CHECK(svg.find("m, bytes (log scale)") != std::string::npos);
  CHECK(svg.find(R"(data-name="measured" data-kind="paper" data-points="3")") != std::string::npos);
  CHECK(svg.find(R"(data-name="simulated" data-kind="simulated" data-points="4")") !=
        std::string::npos);
  CHECK(svg.find(R"(data-name="empty")") == std::string::npos);
  // Three marks in the plot and one in the legend; two polylines.
  CHECK(count(svg, "<circle") == 4);
  CHECK(count(svg, "<polyline") == 2);
  // One group, one colour: the measured marks and the simulated line share the first;
  // the ungrouped line takes the next.
  CHECK(count(svg, "#0072B2") == 3 + 1 + 1 + 1);  // marks, legend mark, line, legend line
  CHECK(count(svg, "#D55E00") == 2);              // the other line and its legend line
  // Decade ticks from 1 to 1000 on the log axis.
  for (const char* t : {">1<", ">10<", ">100<", ">1000<"})
    CHECK(svg.find(t) != std::string::npos);
}

TEST_CASE("reproduce svg: an envelope's three lines share a colour, solid, dashed, dotted",
          "[reproduce]") {
  figure f;
  f.id = "envelope";
  f.title = "envelope";
  f.x_label = "block, bytes";
  f.y_label = "time, us";
  f.curves.push_back({"a maximum", false, {{1, 30}, {2, 60}}, "a"});
  f.curves.push_back({"a average", false, {{1, 20}, {2, 40}}, "a"});
  f.curves.push_back({"a minimum", false, {{1, 10}, {2, 20}}, "a"});
  f.curves.push_back({"b maximum", false, {{1, 5}, {2, 6}}, "b"});
  const std::string svg = to_svg(f);
  // Each style twice (the line and its legend entry); group b starts solid again.
  CHECK(count(svg, R"(stroke-dasharray="7 4")") == 2);
  CHECK(count(svg, R"(stroke-dasharray="2 3")") == 2);
  CHECK(count(svg, "stroke-dasharray") == 4);
  CHECK(count(svg, "#0072B2") == 6);  // group a: three lines, three legend lines
  CHECK(count(svg, "#D55E00") == 2);  // group b
  const std::size_t avg = svg.find(R"(data-name="a average")");
  REQUIRE(avg != std::string::npos);
  CHECK(svg.find(R"(stroke-dasharray="7 4")", avg) < svg.find(R"(data-name="a minimum")"));
}
