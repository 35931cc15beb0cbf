// libFuzzer target: the schedule reader, the symbolic checker, and small schedules run
// for real on the alpha-beta model. Bad input must be an input_error, nothing else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tessera/alphabeta/run.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/schedule/check.hpp"
#include "tessera/schedule/json_io.hpp"
#include "tessera/schedule/resolve.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const tessera::schedule s = tessera::schedule_from_json(text);
    if (s.op_count() > 2000) return 0;
    (void)tessera::check_schedule(s);
    if (s.tiles < 2 || s.tiles > 16) return 0;
    const tessera::resolved_schedule ps = tessera::resolve_schedule(s);
    if (ps.slot > 4096) return 0;
    tessera::ab::run_options opt;
    opt.memory_limit = std::uint64_t{64} << 20;
    opt.max_cycles = 1'000'000;
    (void)tessera::ab::run_schedule(tessera::fabric::ring(s.tiles), ps, opt);
    opt.proto = tessera::protocol::reliable;
    (void)tessera::ab::run_schedule(tessera::fabric::ring(s.tiles), ps, opt);
  } catch (const tessera::input_error&) {
  }
  return 0;
}
