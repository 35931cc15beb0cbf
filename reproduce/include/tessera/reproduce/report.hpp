// A paper reproduced: rows that hold one published value (or the paper's formula
// evaluated) beside the simulated one, each with the tolerance it must meet and where in
// the paper it comes from, and the figures that redraw the paper's plots
// (`tessera reproduce`, docs/reproduction.md). Each row gets one of three verdicts: it
// passes, it is a known deviation (listed in known.hpp's table and still at the value it
// was analysed at), or it fails. A report passes when no row fails and no entry of the
// table is stale.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/pictures/figure.hpp"

namespace tessera::reproduce {

// How a row's simulated value is held to the paper's.
enum class tolerance_kind : std::uint8_t {
  exact,     // equal (integers: cycles, steps)
  relative,  // |simulated - paper| <= value x |paper|
  absolute,  // |simulated - paper| <= value, in the row's unit
  at_most,   // simulated <= paper (the paper gives an upper bound)
  at_least,  // simulated >= paper (the paper gives a lower bound)
  over,      // paper <= simulated <= paper + value x |paper| (the paper's is an optimum
             // the model can only approach: a bound of how closely, derived)
  claim,     // a statement of the paper: paper 1 (it holds), simulated 1 or 0
};

struct tolerance {
  tolerance_kind kind{tolerance_kind::exact};
  double value{0};
  // Why this tolerance (docs/reproduction.md gives the same reasons).
  std::string why;

  static tolerance exact(std::string why = "the model computes what the formula counts");
  static tolerance relative(double v, std::string why);
  static tolerance absolute(double v, std::string why);
  static tolerance at_most(std::string why);
  static tolerance at_least(std::string why);
  static tolerance over(double v, std::string why);
  static tolerance claim(std::string why = "the paper states it");
};

// A row's verdict (judge() in known.hpp decides it).
enum class verdict : std::uint8_t { pass, known, fail };
const char* verdict_name(verdict v);  // "pass", "known deviation", "fail"

// What a known-deviation entry says about the row it holds (known.hpp).
struct known_note {
  std::string reason;  // one sentence
  std::string doc;     // docs/reproduction.md#anchor
  double lo{0};        // the value analysed: exactly lo (= hi), or within [lo, hi]
  double hi{0};        // (a seeded row's envelope)
};

struct row {
  // Stable and unique within its report: "<paper>.<what it compares>.<case>", e.g.
  // "thakur.table6.mean". Known deviations name rows by it.
  std::string id;
  std::string source;  // where in the paper: "Table 2", "Figure 4", "slide 21 eq. (1)", "§6.1"
  std::string what;    // the case: "bcast binomial, hypercube:4, m = 1024"
  std::string unit;    // "cycles", "s", "us", "steps", "" for a claim
  double paper{0};     // the published value, or the paper's formula evaluated
  double simulated{0};
  tolerance tol;
  std::string formula;  // the paper's formula behind `paper`, when it is one
  // Set by judge() when the row is a known deviation still at its analysed value.
  std::optional<known_note> known;

  // (simulated - paper) / paper; 0 when both are 0, and for a claim 0 or -1.
  [[nodiscard]] double deviation() const;
  // Within its tolerance.
  [[nodiscard]] bool pass() const;
  // pass; known when it misses its tolerance as its known-deviation entry says; fail.
  [[nodiscard]] verdict judged() const;
};

// A paper's figures are line and point plots (tessera/pictures/figure.hpp), built from
// its rows.
using pictures::figure;
using pictures::series;

struct paper_report {
  std::string paper;       // "grama"
  std::string title;       // authors, title, year
  std::string model;       // what simulated the rows
  std::string model_name;  // the --model it ran on: "tlm", "analytic", "rtl", "alphabeta"
  // Every row the paper's default options give (not a subset of tables, sizes or cubes):
  // only then is a known deviation whose row is missing a stale entry.
  bool complete{true};
  // The seeded statistics' run counts by option ("seeds", "envelope-seeds"): a seeded
  // known deviation holds only at the count it was analysed at.
  std::map<std::string, std::uint32_t> seeds;
  std::vector<row> rows;
  std::vector<figure> figures;
  // A paper's own data beyond its rows (Thakur's fit and cells), as extra keys of its
  // JSON object, and as text printed after the model line.
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
  std::string detail;

  // What judge() found wrong, one line each, naming the row id: an unlisted row that
  // fails, a known deviation whose value moved, an entry that is stale.
  std::vector<std::string> problems;
  // What judge() did not apply, and why (a seeded entry at another run count).
  std::vector<std::string> notes;

  // No row fails and no problem: the command's exit status is 0.
  [[nodiscard]] bool pass() const;
  [[nodiscard]] std::size_t count(verdict v) const;
  [[nodiscard]] std::size_t failed() const { return count(verdict::fail); }
};

// A row's tolerance as a reader writes it: "exact", "0.51 %", "<= paper", "0..7.2 %".
std::string tolerance_text(const row& r);

// A piece of a row id from a name: characters outside [A-Za-z0-9_.:+-] become '-'
// ("one-to-all broadcast" -> "one-to-all-broadcast", "send/receive" -> "send-receive").
std::string id_part(std::string_view name);

// Rows' ids: every row has one, of [A-Za-z0-9_.:+-], unique in the report; throws
// std::logic_error naming the first that is not.
void check_ids(const paper_report& r);

// The three counts as the summary prints them: "67 pass, 13 known deviations, 0 fail".
std::string counts_text(std::size_t pass, std::size_t known, std::size_t fail);

// The contract's object for one paper (`reproduce <paper> --json`).
nlohmann::ordered_json to_json(const paper_report& r);
// The readable report: a table per source, then the summary line.
void write_text(std::ostream& os, const paper_report& r);

}  // namespace tessera::reproduce
