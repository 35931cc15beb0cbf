// The schedule JSON format (docs/schedule-format.md).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tessera/schedule/schedule.hpp"

namespace tessera {

// Throws input_error naming the offending field and value.
schedule schedule_from_json(std::string_view text);
// The same from a parsed document (tessera/common/input.hpp reads files).
schedule schedule_from_value(const nlohmann::json& j);

std::string schedule_to_json(const schedule& s);

}  // namespace tessera
