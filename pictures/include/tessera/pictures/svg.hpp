// The one SVG writer under every picture Tessera draws (the heat map, the timeline, the
// reproduction figures, the sweep's load-latency plot): a document written straight to
// a stream, tag by tag, attributes in the order given, text and attribute values escaped
// (escape_markup), numbers in the document's style. A picture of a 512-tile run holds
// tens of thousands of elements, so nothing is held as a tree.
#pragma once

#include <concepts>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace tessera::pictures {

// How a document writes its coordinates and lengths.
enum class numbers : std::uint8_t {
  fixed2,    // "12.50", "3.00": two decimals (the figures)
  trimmed2,  // "12.5", "3": to a hundredth, trailing zeros dropped, never "-0" (timelines)
  general6,  // "12.5", "1e+06": six significant digits (heat maps)
};

// v in the style.
std::string number(double v, numbers style);
// v to `digits` significant digits, printf's %g: tick labels and times in data
// attributes, whose precision is the reader's, not the page's.
std::string significant(double v, int digits);

class svg_writer {
 public:
  svg_writer(std::ostream& os, numbers style) : os_{os}, style_{style} {}

  // The root's start tag up to its viewBox (`<svg xmlns=... width height viewBox`), the
  // page's size as the document prints it; the document adds its own attributes, then
  // open().
  svg_writer& root(std::string_view width, std::string_view height);
  // A start tag's name; then attributes, then open() or leaf().
  svg_writer& tag(std::string_view name);
  svg_writer& attr(std::string_view name, double v);  // in the document's style
  template <std::integral I>
  svg_writer& attr(std::string_view name, I v) {
    os_ << ' ' << name << "=\"" << v << '"';
    return *this;
  }
  svg_writer& attr(std::string_view name, std::string_view value);  // escaped
  svg_writer& attr(std::string_view name, const char* value) {
    return attr(name, std::string_view{value});
  }
  svg_writer& attr(std::string_view name, const std::string& value) {
    return attr(name, std::string_view{value});
  }
  svg_writer& open();  // ">": the element holds more
  svg_writer& leaf();  // "/>": the element is whole
  svg_writer& close(std::string_view name);
  // Character data, escaped.
  svg_writer& text(std::string_view s);
  // <title>s</title>: the document's name, or an element's tooltip.
  svg_writer& title(std::string_view s);
  // The page's colour under everything drawn.
  svg_writer& background(std::string_view fill);
  // Markup written as it is: line breaks, a part of the document written before.
  svg_writer& raw(std::string_view markup);

  [[nodiscard]] std::string num(double v) const { return number(v, style_); }

 private:
  std::ostream& os_;
  numbers style_;
};

}  // namespace tessera::pictures
