#include "tessera/models/estimate.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tessera/analytic/transfers.hpp"
#include "tessera/net/circuit_engine.hpp"
#include "tessera/net/duplex.hpp"
#include "tessera/net/wormhole_engine.hpp"
#include "tessera/runtime/routing.hpp"

namespace tessera::models {
namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

// A tile's latest stream in one direction, for the half-duplex rule.
using stream = net::duplex_stream<double>;

// The engine's view of one message: when it may start, how long it holds its
// channels, how long its data stream is.
class network {
 public:
  network(const fabric& f, switching sw, const models::engine_params& p)
      : f_(f), sw_(sw), p_(p), eng_(models::engine(sw)), links_(f.link_slots()) {
    lanes_ = 1;
    if (sw == switching::wormhole) {
      lanes_ = std::max<std::uint32_t>(1, std::min(p.wormhole.vcs, p.wormhole.inject_gap));
      duplex_ = net::duplex_of(p.wormhole);
    } else if (sw == switching::circuit) {
      duplex_ = net::duplex_of(p.circuit);
    }
    // Links, then each tile's injection, then its ejection.
    busy_.assign(static_cast<std::size_t>(links_ + 2 * f.tiles()) * lanes_, 0.0);
    tx_.resize(f.tiles());
    rx_.resize(f.tiles());
  }

  // Posts a message of `bytes` from src to dst at cycle `now`; returns its delivery.
  double post(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes, double now) {
    path_.clear();
    // The wormhole mesh's routing decides the path (xy or yx); every other fabric routes
    // its one way.
    const dim_order order =
        sw_ == switching::wormhole ? net::order_of(p_.wormhole.routing) : dim_order::xy;
    for_each_hop(
        f_, tile_id{src}, tile_id{dst}, [&](link_id l) { path_.push_back(l.value()); }, order);
    const auto hops = static_cast<std::uint32_t>(path_.size());
    const double zero = static_cast<double>(eng_.zero_load(p_, bytes, hops));
    if (sw_ == switching::store_forward) return store_forward(bytes, hops, now);
    // Before the channels are held: the start-up (wormhole alpha, circuit xi - xi_held).
    double before = 0;
    double copy = 0;
    double data = 0;  // the stream's length
    if (sw_ == switching::wormhole) {
      const net::wormhole_params& w = p_.wormhole;
      const bool eager = w.eager_bytes != 0 && bytes <= w.eager_bytes;
      before = static_cast<double>(eager ? w.alpha_eager : w.alpha);
      copy = eager ? static_cast<double>(ceil_div(bytes * w.eager_copy, 1024)) : 0.0;
      data =
          static_cast<double>(std::max<std::uint64_t>(1, ceil_div(bytes, w.width)) * w.inject_gap);
    } else if (sw_ == switching::ideal) {
      // Grama's network: the message holds its sender's output port and its receiver's
      // input port for all of ts + tw m (alphabeta_engine.hpp), and no link.
      data = zero;
      path_.clear();
    } else {
      const net::circuit_params& c = p_.circuit;
      before = static_cast<double>(c.xi - std::min(c.xi, c.xi_held));
      data = static_cast<double>(std::max<std::uint64_t>(1, ceil_div(bytes, c.width)));
    }
    const double held = zero - before - copy;  // channels held, start to tail

    // When the header reaches each channel after the start: a worm's header takes
    // router_delay + 1 cycles a hop, and a channel is let go when the tail has passed
    // it, a stream after its header (a short worm has left the first links before its
    // head arrives). A circuit holds its whole path, from set-up to teardown.
    path_.insert(path_.begin(), links_ + src);
    path_.push_back(links_ + f_.tiles() + dst);
    offset_.assign(path_.size(), 0.0);
    double span = held;  // a channel's hold, from its header to the tail
    if (sw_ == switching::wormhole) {
      const double hop = static_cast<double>(p_.wormhole.router_delay) + 1;
      for (std::size_t k = 0; k < path_.size(); ++k)
        offset_[k] = std::min(held, hop * static_cast<double>(k));
      span = std::max(data, held - offset_.back());
    }
    double start = free_at(now + before);
    // Half duplex: a transmit that would start long after its tile began a receive
    // waits at the NIC until that receive is delivered.
    if (duplex_.late(rx_[src], start, dst)) start = free_at(rx_[src].end);
    // The stream begins once the path is through (the data's first element at dst).
    double data_start = start + held - data;
    double done = start + held;
    // A receive that would start long after its tile began a transmit: with the hold
    // the worm or circuit waits for the transmit to end, keeping its channels; without
    // it the data drains and the receive completes one stream after the transmit.
    double late_by = 0;  // a hold at the ejection: the channels stay held
    if (duplex_.late(tx_[dst], data_start, src)) {
      if (duplex_.holds()) {
        late_by = tx_[dst].end - data_start;
        data_start += late_by;
        done += late_by;
      } else {
        done = net::duplex_policy::serial_end(done, tx_[dst].end, data);
      }
    }
    waited_ += start - (now + before);
    for (std::size_t k = 0; k < path_.size(); ++k)
      take(path_[k], std::min(done, start + offset_[k] + span + late_by));
    tx_[src] = {data_start, done, dst};
    rx_[dst] = {data_start, done, src};
    return done + copy;
  }

