#include <ostream>

#include "commands.hpp"
#include "tessera/schedule/json_io.hpp"
#include "workload.hpp"

namespace tessera::cli {

const char* const schedule_help =
    R"(usage: tessera schedule --fabric F --collective C --algorithm A [--bytes N] [--json]

Prints every tile's op stream as schedule JSON (docs/schedule-format.md), ready for
`tessera analyze --schedule FILE` or for editing by hand. The output is JSON with or
without --json.
)";

int cmd_schedule(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
  const args a("schedule", argv, {"fabric", "collective", "algorithm", "bytes"}, {"json", "help"});
  if (a.flag("help")) {
    out << schedule_help;
    return 0;
  }
  const workload w = load_workload(a, a.require("algorithm"));
  out << schedule_to_json(w.sched) << '\n';
  return 0;
}

}  // namespace tessera::cli
