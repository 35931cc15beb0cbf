#include <ostream>

#include "commands.hpp"
#include "report.hpp"

namespace tessera::cli {

command_line analyze_command_line() {
  command_line c(
      "analyze",
      R"(tessera analyze --fabric F (--collective C --algorithm A | --schedule FILE)
                       [--bytes N] [--switching S] [--param key=value ...] [--chart] [--json])",
      R"(Static analysis, no simulation. The schedule is executed symbolically (every block
must reach its destination exactly once), then:
  circuit switching (hypercube default): transfers are placed in unit-time slots with
    Bokhari's chart rules; steps = slots.
  wormhole (mesh default) and store-forward (torus, ring default): steps = the
    algorithm's rounds; each round reports the exact largest number of messages on
    one directed link, beside Thakur's closed-form f(i) where the paper gives one.
Closed-form estimates: alpha-beta, Thakur's alpha + L max(beta, f beta_sat) per
round, Boppana's xi + i tau + i + k - 1 per message (circuit).)");
  c.value("fabric", "F", "mesh:RxC, torus:RxC, hypercube:D, ring:P")
      .value("collective", "C", "alltoall (complete exchange)")
      .value("algorithm", "A",
             "naive, linear, pairwise, pex, pex-gen, pex-gen-shift, gen, stable, standard, ring, "
             "mesh, aap, aap-prime")
      .value("schedule", "FILE", "analyze a schedule file instead (docs/schedule-format.md)")
      .value("bytes", "N", "bytes per block (default 1024)")
      .value("switching", "S", "wormhole, circuit or store-forward")
      .add({"param", "k=v", "alpha, beta, beta_ex, beta_sr, beta_sat, xi, tau, width (cycles)",
            true})
      .flag("chart", "print the link-usage chart (fabrics up to 64 tiles)")
      .flag("json", "one JSON object on stdout")
      .footer(
          "exit status: 0 ok (or nothing to check: no message carries a data byte), 1 the "
          "schedule loses, duplicates or mis-sizes a block or deadlocks, 2 bad input (also a "
          "relay that truncates or pads a block).");
  return c;
}

int cmd_analyze(const args& a, std::ostream& out, std::ostream& err) {
  workload w = load_workload(a, a.get("algorithm").value_or(""));
  if (a.flag("chart")) require_chartable(w);
  const analyze_result r = run_analysis(std::move(w));
  if (a.flag("json")) {
    auto j = to_json(r);
    if (a.flag("chart")) j["chart"] = chart_text(r);
    out << j.dump(2) << '\n';
  } else {
    out << to_text(r);
    if (a.flag("chart")) out << '\n' << chart_text(r);
  }
  if (r.verdict == verdict::failed) {
    err << "tessera: " << failure_line(r) << '\n';
    return 1;
  }
  if (r.verdict == verdict::nothing_checked)
    err << "tessera: note: " << nothing_checked_text << '\n';
  return exit_status(r.verdict);
}

}  // namespace tessera::cli
