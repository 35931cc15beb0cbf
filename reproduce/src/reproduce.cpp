#include "tessera/reproduce/reproduce.hpp"

#include "papers.hpp"
#include "tessera/common/errors.hpp"
#include "tessera/reproduce/known.hpp"

namespace tessera::reproduce {

const std::vector<std::string_view>& papers() {
  static const std::vector<std::string_view> names{"thakur", "bokhari", "boppana", "bermond",
                                                   "grama"};
  return names;
}

namespace {

paper_report build(std::string_view paper, const options& o) {
  if (paper == "thakur") return thakur(o.thakur);
  if (paper == "grama") return grama(o.grama);
  if (paper == "boppana") return boppana(o.boppana);
  if (paper == "bermond") return bermond(o.bermond);
  if (paper == "bokhari") return bokhari(o.bokhari);
  std::string known;
  for (const auto n : papers())
    known += (known.empty() ? "" : ", ") + std::string(n);
  throw input_error("paper '" + std::string(paper) + "' is not one reproduce covers (" + known +
                    ")");
}

}  // namespace

paper_report run(std::string_view paper, const options& o) {
  paper_report r = build(paper, o);
  check_ids(r);
  judge(r, known_deviations());
  return r;
}

}  // namespace tessera::reproduce
