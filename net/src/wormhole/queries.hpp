// The closed form of the wormhole engine (docs/wormhole.md, "Closed form", "Paced
// injection", "Virtual channels", "Cross terms"): the crossing time of any flit of a worm
// over any channel, from its header crossings t0[] and, for the flits behind another
// packet in a buffer, that packet's own times. A query that needs a header crossing not
// yet granted answers with the worm it misses. tb/reference/flit_reference.hpp holds it to a
// flit-by-flit simulation. Included by wormhole_engine.cpp only.
#pragma once

#include "impl.hpp"

namespace tessera::net {

// max over k < k' <= kmax of t0[k'] - q k': the header bases a flit of row k reaches
// by k' - k back-pressure steps (from suf once the header has arrived).
std::int64_t wormhole_engine::impl::header_bases_above(const worm& w, std::uint32_t k,
                                                       std::uint32_t kmax) const {
  const std::uint32_t last = w.hops + 1;
  if (kmax == last && w.suf.size() == last + std::size_t{1}) return w.suf[k + 1];
  std::int64_t m = std::numeric_limits<std::int64_t>::min();
  for (std::uint32_t j = k + 1; j <= kmax; ++j)
    m = std::max(m, as_i64(w.t0[j]) - qrow * j);
  return m;
}

// Crossing time of flit f of w over its channel k (docs/wormhole.md, "Closed form").
// This is the plain model, s = g = 1 with B > d; flit_time_general covers paced
// injection, VC shares and loop rows. In the comments below X(f', j) is when the flit
// B - f' places ahead of the header left buffer j; the slot it frees serves d later
// (the doc's cross base X includes that d).
auto wormhole_engine::impl::flit_time(worm& w, std::uint64_t f, std::uint32_t k) -> answer {
  return general ? flit_time_general(w, f, k) : flit_time_plain(w, f, k);
}

auto wormhole_engine::impl::flit_time_plain(worm& w, std::uint64_t f, std::uint32_t k) -> answer {
  const std::uint32_t last = w.hops + 1;
  const std::uint64_t up = f / p.buffer;
  const std::uint32_t kmax = up >= last - k ? last : k + static_cast<std::uint32_t>(up);
  if (w.t0.size() <= kmax) return {0, &w};
  const std::int64_t fi = as_i64(f);
  std::int64_t best = w.pre[k] + fi + k;
  if (kmax > k) {
    // Header bases at k' > k: k' - k back-pressure steps of weight d, each saving
    // B - d against B steps down the row.
    best = std::max(best, header_bases_above(w, k, kmax) + fi + qrow * k);
  }
  return with_stream_cross(w, f, k, up, as_cycle(best));
}

// t, or the one flit-credit term on another packet that is not dominated by a header
// (s = 1) when it is later: reached by up = floor(f/B) back-pressure steps, its own
// credit adds one more d.
auto wormhole_engine::impl::with_stream_cross(worm& w, std::uint64_t f, std::uint32_t k,
                                              std::uint64_t up, cycle_t t) -> answer {
  const std::uint64_t rem = f % p.buffer;
  if (rem != 0 && k + up <= w.hops) {
    const answer y = stream_leave(w, k + static_cast<std::uint32_t>(up), p.buffer - rem);
    if (y.missing != nullptr) return y;
    if (y.t != 0) t = std::max(t, y.t + as_cycle(cd) * (up + 1));
  }
  return {t, nullptr};
}

// flit_time when g > 1, s > 1 or the rows loop. Rows k >= 1 weigh s per flit (a VC's
// share of the link), the injection row g (docs/wormhole.md, "Paced injection",
// "Virtual channels"); a back-pressure step weighs d.
auto wormhole_engine::impl::flit_time_general(worm& w, std::uint64_t f, std::uint32_t k) -> answer {
  const std::uint32_t last = w.hops + 1;
  const std::uint64_t up = f / p.buffer;
  const std::uint32_t kmax = up >= last - k ? last : k + static_cast<std::uint32_t>(up);
  if (w.t0.size() <= kmax) return {0, &w};
  if (k == 0) return paced_row(w, f);
  const std::int64_t sf = share * as_i64(f);
  std::int64_t best = 0;
  if (loop_rows) {
    // A back-pressure step and a step left (weight 1 + d) beat B steps down the row,
    // so the longest paths take all floor(f/B) of them and may end at any header up
    // to k + floor(f/B).
    best = w.pre[kmax] + sf + k + as_i64(up) * (1 - qrow);
  } else {
    // Header bases at k' <= k, along row k then left.
    best = w.pre[k] + sf + k;
    if (kmax > k) {
      // Header bases at k' > k, reached by back-pressure steps.
      best = std::max(best, header_bases_above(w, k, kmax) + sf + qrow * k);
    }
  }
  if (gap > share) {
    // Paths that step down the injection row: T0(f) + k.
    const answer a = paced_row(w, f);
    if (a.missing != nullptr) return a;
    best = std::max(best, as_i64(a.t) + k);
  }
  if (w.live_links == 0) return {as_cycle(best), nullptr};
  if (loop_rows) {
    const answer c = cross_brute(w, f, k, share, true);
    if (c.missing != nullptr) return c;
    return {std::max(as_cycle(best), c.t), nullptr};
  }
  if (share > 1) {
    const answer c = cross_rows(w, f, k);
    if (c.missing != nullptr) return c;
    best = std::max(best, as_i64(c.t));
    if (low_cross) {
      const answer l = cross_brute(w, f, k, share, false);
      if (l.missing != nullptr) return l;
      best = std::max(best, as_i64(l.t));
    }
    return {as_cycle(best), nullptr};
  }
  return with_stream_cross(w, f, k, up, as_cycle(best));  // s = 1: the plain model's term
}

// Cross terms of a row k >= 1 query when s > 1 and the rows do not loop
// (docs/wormhole.md, "Virtual channels", "Cross terms"). Buffers j < k are dominated
// by the header term at j + 1 when d <= s + B - 2 (else cross_brute adds them); the
// rest, with q = sB - d, are
//   buffer k:        X(f',k) + d + s(f - f'),                   1 <= f' <= min(B-1, f)
//   buffers j > k:   X(f',j) + d - s f' - qj + s f + qk,        f' + (j-k)B <= f
// Whole buffers come from ms (per buffer max of X(f',j) - s f'), the partly usable
// ones flit by flit. Returns 0 when there is no cross term.
auto wormhole_engine::impl::cross_rows(worm& w, std::uint64_t f, std::uint32_t k) -> answer {
  std::int64_t best = 0;
  const std::int64_t sf = share * as_i64(f);
  const std::uint64_t b = p.buffer;
  if (k <= w.hops) {
    if (f + 1 >= b) {
      const answer a = buffer_max(w, k);
      if (a.missing != nullptr) return a;
      best = std::max(best, ext(w).ms[k] + sf + cd);
    } else {
      for (std::uint64_t fp = f; fp >= 1; --fp) {
        const answer y = stream_leave(w, k, b - fp);
        if (y.missing != nullptr) return y;
        if (y.t == 0) break;
        best = std::max(best, as_i64(y.t) - share * as_i64(fp) + sf + cd);
      }
    }
  }
  const std::uint64_t up = f / b;
  if (up == 0 || k >= w.hops) return {as_cycle(best), nullptr};
  const std::int64_t base = sf + qrow * k + cd;
  // Whole buffers k+1 .. k+up-1 (up to h). The header has left all of them.
  if (up >= 2) {
    const std::uint64_t top = k + up - 1;
    std::int64_t m = std::numeric_limits<std::int64_t>::min();
    general_state& g = ext(w);
    if (top >= w.hops) {
      if (g.msq.empty()) {
        for (std::uint32_t j = 1; j <= w.hops; ++j) {
          const answer a = buffer_max(w, j);
          if (a.missing != nullptr) return a;
        }
        g.msq.resize(w.hops + std::size_t{1});
        for (std::uint32_t j = w.hops; j >= 1; --j) {
          const std::int64_t v = g.ms[j] - qrow * j;
          g.msq[j] = j == w.hops ? v : std::max(v, g.msq[j + 1]);
        }
      }
      m = g.msq[k + 1];
    } else {
      for (auto j = static_cast<std::uint32_t>(k + 1); j <= top; ++j) {
        const answer a = buffer_max(w, j);
        if (a.missing != nullptr) return a;
        m = std::max(m, g.ms[j] - qrow * j);
      }
    }
    best = std::max(best, m + base);
  }
  // Buffer k + up, flits f' <= f mod B.
  if (k + up <= w.hops) {
    const auto j = static_cast<std::uint32_t>(k + up);
    for (std::uint64_t fp = f % b; fp >= 1; --fp) {
      const answer y = stream_leave(w, j, b - fp);
      if (y.missing != nullptr) return y;
      if (y.t == 0) break;
      best = std::max(best, as_i64(y.t) - share * as_i64(fp) - qrow * j + base);
    }
  }
  return {as_cycle(best), nullptr};
}

// ms[j] = max_{1<=f'<B} X(f', j) - s f' (very negative when nothing ahead matters).
auto wormhole_engine::impl::buffer_max(worm& w, std::uint32_t j) -> answer {
  general_state& g = ext(w);
  if (g.ms.empty()) g.ms.assign(w.hops + std::size_t{1}, unknown_max);
  if (g.ms[j] != unknown_max) return {0, nullptr};
  std::int64_t v = std::numeric_limits<std::int64_t>::min() / 4;
  for (std::uint64_t fp = p.buffer - 1; fp >= 1; --fp) {
    const answer y = stream_leave(w, j, p.buffer - fp);
    if (y.missing != nullptr) return y;
    if (y.t == 0) break;
    v = std::max(v, as_i64(y.t) - share * as_i64(fp));
  }
  g.ms[j] = v;
  return {0, nullptr};
}

// Cross terms flit by flit and buffer by buffer, where the closed form's few terms do
// not cover them (docs/wormhole.md, "Cross terms"): on loop rows (1 + d > wt B) every
// buffer j <= k + c, with c = floor((f - f')/B) back-pressure steps; otherwise
// (d > s + B - 2) the buffers j < k, with c = 0:
//   X(f', j) + d + wt(f - f') + (k - j) + c(1 + d - wt B),    1 <= f' <= min(B-1, f).
// wt is the row's weight per flit (s, or g for the injection row with k = 0). Both
// cases have B <= d + 1 <= 17, so the loop over f' is short; buffers the header has
// left come from py, the buffer it is still in flit by flit. Returns 0 when none.
auto wormhole_engine::impl::cross_brute(worm& w, std::uint64_t f, std::uint32_t k, std::int64_t wt,
                                        bool loop) -> answer {
  if (!loop && k == 0) return {0, nullptr};
  const std::uint64_t b = p.buffer;
  const std::int64_t gain = 1 + cd - wt * depth;
  const auto left = static_cast<std::uint32_t>(w.t0.size() - 1);  // buffers < left are left
  std::int64_t best = 0;
  for (std::uint64_t fp = std::min<std::uint64_t>(b - 1, f); fp >= 1; --fp) {
    const std::uint64_t c = loop ? (f - fp) / b : 0;
    const std::uint32_t hi =
        !loop ? k - 1
              : (c >= w.hops - std::min(k, w.hops) ? w.hops : k + static_cast<std::uint32_t>(c));
    std::int64_t m = no_term;
    const std::uint32_t whole_end = hi < left ? hi + 1 : hi;  // buffers [0, whole_end)
    if (whole_end > 0) {
      const answer a = ensure_py(w, whole_end - 1);
      if (a.missing != nullptr) return a;
      m = ext(w).py[(whole_end - 1) * (b - 1) + (fp - 1)];
    }
    if (hi >= left) {
      const answer y = stream_leave(w, hi, b - fp);
      if (y.missing != nullptr) return y;
      if (y.t != 0) m = std::max(m, as_i64(y.t) - hi);
    }
    if (m == no_term) continue;
    best = std::max(best, m + cd + wt * as_i64(f - fp) + k + as_i64(c) * gain);
  }
  return {as_cycle(best), nullptr};
}

// py[j][f'] = max over buffers i <= j of X(f', i) - i, filled in buffer order for the
// buffers the header has left (every flit ahead of it there has left too).
auto wormhole_engine::impl::ensure_py(worm& w, std::uint32_t hi) -> answer {
  const std::uint64_t width = p.buffer - 1;
  general_state& g = ext(w);
  while (g.py_rows <= hi) {
    const std::uint32_t j = g.py_rows;
    if (g.py.size() < (j + std::uint64_t{1}) * width) g.py.resize((j + 1) * width, no_term);
    bool gone = false;
    for (std::uint64_t fp = width; fp >= 1; --fp) {
      std::int64_t v = no_term;
      if (!gone) {
        const answer y = stream_leave(w, j, p.buffer - fp);
        if (y.missing != nullptr) return y;
        gone = y.t == 0;  // nothing this far ahead: nothing further either
        if (!gone) v = as_i64(y.t) - j;
      }
      const std::int64_t below = j == 0 ? no_term : g.py[(j - 1) * width + (fp - 1)];
      g.py[j * width + (fp - 1)] = std::max(v, below);
    }
    g.py_rows = j + 1;
  }
  return {0, nullptr};
}

// T0(f), the crossing of channel 0 by flit f (docs/wormhole.md, "Paced injection").
// With m = floor(f / B) and q0 = gB - d, when g >= s:
//   T0(f) = g f + max( max over k' <= min(h+1, m) of t0[k'] - q0 k',
//                      max over buffers j <= min(h, m), 1 <= f' < B, jB + f' <= f
//                          of X(f', j) + d - g f' - q0 j ).
// Buffers below m contribute their whole cross maximum (cxp, computed once per worm);
// buffer m only its flits f' <= f mod B. When the row loops (q0 <= 0) the paths take
// every back-pressure step instead: t0[k'] - k' + g f + m(1 - q0) for k' <= min(h+1, m),
// and cross_brute. When g < s a path gains nothing by stepping down row 0 after its
// first step up:
//   T0(f) = max( t0[0] + g f,  X(f',0) + d + g(f - f') for f' <= min(f, B-1),
//                t(f-B, 1) + d ).
auto wormhole_engine::impl::paced_row(worm& w, std::uint64_t f) -> answer {
  if (gap < share) {
    std::int64_t best = as_i64(w.t0[0]) + gap * as_i64(f);
    for (std::uint64_t fp = w.live_links == 0 ? 0 : std::min<std::uint64_t>(f, p.buffer - 1);
         fp >= 1; --fp) {
      const answer y = stream_leave(w, 0, p.buffer - fp);
      if (y.missing != nullptr) return y;
      if (y.t == 0) break;
      best = std::max(best, as_i64(y.t) + cd + gap * as_i64(f - fp));
    }
    if (f >= p.buffer) {
      const answer a = flit_time(w, f - p.buffer, 1);
      if (a.missing != nullptr) return a;
      best = std::max(best, as_i64(a.t) + cd);
    }
    return {as_cycle(best), nullptr};
  }
  const std::uint64_t m = f / p.buffer;
  const std::uint32_t last = w.hops + 1;
  const std::uint32_t kk = m >= last ? last : static_cast<std::uint32_t>(m);
  if (loop0) {
    const std::int64_t best = w.pre[kk] + gap * as_i64(f) + as_i64(m) * (1 - q0);
    if (w.live_links == 0) return {as_cycle(best), nullptr};
    const answer c = cross_brute(w, f, 0, gap, true);
    if (c.missing != nullptr) return c;
    return {std::max(as_cycle(best), c.t), nullptr};
  }
  std::int64_t best = ext(w).g0[kk];
  if (w.live_links == 0) return {as_cycle(best + gap * as_i64(f)), nullptr};
  if (m >= 1) {
    const std::uint32_t hi = m - 1 >= w.hops ? w.hops : static_cast<std::uint32_t>(m - 1);
    const answer a = ensure_cross(w, hi);
    if (a.missing != nullptr) return a;
    best = std::max(best, ext(w).cxp[hi]);
  }
  if (m <= w.hops) {
    const auto j = static_cast<std::uint32_t>(m);
    // Nearest flit ahead first; once one is missing from the stream so are the rest.
    for (std::uint64_t fp = f % p.buffer; fp >= 1; --fp) {
      const answer y = stream_leave(w, j, p.buffer - fp);
      if (y.missing != nullptr) return y;
      if (y.t == 0) break;
      best = std::max(best, as_i64(y.t) + cd - gap * as_i64(fp) - q0 * j);
    }
  }
  return {as_cycle(best + gap * as_i64(f)), nullptr};
}

// Extends cxp through buffer hi (the header has left buffers 0..hi, so every flit that
// was ahead of it there has left too).
auto wormhole_engine::impl::ensure_cross(worm& w, std::uint32_t hi) -> answer {
  general_state& g = ext(w);
  while (g.cxp.size() <= hi) {
    const auto j = static_cast<std::uint32_t>(g.cxp.size());
    std::int64_t v = std::numeric_limits<std::int64_t>::min();
    for (std::uint64_t fp = p.buffer - 1; fp >= 1; --fp) {
      const answer y = stream_leave(w, j, p.buffer - fp);
      if (y.missing != nullptr) return y;
      if (y.t == 0) break;
      v = std::max(v, as_i64(y.t) + cd - gap * as_i64(fp) - q0 * j);
    }
    g.cxp.push_back(j == 0 ? v : std::max(v, g.cxp.back()));
  }
  return {0, nullptr};
}

// The packet q just ahead of w's header in buffer k (q's buffer out - 1) left it early
// enough that nothing ahead can matter any more: its tail left by t0[k] + w(B - 1) - d.
// The B - 1 flits ahead leave at least one cycle apart, and at least s apart when they
// all belong to q, so every X(f', k) + d <= t0[k] + w f': each cross term is at most the
// path that steps down row k to the header instead, which weighs s per flit on a link
// buffer and g on the injection buffer. A packet shorter than B also reads the flit
// B - F ahead for its credit, which only the plain bound (w = 1) covers
// (docs/wormhole.md, "Cross terms").
bool wormhole_engine::impl::ahead_gone(const worm& w, std::uint32_t k, const worm& q,
                                       std::uint32_t out) const {
  if (!general) return q.tail[out] + 1 + as_cycle(cd) <= w.t0[k] + p.buffer;
  const std::int64_t spread =
      w.flits >= p.buffer && q.flits + 1 >= p.buffer ? (k == 0 ? std::min(gap, share) : share) : 1;
  return q.tail[out] + as_cycle(cd) <= w.t0[k] + as_cycle(spread * (depth - 1));
}

// When the flit d places ahead of w's header in buffer k left that buffer; 0 when it
// cannot constrain anything (it left early enough, or there is no such flit).
auto wormhole_engine::impl::stream_leave(worm& w, std::uint32_t k, std::uint64_t d) -> answer {
  ahead_link* a = &w.ahead[k];
  if (a->w) {
    worm& q = *a->w;
    const std::uint32_t out = a->k + 1;
    // Everything ahead left early enough: every term it could add is dominated
    // (docs/wormhole.md, "Cross terms"). Forget it once the header itself has left.
    if (q.tail_done > out && ahead_gone(w, k, q, out)) {
      if (w.t0.size() > k + std::size_t{1}) {
        a->w = nullptr;
        --w.live_links;
      }
      return {0, nullptr};
    }
  }
  while (a->w) {
    worm& q = *a->w;
    if (d <= q.flits) return leave_time(q, a->k, d);
    d -= q.flits;
    a = &q.ahead[a->k];
  }
  return {0, nullptr};
}

// When flit F - d of q (1 <= d <= min(F, B)) left q's buffer k, memoized: a table
// when it is small, a map otherwise (large B).
auto wormhole_engine::impl::leave_time(worm& q, std::uint32_t k, std::uint64_t d) -> answer {
  // With g = s = 1 a query asks for one cross term, so nothing is asked twice.
  if (!general) return flit_time(q, q.flits - d, k + 1);
  const std::uint64_t width = std::min<std::uint64_t>(q.flits, p.buffer);
  const std::uint64_t at = k * width + (d - 1);
  const bool table = (q.hops + std::uint64_t{1}) * width <= memo_table;
  {
    general_state& g = ext(q);
    if (table) {
      if (g.memo.empty()) g.memo.assign((q.hops + std::size_t{1}) * width, 0);
      if (g.memo[at] != 0) return {g.memo[at], nullptr};
    } else if (g.memo_far) {
      if (const auto it = g.memo_far->find(at); it != g.memo_far->end())
        return {it->second, nullptr};
    }
  }
  const answer a = flit_time(q, q.flits - d, k + 1);
  if (a.missing == nullptr) {
    general_state& g = ext(q);  // the query may have allocated q's state
    if (table) {
      g.memo[at] = a.t;
    } else {
      if (!g.memo_far) g.memo_far = std::make_unique<std::unordered_map<std::uint64_t, cycle_t>>();
      g.memo_far->emplace(at, a.t);
    }
  }
  return a;
}

// Buffer k of w frees the slot the next header needs when flit S+F-B of the buffer's
// stream leaves it (S = w's first flit there).
auto wormhole_engine::impl::credit_time(worm& w, std::uint32_t k) -> answer {
  if (w.flits >= p.buffer) return flit_time(w, w.flits - p.buffer, k + 1);
  if (w.t0.size() <= k) return {0, &w};  // the packets ahead are known once w is in
  return stream_leave(w, k, p.buffer - w.flits);
}

}  // namespace tessera::net
