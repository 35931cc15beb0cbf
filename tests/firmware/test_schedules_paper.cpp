// The generators' partner sequences against the papers' pseudo-code and tables,
// re-implemented here from the text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "tessera/firmware/complete_exchange.hpp"

using namespace tessera;
using fw::a2a_algorithm;

namespace {

struct got_op {
  op o;
  std::vector<std::uint32_t> send;
  std::vector<std::uint32_t> recv;
};

std::vector<got_op> ops_of(a2a_algorithm alg, const fabric& f, std::uint32_t me) {
  fw::a2a_generator g(alg, f, tile_id{me});
  std::vector<block_id> sb(g.max_blocks());
  std::vector<block_id> rb(g.max_blocks());
  std::vector<got_op> out;
  op o;
  while (g.next(o, sb, rb)) {
    got_op x{o, {}, {}};
    for (std::uint32_t i = 0; i < o.send_count; ++i)
      x.send.push_back(sb[i].value());
    for (std::uint32_t i = 0; i < o.recv_count; ++i)
      x.recv.push_back(rb[i].value());
    out.push_back(std::move(x));
  }
  return out;
}

// Sequence of exchange partners, one per op.
std::vector<std::uint32_t> partners(a2a_algorithm alg, const fabric& f, std::uint32_t me) {
  std::vector<std::uint32_t> out;
  for (const auto& x : ops_of(alg, f, me))
    out.push_back(x.o.to);
  return out;
}

}  // namespace

