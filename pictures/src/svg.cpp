#include "tessera/pictures/svg.hpp"

#include <cstdio>

#include "tessera/common/input.hpp"

namespace tessera::pictures {
namespace {

std::string printed(const char* format, int digits, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, digits, v);
  return buf;
}

}  // namespace

std::string significant(double v, int digits) {
  return printed("%.*g", digits, v);
}

std::string number(double v, numbers style) {
  switch (style) {
    case numbers::fixed2:
      return printed("%.*f", 2, v);
    case numbers::trimmed2: {
      std::string s = printed("%.*f", 2, v);
      while (s.back() == '0')
        s.pop_back();
      if (s.back() == '.') s.pop_back();
      return s == "-0" ? "0" : s;
    }
    case numbers::general6:
      break;
  }
  return significant(v, 6);
}

svg_writer& svg_writer::root(std::string_view width, std::string_view height) {
  os_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height << '"';
  return *this;
}

svg_writer& svg_writer::tag(std::string_view name) {
  os_ << '<' << name;
  return *this;
}

svg_writer& svg_writer::attr(std::string_view name, double v) {
  os_ << ' ' << name << "=\"" << num(v) << '"';
  return *this;
}

svg_writer& svg_writer::attr(std::string_view name, std::string_view value) {
  os_ << ' ' << name << "=\"" << escape_markup(std::string{value}) << '"';
  return *this;
}

svg_writer& svg_writer::open() {
  os_ << '>';
  return *this;
}

svg_writer& svg_writer::leaf() {
  os_ << "/>";
  return *this;
}

svg_writer& svg_writer::close(std::string_view name) {
  os_ << "</" << name << '>';
  return *this;
}

svg_writer& svg_writer::text(std::string_view s) {
  os_ << escape_markup(std::string{s});
  return *this;
}

svg_writer& svg_writer::title(std::string_view s) {
  return tag("title").open().text(s).close("title");
}

svg_writer& svg_writer::background(std::string_view fill) {
  os_ << "<rect width=\"100%\" height=\"100%\"";
  return attr("fill", fill).leaf();
}

svg_writer& svg_writer::raw(std::string_view markup) {
  os_ << markup;
  return *this;
}

}  // namespace tessera::pictures
