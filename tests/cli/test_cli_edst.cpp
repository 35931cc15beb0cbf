// The pipelined broadcast on edge-disjoint spanning trees of a torus, on the TLM
// store-and-forward platform (Bermond92).
// Expected times come from the paper's model, derived here:
//  - one packet of s bytes takes one slot of beta + tau s per hop, and a tile sends
//    on all of its ports at once (§1.1), so the last of q packets reaches depth h
//    after (h + q - 1) slots (§2.1);
//  - the depth h of each family: single and Saad-Schultz D = floor(R/2) + floor(C/2)
//    (§2.2, §2.3), Simmen's one-way rings R + C - 1 (2D + 1 for odd n, §2.4), the
//    3D/2 pair max(floor(R/2) + C - 1, floor(C/2) + R - 1) (§3.2), the optimal pair n
//    (on R x C: D with both sides even, else D + 1);
//  - Saad-Schultz's fill-in (§2.3) starts when the root has sent its q packets and
//    runs q packets down a line of floor(n/2), ending after 2q + floor(n/2) - 1 slots;
//  - with q from the optimum, the time is b(L, h, d) = (sqrt((h-1) beta) +
//    sqrt(tau L/d))^2 up to rounding q to a whole number.
// Those are Bermond's ideal nodes, `--param buffers=0`: a tile's interface hands the
// node every posted packet at once. The default node is the RTL's (4 buffers per input,
// an interface that writes one packet a cycle): a tile that posts m packets in one
// cycle has the last of them leave m - 1 cycles late, so each tile on the way down a
// tree can add at most the 4d - 1 cycles of the other packets it posted with it (it
// forwards to at most four ports per tree), and the root too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using tessera::test::run_binary;
using tessera::test::run_binary_err;

constexpr double beta = 6280;  // MegaNode (Bermond92 §4): 628 us and 2.2 us/byte at 0.1 us
constexpr double tau = 22;

nlohmann::json bcast(const std::string& fabric, const std::string& alg, unsigned bytes,
                     unsigned packets, unsigned root = 0, const std::string& extra = "") {
  std::string args = "run --model tlm --machine meganode --fabric " + fabric + extra +
                     " --collective bcast --algorithm " + alg + " --bytes " +
                     std::to_string(bytes) + " --root " + std::to_string(root) + " --json";
  if (packets > 0) args += " --packets " + std::to_string(packets);
  const auto r = run_binary(args);
  INFO(args << "\n" << r.err);
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["verified"] == true);
  return j;
}

unsigned depth_of(const std::string& alg, unsigned R, unsigned C) {
  if (alg == "edst-simmen") return R + C - 1;
  if (alg == "edst-3d2") return std::max({R / 2 + C - 1, C / 2 + R - 1, R + 1, C + 1});
  if (alg == "edst-optimal") {
    // n on n x n; on R x C: D with both sides even, else D + 1
    return R / 2 + C / 2 + (R % 2 == 0 && C % 2 == 0 ? 0 : 1);
  }
  return R / 2 + C / 2;
}

double b_of(double L, double h, double d) {
  const double r = std::sqrt((h - 1) * beta) + std::sqrt(tau * L / d);
  return r * r;
}

}  // namespace

TEST_CASE("edst bcast takes exactly (h + q - 1)(beta + tau L/(d q)) when d q divides L",
          "[cli][tlm][edst]") {
  struct run {
    const char* alg;
    unsigned R, C, bytes, q, root;
  };
  for (const run x :
       {run{"edst-single", 8, 8, 4096, 4, 0}, run{"edst-single", 5, 7, 3000, 6, 9},
        run{"edst-simmen", 8, 8, 4096, 4, 0}, run{"edst-simmen", 7, 7, 8400, 6, 30},
        run{"edst-3d2", 8, 8, 4096, 8, 0}, run{"edst-3d2", 9, 9, 3600, 10, 40},
        run{"edst-3d2", 5, 9, 9000, 5, 3}, run{"edst-optimal", 8, 8, 4096, 4, 0},
        run{"edst-optimal", 11, 11, 6600, 12, 60}, run{"edst-optimal", 16, 16, 16384, 8, 255},
        run{"edst-saad-schultz", 8, 8, 2048, 2, 0}}) {
    const std::string fabric = "torus:" + std::to_string(x.R) + "x" + std::to_string(x.C);
    const unsigned d = std::string(x.alg) == "edst-single" ? 1 : 2;
    REQUIRE(x.bytes % (d * x.q) == 0);
    const unsigned h = depth_of(x.alg, x.R, x.C);
    // Saad-Schultz with q <= floor(n/2): the fill-in ends inside the pipeline.
    const double want = (h + x.q - 1) * (beta + tau * x.bytes / (d * x.q));
    INFO(x.alg << " " << fabric << " q " << x.q << " root " << x.root);
    const auto j = bcast(fabric, x.alg, x.bytes, x.q, x.root, " --param buffers=0");
    CHECK(j["cycles"] == static_cast<std::uint64_t>(want));
    // The RTL's node: late by at most (4d - 1) at the root and at each of h levels.
    const auto rtl = bcast(fabric, x.alg, x.bytes, x.q, x.root);
    CHECK(rtl["cycles"] >= static_cast<std::uint64_t>(want));
    CHECK(rtl["cycles"] <= static_cast<std::uint64_t>(want) + (h + 1) * (4 * d - 1));
    CHECK(j["tree_depth"] == h);
    CHECK(j["trees"] == d);
    // Each tile receives each packet once: (p - 1) d q data messages, the fill-in
    // included (it only reaches the tiles a tree misses).
    CHECK(j["messages"] == (x.R * x.C - 1) * d * x.q);
  }
}