TEST_CASE("PEX on 8 tiles is Thakur's Table 1", "[paper][thakur]") {
  // Thakur93 Table 1: the pairs exchanging in steps 1..7.
  const std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> table = {
      {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, {{0, 2}, {1, 3}, {4, 6}, {5, 7}},
      {{0, 3}, {1, 2}, {4, 7}, {5, 6}}, {{0, 4}, {1, 5}, {2, 6}, {3, 7}},
      {{0, 5}, {1, 4}, {2, 7}, {3, 6}}, {{0, 6}, {1, 7}, {2, 4}, {3, 5}},
      {{0, 7}, {1, 6}, {2, 5}, {3, 4}}};
  const auto f = fabric::mesh(2, 4);
  for (std::uint32_t step = 1; step <= 7; ++step) {
    for (auto [a, b] : table[step - 1]) {
      const auto oa = ops_of(a2a_algorithm::pex, f, a)[step - 1];
      const auto ob = ops_of(a2a_algorithm::pex, f, b)[step - 1];
      CHECK(oa.o.kind == op_kind::exchange);
      CHECK(oa.o.step == step);
      CHECK(oa.o.to == b);
      CHECK(ob.o.to == a);
      CHECK(oa.send == std::vector<std::uint32_t>{a * 8 + b});
      CHECK(oa.recv == std::vector<std::uint32_t>{b * 8 + a});
    }
  }
}

TEST_CASE("PEX-GEN follows Thakur Fig. 2", "[paper][thakur]") {
  for (std::uint32_t p : {5U, 12U, 20U, 48U}) {
    const auto f = fabric::ring(p);
    const std::uint32_t q = std::bit_ceil(p);
    for (std::uint32_t me = 0; me < p; ++me) {
      std::vector<std::pair<std::uint32_t, std::uint32_t>> expect;  // (step, partner)
      for (std::uint32_t j = 1; j <= q - 1; ++j) {
        const std::uint32_t dest = me ^ j;
        if (dest < p) expect.emplace_back(j, dest);
      }
      std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
      for (const auto& x : ops_of(a2a_algorithm::pex_gen, f, me))
        got.emplace_back(x.o.step, x.o.to);
      REQUIRE(got == expect);
    }
  }
}

TEST_CASE("PEX-GEN-SHIFT follows Thakur Fig. 4 with virtual ids me + shift", "[paper][thakur]") {
  // Fig. 3(b): real tiles 0..19 become virtual 6..25 (q = 32, shift = 6).
  for (std::uint32_t p : {5U, 20U, 48U, 144U}) {
    const auto f = fabric::ring(p);
    const int q = static_cast<int>(std::bit_ceil(p));
    const int shift = (q - static_cast<int>(p)) / 2;
    for (std::uint32_t me = 0; me < p; ++me) {
      const int virt = static_cast<int>(me) + shift;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> expect;
      for (int j = 1; j <= q - 1; ++j) {
        int dest = (virt ^ j) - shift;
        if (dest < 0) dest += q;
        if (dest < static_cast<int>(p)) {
          expect.emplace_back(static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(dest));
        }
      }
      std::vector<std::pair<std::uint32_t, std::uint32_t>> got;
      for (const auto& x : ops_of(a2a_algorithm::pex_gen_shift, f, me)) {
        got.emplace_back(x.o.step, x.o.to);
      }
      REQUIRE(got == expect);
    }
  }
}

TEST_CASE("Fig. 4 taken literally (virtual = mod(me + shift, p)) does not pair up",
          "[paper][thakur]") {
  // Why the generator uses me + shift: with the figure's mod p, tile 14 of 20 gets
  // virtual id 0 and its partners are not partnered with it in the same step.
  const int p = 20;
  const int q = 32;
  const int shift = 6;
  auto partner = [&](int me, int j) {
    const int virt = (me + shift) % p;
    int dest = (virt ^ j) - shift;
    if (dest < 0) dest += q;
    return dest < p ? dest : -1;
  };
  int asymmetric = 0;
  for (int j = 1; j < q; ++j) {
    for (int me = 0; me < p; ++me) {
      const int d = partner(me, j);
      if (d >= 0 && partner(d, j) != me) ++asymmetric;
    }
  }
  CHECK(asymmetric > 0);
}

TEST_CASE("GEN and linear: step i sends to me + i and receives from me - i", "[paper]") {
  // Thakur Fig. 5 and Bokhari §4.1 "linear".
  for (auto alg : {a2a_algorithm::gen, a2a_algorithm::linear}) {
    const std::uint32_t p = 20;
    for (std::uint32_t me = 0; me < p; ++me) {
      const auto ops = ops_of(alg, fabric::mesh(4, 5), me);
      REQUIRE(ops.size() == p - 1);
      for (std::uint32_t i = 1; i < p; ++i) {
        CHECK(ops[i - 1].o.kind == op_kind::sendrecv);
        CHECK(ops[i - 1].o.to == (me + i) % p);
        CHECK(ops[i - 1].o.from == (me + p - i) % p);
      }
    }
  }
}

TEST_CASE("stable follows Bokhari's procedure, idling exactly once", "[paper][bokhari]") {
  // Bokhari91 §4.2.
  for (std::uint32_t n : {4U, 8U, 16U, 32U}) {
    const auto f = fabric::hypercube(static_cast<std::uint32_t>(std::countr_zero(n)));
    for (std::uint32_t me = 0; me < n; ++me) {
      const auto ops = ops_of(a2a_algorithm::stable, f, me);
      REQUIRE(ops.size() == n);
      std::uint32_t idles = 0;
      for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t dest = me < n / 2 ? (me * 2 + 1 + i) % n : (me * 2 - n + i) % n;
        if (dest == me) {
          CHECK(ops[i].o.kind == op_kind::idle);
          ++idles;
        } else {
          CHECK(ops[i].o.to == dest);
        }
      }
      CHECK(idles == 1);
    }
  }
}

TEST_CASE("standard exchange: log p exchanges of p/2 blocks, high dimension first",
          "[paper][bokhari]") {
  for (std::uint32_t d = 1; d <= 6; ++d) {
    const std::uint32_t p = 1U << d;
    for (std::uint32_t me = 0; me < p; ++me) {
      const auto ops = ops_of(a2a_algorithm::standard, fabric::hypercube(d), me);
      REQUIRE(ops.size() == 2 * d);
      for (std::uint32_t k = 0; k < d; ++k) {
        const auto& x = ops[2 * k];
        CHECK(x.o.kind == op_kind::exchange);
        CHECK(x.o.to == (me ^ (1U << (d - 1 - k))));
        CHECK(x.send.size() == p / 2);
        CHECK(x.recv.size() == p / 2);
        CHECK(ops[2 * k + 1].o.kind == op_kind::shuffle);
      }
    }
  }
}