  [[nodiscard]] double waited() const { return waited_; }

 private:
  // The first start from t on at which the header finds a free lane on every channel
  // of path_ when it gets there (offset_ later).
  [[nodiscard]] double free_at(double t) const {
    for (std::size_t k = 0; k < path_.size(); ++k) {
      const double* lane = &busy_[static_cast<std::size_t>(path_[k]) * lanes_];
      t = std::max(t, *std::min_element(lane, lane + lanes_) - offset_[k]);
    }
    return t;
  }

  void take(std::uint32_t c, double until) {
    double* lane = &busy_[static_cast<std::size_t>(c) * lanes_];
    double* first = std::min_element(lane, lane + lanes_);
    *first = std::max(*first, until);
  }

  // Bermond: a packet holds a link beta + tau P a hop; with several packets per
  // message the zero-load pipeline is kept and each link is held for the message's
  // share of it. A link's holds are kept as intervals: a message may take a link at its
  // first hop in a gap before one that a message posted earlier holds at its third.
  double store_forward(std::uint64_t bytes, std::uint32_t hops, double now) {
    const double zero = static_cast<double>(eng_.zero_load(p_, bytes, hops));
    if (hops == 0) return now + zero;
    const double hop = zero / hops;
    if (held_.empty()) held_.resize(links_);
    double t = now;
    for (std::uint32_t c : path_) {
      auto& iv = held_[c];
      // Holds that ended before now cannot matter again: posts come in time order.
      std::size_t gone = 0;
      while (gone < iv.size() && iv[gone].second <= now)
        ++gone;
      iv.erase(iv.begin(), iv.begin() + static_cast<std::ptrdiff_t>(gone));
      double start = t;
      std::size_t at = 0;
      for (; at < iv.size(); ++at) {
        if (iv[at].second <= start) continue;
        if (iv[at].first >= start + hop) break;
        start = iv[at].second;
      }
      iv.insert(iv.begin() + static_cast<std::ptrdiff_t>(at), {start, start + hop});
      waited_ += start - t;
      t = start + hop;
    }
    return t;
  }

  const fabric& f_;
  switching sw_;
  const models::engine_params& p_;
  const models::engine_info& eng_;
  std::uint32_t links_;
  std::uint32_t lanes_{1};
  net::duplex_policy duplex_;  // full duplex but on the engines that have the rule
  std::vector<double> busy_;
  std::vector<std::vector<std::pair<double, double>>> held_;  // store-forward
  std::vector<stream> tx_;
  std::vector<stream> rx_;
  std::vector<std::uint32_t> path_;
  std::vector<double> offset_;  // per channel of path_: when the header gets there
  double waited_{0};
};

}  // namespace

engine_estimate estimate_on_engine(const schedule& s, const fabric& f, switching sw,
                                   const models::engine_params& p) {
  engine_estimate out;
  const std::uint32_t tiles =
      std::min<std::uint32_t>(f.tiles(), static_cast<std::uint32_t>(s.programs.size()));
  network net(f, sw, p);

  // Messages delivered and not yet received, per (source, destination), in order.
  std::unordered_map<std::uint64_t, std::deque<double>> in_flight;
  auto key = [&f](std::uint32_t src, std::uint32_t dst) {
    return std::uint64_t{src} * f.tiles() + dst;
  };
  std::vector<std::size_t> pc(tiles, 0);
  std::vector<double> pending(tiles, 0);  // a waiting op's end so far
  std::vector<std::uint32_t> waits_on(tiles, no_tile);
  using event = std::pair<double, std::uint32_t>;
  std::priority_queue<event, std::vector<event>, std::greater<>> events;
  for (std::uint32_t t = 0; t < tiles; ++t)
    events.emplace(0.0, t);
  std::uint32_t finished = 0;
  double last = 0;
  while (!events.empty()) {
    const auto [now, t] = events.top();
    events.pop();
    last = std::max(last, now);
    const auto& ops = s.programs[t].ops;
    if (pc[t] == ops.size()) {
      ++finished;
      continue;
    }
    const sched_op& o = ops[pc[t]];
    double end = now;
    if (o.sends() && o.to < tiles) {
      const double delivered = net.post(t, o.to, o.send_bytes, now);
      ++out.messages;
      end = std::max(end, delivered);
      if (waits_on[o.to] == t) {
        // The receiver was waiting for this message: its op ends with it.
        waits_on[o.to] = no_tile;
        ++pc[o.to];
        events.emplace(std::max(pending[o.to], delivered), o.to);
      } else {
        in_flight[key(t, o.to)].push_back(delivered);
      }
    }
    if (o.receives() && o.from < tiles) {
      auto it = in_flight.find(key(o.from, t));
      if (it == in_flight.end() || it->second.empty()) {
        pending[t] = end;
        waits_on[t] = o.from;
        continue;
      }
      end = std::max(end, it->second.front());
      it->second.pop_front();
    }
    ++pc[t];
    events.emplace(end, t);
  }
  out.complete = finished == tiles;
  out.cycles = last;
  out.waited = net.waited();
  return out;
}

}  // namespace tessera::models
