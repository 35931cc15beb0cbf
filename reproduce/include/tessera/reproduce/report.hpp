// A paper reproduced: rows that hold one published value (or the paper's formula
// evaluated) beside the simulated one, each with the tolerance it must meet and where in
// the paper it comes from, and the figures that redraw the paper's plots
// (`tessera reproduce`, docs/reproduction.md). A report passes when every row does.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

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

struct row {
  std::string source;  // where in the paper: "Table 2", "Figure 4", "slide 21 eq. (1)", "§6.1"
  std::string what;    // the case: "bcast binomial, hypercube:4, m = 1024"
  std::string unit;    // "cycles", "s", "us", "steps", "" for a claim
  double paper{0};     // the published value, or the paper's formula evaluated
  double simulated{0};
  tolerance tol;
  std::string formula;  // the paper's formula behind `paper`, when it is one

  // (simulated - paper) / paper; 0 when both are 0, and for a claim 0 or -1.
  [[nodiscard]] double deviation() const;
  [[nodiscard]] bool pass() const;
};

// One curve or set of points of a figure; `paper` tells the published values from the
// simulated ones (drawn as marks and as lines, respectively).
struct series {
  std::string name;
  bool paper{false};
  std::vector<std::pair<double, double>> points;
  // Series of one group share a colour (the paper's values and the simulated ones of one
  // case); empty: a colour of its own.
  std::string group;
};

struct figure {
  std::string id;  // a file name stem: "grama-bcast"
  std::string title;
  std::string source;  // "Figure 2", "slide 21"
  std::string x_label;
  std::string y_label;
  bool log_x{false};
  bool log_y{false};
  std::vector<series> curves;
};

struct paper_report {
  std::string paper;  // "grama"
  std::string title;  // authors, title, year
  std::string model;  // what simulated the rows
  std::vector<row> rows;
  std::vector<figure> figures;
  // A paper's own data beyond its rows (Thakur's fit and cells), as extra keys of its
  // JSON object, and as text printed after the model line.
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
  std::string detail;

  [[nodiscard]] bool pass() const;
  [[nodiscard]] std::size_t failed() const;
};

// A row's tolerance as a reader writes it: "exact", "0.51 %", "<= paper", "0..7.2 %".
std::string tolerance_text(const row& r);

// The contract's object for one paper (`reproduce <paper> --json`).
nlohmann::ordered_json to_json(const paper_report& r);
// The readable report: a table per source, then the summary line.
void write_text(std::ostream& os, const paper_report& r);

}  // namespace tessera::reproduce