TEST_CASE("Grama ring all-to-all: step i moves p - i blocks one hop", "[paper][grama]") {
  // Grama slide 52: "In step i, the message size is m(p - i)".
  const std::uint32_t p = 6;
  for (std::uint32_t me = 0; me < p; ++me) {
    const auto ops = ops_of(a2a_algorithm::ring, fabric::ring(p), me);
    REQUIRE(ops.size() == p - 1);
    for (std::uint32_t i = 1; i < p; ++i) {
      CHECK(ops[i - 1].o.to == (me + 1) % p);
      CHECK(ops[i - 1].send.size() == p - i);
    }
  }
  // Slide 51: in the first step node 0 sends {0,1} ... {0,5}.
  const auto first = ops_of(a2a_algorithm::ring, fabric::ring(p), 0)[0];
  CHECK(first.send == std::vector<std::uint32_t>{1, 2, 3, 4, 5});
}

TEST_CASE("Grama mesh all-to-all: rows then columns with grouped blocks", "[paper][grama]") {
  // Slides 53-55: each phase is a ring all-to-all of sqrt(p) nodes with messages of
  // sqrt(p) blocks per destination. On r x c: row step i sends r(c - i) blocks, column
  // step i sends c(r - i).
  const std::uint32_t r = 3;
  const std::uint32_t c = 4;
  const auto ops = ops_of(a2a_algorithm::mesh, fabric::mesh(r, c), 5);
  REQUIRE(ops.size() == (c - 1) + (r - 1));
  for (std::uint32_t i = 1; i < c; ++i) {
    CHECK(ops[i - 1].o.to == 4 + (5 % 4 + 1) % 4);
    CHECK(ops[i - 1].send.size() == r * (c - i));
  }
  for (std::uint32_t i = 1; i < r; ++i) {
    CHECK(ops[c - 1 + i - 1].o.to == (5 + 4) % 12);
    CHECK(ops[c - 1 + i - 1].send.size() == c * (r - i));
  }
}

TEST_CASE("AAP and AAP' on Q3 follow Boppana's step sequences", "[paper][boppana]") {
  // Boppana90 §3.2: (0,0), (1,0), (1,1), (1,2), (2,0), (2,1), (2,2);
  // step (i, j) is a vector reversal in the subcubes of the j-th (3-i)-subset of
  // dimensions: {0,1,2}; {0,1}, {0,2}, {1,2}; {0}, {1}, {2}.
  const std::vector<std::uint32_t> aap = {7, 3, 5, 6, 1, 2, 4};
  // §3.3: (0,0), (1,0), (2,2), (1,1), (2,1), (1,2), (2,0).
  const std::vector<std::uint32_t> aap_prime = {7, 3, 4, 5, 2, 6, 1};
  for (std::uint32_t me = 0; me < 8; ++me) {
    auto expect = aap;
    for (auto& m : expect)
      m ^= me;
    CHECK(partners(a2a_algorithm::aap, fabric::hypercube(3), me) == expect);
    expect = aap_prime;
    for (auto& m : expect)
      m ^= me;
    CHECK(partners(a2a_algorithm::aap_prime, fabric::hypercube(3), me) == expect);
  }
}

TEST_CASE("AAP' interleaves each step with its dual: complementary dimensions",
          "[paper][boppana]") {
  // §3.3: "The links not used in step (i, j) are exactly the ones used in step
  // (n-i, n_i-1-j)." After phase 0 the steps come in such pairs.
  for (std::uint32_t n = 2; n <= 8; ++n) {
    const std::uint32_t full = (1U << n) - 1;
    const auto seq = partners(a2a_algorithm::aap_prime, fabric::hypercube(n), 0);
    REQUIRE(seq.size() == full);
    CHECK(seq[0] == full);
    for (std::size_t k = 1; k + 1 < seq.size(); k += 2)
      CHECK((seq[k] ^ seq[k + 1]) == full);
    CHECK(std::set<std::uint32_t>(seq.begin(), seq.end()).size() == full);
    // AAP: phases in order, so the subcube dimension never grows.
    const auto plain = partners(a2a_algorithm::aap, fabric::hypercube(n), 0);
    for (std::size_t k = 1; k < plain.size(); ++k) {
      CHECK(std::popcount(plain[k]) <= std::popcount(plain[k - 1]));
    }
  }
}
