#include <ostream>

#include "commands.hpp"
#include "tessera/schedule/json_io.hpp"
#include "workload.hpp"

namespace tessera::cli {

command_line schedule_command_line() {
  command_line c(
      "schedule", "tessera schedule --fabric F --collective C --algorithm A [--bytes N] [--json]",
      R"(Prints every tile's op stream as schedule JSON (docs/schedule-format.md), ready for
`tessera analyze --schedule FILE` or for editing by hand. The output is JSON with or
without --json.)");
  c.value("fabric", "F", "mesh:RxC, torus:RxC, hypercube:D, ring:P")
      .value("collective", "C", "alltoall (complete exchange)")
      .value("algorithm", "A", "an alltoall algorithm, as tessera analyze --algorithm takes it")
      .value("bytes", "N", "bytes per block (default 1024)")
      .flag("json", "the same JSON (it is JSON either way)");
  return c;
}

int cmd_schedule(const args& a, std::ostream& out, std::ostream&) {
  const workload w = load_workload(a, a.require("algorithm"));
  out << schedule_to_json(w.sched) << '\n';
  return 0;
}

}  // namespace tessera::cli