TEST_CASE("edst-saad-schultz: the fill-in outlasts the pipeline above L0", "[cli][tlm][edst]") {
  // 8 x 8, D = 8, lines of floor(8/2) = 4: with q = 16 the fill-in needs
  // 2q + 4 - 1 = 35 slots against D + q - 1 = 23 for the trees.
  const unsigned q = 16;
  const double slot = beta + tau * 65536.0 / (2 * q);
  const auto j = bcast("torus:8x8", "edst-saad-schultz", 65536, q, 0, " --param buffers=0");
  CHECK(j["cycles"] == static_cast<std::uint64_t>((2 * q + 4 - 1) * slot));
  // With q from b's optimum the time is the paper's L >= L0 formula (rounding q aside).
  const double L = 65536, D = 8;
  const double l0 = beta / (2 * tau) * D * D / (D - 1);
  REQUIRE(L > l0);
  const double paper = b_of(L, D, 2) + tau * L / 2 + std::sqrt(beta * tau * L * (D - 1) / 2) -
                       D / 2 * (beta + std::sqrt(beta * tau * L / (2 * (D - 1))));
  const auto a = bcast("torus:8x8", "edst-saad-schultz", 65536, 0);
  CHECK(a["packets_automatic"] == true);
  CHECK(std::abs(a["cycles"].get<double>() - paper) / paper < 0.01);
  CHECK(a["saad_schultz"]["L0"].get<double>() == Approx(l0));
  // Below L0 the fill-in hides in the empty phase and the time is b(L, D, 2).
  const double small = 1024;
  REQUIRE(small < l0);
  const auto s = bcast("torus:8x8", "edst-saad-schultz", 1024, 0);
  CHECK(std::abs(s["cycles"].get<double>() - b_of(small, D, 2)) / b_of(small, D, 2) < 0.01);
}

TEST_CASE("edst bcast with automatic q is within 1% of b(L, h, d) for large L",
          "[cli][tlm][edst]") {
  struct run {
    const char* alg;
    unsigned n, bytes;
  };
  for (const run x :
       {run{"edst-single", 8, 262144}, run{"edst-simmen", 9, 262144}, run{"edst-3d2", 12, 262144},
        run{"edst-optimal", 7, 65536}, run{"edst-optimal", 16, 262144}}) {
    const std::string fabric = "torus:" + std::to_string(x.n) + "x" + std::to_string(x.n);
    const double d = std::string(x.alg) == "edst-single" ? 1 : 2;
    const double b = b_of(x.bytes, depth_of(x.alg, x.n, x.n), d);
    INFO(x.alg << " " << fabric);
    const auto j = bcast(fabric, x.alg, x.bytes, 0, 3);
    CHECK(j["packets_automatic"] == true);
    CHECK(std::abs(j["cycles"].get<double>() - b) / b < 0.01);
    CHECK(j["b"]["cycles"].get<double>() == Approx(b));
  }
}

TEST_CASE("edst bcast: the optimal trees are fastest for large L", "[cli][tlm][edst]") {
  // Bermond92 §3.2 and §4: at large L the time is dominated by tau L / d, so the two-tree
  // families beat the single tree, Saad-Schultz loses tau L/2 to its fill-in, and
  // among the spanning pairs the shallower tree wins.
  double t[5] = {};
  const char* algs[5] = {"edst-single", "edst-saad-schultz", "edst-simmen", "edst-3d2",
                         "edst-optimal"};
  for (int i = 0; i < 5; ++i)
    t[i] = bcast("torus:12x12", algs[i], 1 << 20, 0)["cycles"].get<double>();
  CHECK(t[4] < t[3]);
  CHECK(t[3] < t[2]);
  CHECK(t[2] < t[1]);
  CHECK(t[1] < t[0]);
}

TEST_CASE("edst bcast: bad input exits 2 with one line", "[cli][tlm][edst]") {
  auto err = [](const std::string& args) {
    const auto r = run_binary_err("run --model tlm --collective bcast " + args);
    CHECK(r.code == 2);
    return r.err;
  };
  CHECK(err("--fabric mesh:8x8 --algorithm edst-optimal") ==
        "tessera: --algorithm edst-optimal needs a torus fabric, but mesh:8x8 is a mesh; use "
        "binomial, mesh, scatter-allgather\n");
  CHECK(err("--fabric torus:6x17 --algorithm edst-optimal") ==
        "tessera: --algorithm edst-optimal has trees for R x C with R and C in 4..16 only, but "
        "--fabric is torus:6x17\n");
  CHECK(err("--fabric torus:2x8 --algorithm edst-simmen") ==
        "tessera: --algorithm edst-simmen needs a torus of at least 3 x 3, but --fabric is "
        "torus:2x8\n");
  CHECK(err("--fabric torus:8x8 --algorithm edst-3d2 --packets 0") ==
        "tessera: --packets 0 is not a positive packet count\n");
  CHECK(err("--fabric torus:8x8 --algorithm edst-3d2 --root 64") ==
        "tessera: --root 64 is not a tile of torus:8x8 (tiles 0..63)\n");
  CHECK(err("--fabric torus:8x8 --algorithm edst-3d2 --bytes 10 --packets 6") ==
        "tessera: --packets 6 is more than the 5 bytes of each tree's part (--bytes 10 over 2 "
        "trees)\n");
  CHECK(err("--fabric torus:8x8 --algorithm binomial --packets 4") ==
        "tessera: --packets goes with an edst broadcast (--collective bcast --algorithm "
        "edst-...), not bcast binomial\n");
}
