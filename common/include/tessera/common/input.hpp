// What users hand the host tools: files named by options, the JSON in them, and the
// text of their own values echoed back in error messages.
//
// Every read is bounded by the bytes actually read, never by the size a file reports,
// so an endless stream (/dev/zero, a pipe) is refused at the limit instead of being
// read until memory runs out. JSON is parsed straight from the file: a file of
// garbage fails at its first bad byte, and nesting deeper than max_json_depth is
// refused while parsing, before any deep structure exists. Every failure is one
// input_error line naming the option and the path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tessera {

inline constexpr std::uint32_t max_json_depth = 64;
inline constexpr std::uint64_t max_json_values = std::uint64_t{1} << 24;

// User text fit for a one-line message: control and non-ASCII bytes escaped as \xNN,
// cut after `max` characters with the full length given ("mesh:1111..." (300 bytes)).
std::string shown(std::string_view text, std::size_t max = 64);

// Text made safe for XML and HTML (& < > "), for the SVG and HTML the tools write.
std::string escape_markup(const std::string& s);

// A JSON value in a few words for an error message: scalars as they are (strings
// shown()), containers by kind and size ("an array of 3").
std::string json_brief(const nlohmann::json& v);

// The whole file, at most `limit` bytes. `option` names the option in errors
// ("--schedule").
std::string read_input_file(const std::string& option, const std::string& path,
                            std::uint64_t limit);

// One JSON document from the file, at most `limit` bytes and max_json_depth levels.
nlohmann::json read_json_file(const std::string& option, const std::string& path,
                              std::uint64_t limit);

// Parses an unsigned integer option value in [min, max]; input_error names the option
// and value ("--bytes 0 is too small, at least 1", "... is too large, at most 1073741824").
// `option` is the name without dashes ("bytes", "param ts").
unsigned long long parse_count(const std::string& option, const std::string& text,
                               unsigned long long max, unsigned long long min = 0);

// The same for text already in memory; `what` names it in errors ("schedule").
nlohmann::json parse_json_text(std::string_view text, const std::string& what);

}  // namespace tessera
