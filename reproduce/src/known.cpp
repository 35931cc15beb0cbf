// The known deviations (known.hpp): every row of a default reproduction that misses its
// tolerance for a reason docs/reproduction.md analyses ("Known deviations"), at the value
// it was analysed at. An entry goes when its row passes (judge() then calls it stale) or
// when the analysis is redone at a new value.
#include <cstdio>

#include "tessera/reproduce/known.hpp"

namespace tessera::reproduce {
namespace {

constexpr std::string_view platform = "docs/reproduction.md#thakur-on-the-platform";
constexpr std::string_view step_model = "docs/reproduction.md#thakur-on-the-step-model";
constexpr std::string_view section6 = "docs/reproduction.md#bokhari-section-6";

// A comparison whose two measured times (Thakur's tables, in seconds, faster first) lie
// closer than the Delta model's stated accuracy.
std::string scatter(std::string_view lead, double faster_s, double slower_s) {
  char text[160];
  std::snprintf(text, sizeof text, ", where the Delta measured the two %.1f %% apart (%g and %g s)",
                (slower_s - faster_s) / faster_s * 100, faster_s, slower_s);
  return std::string(lead) + text +
         ", inside the Delta model's stated 10 % accuracy: the order is within the scatter of "
         "the paper's own tables.";
}

// Thakur on the TLM platform (the delta preset).
const std::string platform_mean =
    "The platform misses 4 x 5 GEN at 256 B (against a printed 0.004 s, itself +-12 %) and "
    "16 KB, 6 x 8 at 4 KB, and GEN at 256 B and 1 KB on the large meshes by 17-31 %, which "
    "puts Table 6's mean just past 10 %.";
const std::string platform_level =
    "The platform has PEX and GEN level at 0.0219 s (GEN 32 cycles the slower) where the Delta "
    "measured GEN 0.018 s and PEX 0.023 s.";
const std::string platform_gen =
    "The platform under-predicts GEN at 256 B and 1 KB on the large meshes (docs/delta.md, "
    "\"What is left\"), so it has GEN the faster.";

// Thakur's step model (--model analytic): the paper's own model, alpha and beta fitted on
// Table 2's 4 x 4 column.
const std::string step_mean =
    "The step model over-predicts the 256-byte cells and under-predicts GEN on the large "
    "meshes, so the table's mean misses the 10 % the Delta model states (the platform's "
    "NIC model is what meets it).";
const std::string step_gen =
    "The step model gives GEN, with fewer contended steps, less time than PEX almost "
    "everywhere";
const std::string step_rank = step_gen + ", so 1 of the 15 cells ranks as measured.";
const std::string step_shift =
    "The step model under-predicts GEN on the meshes that are not powers of two, ranking it "
    "first";

// Bokhari's section 6 (seeded: the values are statistics of --seeds and --envelope-seeds
// runs, held at the counts they were analysed at).
const std::string bokhari_d1 =
    "At d = 1 pairwise_F's one exchange carries the global and the pairwise synchronization "
    "before its one message, the redundancy section 6.5 names, so the ratio passes 2.5 over "
    "8 runs a point (2.05 over 100).";
const std::string bokhari_scatter =
    "At 1000 bytes stable's and linear's envelopes over 20 runs lie inside each other's "
    "scatter: stable's average is below linear's, its maximum above.";

}  // namespace

const std::vector<known_deviation>& known_deviations() {
  static const std::vector<known_deviation> table = {
      // Thakur on the TLM platform: 13 rows.
      {"thakur", "tlm", "thakur.table6.mean", 10.447232115235648, 10.447232115235648, "", 0,
       platform_mean, platform},
      {"thakur", "tlm", "thakur.pex-vs-gen.4x4.4KB", 0.0, 0.0, "", 0, platform_level, platform},
      {"thakur", "tlm", "thakur.pex-vs-gen.16x8.256B", 0.0, 0.0, "", 0,
       scatter("The platform orders PEX and GEN against the measurement", 0.042, 0.045), platform},
      {"thakur", "tlm", "thakur.pex-vs-gen.16x16.256B", 0.0, 0.0, "", 0,
       scatter("The platform orders PEX and GEN against the measurement", 0.089, 0.094), platform},
      {"thakur", "tlm", "thakur.pex-gen-vs-pex-gen-shift.16x30.16KB", 0.0, 0.0, "", 0,
       scatter("The model has PEX-GEN the faster", 15.74, 15.82), platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.6x8.8KB", 0.0, 0.0, "", 0,
       scatter("The platform has GEN the faster", 0.170, 0.186), platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.16x14.1KB", 0.0, 0.0, "", 0,
       scatter("The platform has GEN the faster", 0.263, 0.285), platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.16x14.8KB", 0.0, 0.0, "", 0,
       scatter("The platform has GEN the faster", 1.948, 2.011), platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.16x14.16KB", 0.0, 0.0, "", 0,
       scatter("The platform has GEN the faster", 3.844, 4.005), platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.16x30.256B", 0.0, 0.0, "", 0, platform_gen,
       platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.16x30.1KB", 0.0, 0.0, "", 0, platform_gen,
       platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.16x30.8KB", 0.0, 0.0, "", 0,
       scatter("The platform has GEN the faster", 7.515, 7.752), platform},
      {"thakur", "tlm", "thakur.pex-gen-shift-vs-gen.16x30.16KB", 0.0, 0.0, "", 0,
       scatter("The platform has GEN the faster", 15.74, 15.94), platform},
      // Thakur's step model: 37 rows.
      {"thakur", "analytic", "thakur.table2.mean", 16.78542910748308, 16.78542910748308, "", 0,
       step_mean, step_model},
      {"thakur", "analytic", "thakur.table3.mean", 18.225388108259235, 18.225388108259235, "", 0,
       step_mean, step_model},
      {"thakur", "analytic", "thakur.table4.mean", 18.957191056536814, 18.957191056536814, "", 0,
       step_mean, step_model},
      {"thakur", "analytic", "thakur.table5.mean", 28.610277566504315, 28.610277566504315, "", 0,
       step_mean, step_model},
      {"thakur", "analytic", "thakur.table6.mean", 30.000559461336422, 30.000559461336422, "", 0,
       step_mean, step_model},
      {"thakur", "analytic", "thakur.tables2-5.rank", 1.0, 1.0, "", 0, step_rank, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.4x4.4KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.4x4.8KB", 0.0, 0.0, "", 0,
       scatter(step_gen, 0.034, 0.037), step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.4x4.16KB", 0.0, 0.0, "", 0,
       scatter(step_gen, 0.064, 0.069), step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.8x8.4KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.8x8.8KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.8x8.16KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x8.1KB", 0.0, 0.0, "", 0,
       scatter(step_gen, 0.120, 0.123), step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x8.4KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x8.8KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x8.16KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x16.1KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x16.4KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x16.8KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x16.16KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x32.256B", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x32.1KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x32.4KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x32.8KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-vs-gen.16x32.16KB", 0.0, 0.0, "", 0, step_gen, step_model},
      {"thakur", "analytic", "thakur.pex-gen-vs-pex-gen-shift.6x8.8KB", 0.0, 0.0, "", 0,
       scatter("The model has PEX-GEN the faster", 0.170, 0.174), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.6x8.8KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 0.170, 0.186), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.6x8.16KB", 0.0, 0.0, "", 0, step_shift,
       step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x14.1KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 0.263, 0.285), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x14.4KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 0.933, 0.998), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x14.8KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 1.948, 2.011), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x14.16KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 3.844, 4.005), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x30.256B", 0.0, 0.0, "", 0, step_shift,
       step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x30.1KB", 0.0, 0.0, "", 0, step_shift,
       step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x30.4KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 3.526, 3.706), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x30.8KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 7.515, 7.752), step_model},
      {"thakur", "analytic", "thakur.pex-gen-shift-vs-gen.16x30.16KB", 0.0, 0.0, "", 0,
       scatter(step_shift, 15.74, 15.94), step_model},
      // Bokhari's section 6: 2 rows.
      {"bokhari", "tlm", "bokhari.pairwise_F-over-pairwise_U.d1", 2.589605235093721,
       2.589605235093721, "seeds", 8, bokhari_d1, section6},
      {"bokhari", "tlm", "bokhari.envelope.d5.b1000.stable-max", 0.0, 0.0, "envelope-seeds", 20,
       bokhari_scatter, section6},
  };
  return table;
}

}  // namespace tessera::reproduce
