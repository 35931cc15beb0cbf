// tb_torus's engine comparison (torus_compare.hpp): net::torus_engine driven by the
// protocol of engine.hpp, cycle by cycle as the RTL run posts, its arrivals recorded.
#include "torus_compare.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <tuple>

#include "tessera/net/torus_engine.hpp"

namespace tessera::tb::torus {

namespace {

using rtl_tops::torus_buffers;

struct run_result {
  std::map<arrival_key, std::uint64_t> arrival;
  std::vector<plan_msg> msgs;  // static and reactive, in posting order of the run
};

// The same messages through net::torus_engine, driven by the protocol of engine.hpp.
std::string run_engine(const scenario& sc, const options& o, const tessera::fabric& f,
                       run_result& out, std::uint64_t& stalls) {
  net::torus_params p;
  p.beta = o.beta;
  p.tau = o.tau;
  p.packet_bytes = sc.packet_bytes;
  p.buffers = torus_buffers;
  net::torus_engine e{f, p};
  std::vector<net::tree_entry> trees;
  for (const auto& [tile, tree, mask] : sc.table)
    trees.push_back({tree + 1, tile, mask});
  e.set_trees(trees);
  std::vector<plan_msg> msgs = sc.msgs;
  for (const plan_msg& m : msgs)
    if (m.packet_bytes != sc.packet_bytes) return "engine: messages with different packet sizes";
  std::stable_sort(msgs.begin(), msgs.end(),
                   [](const plan_msg& a, const plan_msg& b) { return a.post < b.post; });
  // Numbered as the RTL run numbers them: the static messages in posting order first.
  numbering num;
  for (plan_msg& m : msgs)
    num.assign(m);
  std::vector<net::torus_arrival> fresh;
  e.set_arrival_hook([&](const net::torus_arrival& a) { fresh.push_back(a); });
  std::vector<plan_msg> all;  // by xfer id - 1
  std::size_t next = 0;
  const auto post = [&](plan_msg m, std::uint64_t now) {
    num.assign(m);
    net::xfer x;
    x.id = all.size() + 1;
    x.src = m.src;
    x.dst = m.dst;
    x.bytes = m.bytes;
    x.tree = m.multicast ? m.tree + 1 : 0;
    all.push_back(m);
    e.inject(x, now);
  };
  const auto record = [&]() {
    for (const net::torus_arrival& a : fresh) {
      const plan_msg& m = all[a.id - 1];
      out.arrival[{a.tile, m.src, m.seq + static_cast<unsigned>(a.packet)}] = a.at;
    }
  };
  std::uint64_t now = msgs.empty() ? 0 : msgs.front().post;
  const std::uint64_t timeout =
      o.timeout.value_or(default_timeout) + (msgs.empty() ? 0 : msgs.back().post);
  while (true) {
    fresh.clear();
    if (e.next_event() == now) e.fire(now);
    record();
    if (!sc.children.empty()) {
      std::vector<std::tuple<unsigned, unsigned, unsigned>> got;
      for (const net::torus_arrival& a : fresh) {
        const plan_msg& m = all[a.id - 1];
        got.emplace_back(a.tile, m.stream, m.index);
      }
      for (const plan_msg& m : reactions(sc, got, now))
        post(m, now);
    }
    while (next < msgs.size() && msgs[next].post == now)
      post(msgs[next++], now);
    fresh.clear();
    e.arbitrate(now);
    record();
    if (e.next_event() == now) continue;
    const std::uint64_t ev = e.next_event();
    const std::uint64_t in = next < msgs.size() ? msgs[next].post : net::never;
    const std::uint64_t to = std::min(ev, in);
    if (to == net::never) break;
    if (to > timeout) return "engine: still running at cycle " + std::to_string(to);
    now = to;
  }
  e.set_arrival_hook(nullptr);
  if (!e.idle()) {
    std::string why = "engine stopped with work left:";
    for (const std::string& s : e.stuck())
      why += " " + s + ";";
    return why;
  }
  stalls = e.credit_stalls();
  out.msgs = all;
  return {};
}

}  // namespace

int compare_with_engine(const scenario& sc, const options& o, const tessera::fabric& f,
                        const std::vector<plan_msg>& posted,
                        const std::map<arrival_key, std::uint64_t>& rtl, std::string_view size,
                        bool ok) {
  run_result eng;
  std::uint64_t stalls = 0;
  if (std::string e = run_engine(sc, o, f, eng, stalls); !e.empty()) {
    std::cerr << "tb_torus: " << e << '\n';
    return exit_fail;
  }
  std::uint64_t differ = 0;
  const auto report = [&](const arrival_key& k, const std::string& what) {
    if (++differ <= 8)
      std::cerr << "tb_torus: packet (src " << std::get<1>(k) << ", seq " << std::get<2>(k)
                << ") at tile " << std::get<0>(k) << ": " << what << '\n';
  };
  for (const auto& [k, c] : rtl) {
    const auto it = eng.arrival.find(k);
    if (it == eng.arrival.end())
      report(k, "RTL " + std::to_string(c) + ", engine never");
    else if (it->second != c)
      report(k, "RTL " + std::to_string(c) + ", engine " + std::to_string(it->second));
  }
  for (const auto& [k, c] : eng.arrival)
    if (rtl.count(k) == 0) report(k, "engine " + std::to_string(c) + ", RTL never");
  // Messages: delivered at a tile when their last packet is there.
  std::uint64_t messages = 0;
  std::uint64_t last_delivery = 0;
  for (const plan_msg& m : posted) {
    for (const unsigned t : destinations(m, sc, f)) {
      std::uint64_t d = 0;
      for (unsigned j = 0; j < packets_of(m); ++j)
        d = std::max(d, rtl.at({t, m.src, m.seq + j}));
      last_delivery = std::max(last_delivery, d);
      ++messages;
    }
  }
  std::cout << "tb_torus " << size << ' ' << o.scenario << " engine agreement: " << messages
            << " message deliveries (" << rtl.size() << " packet arrivals) compared, last at cycle "
            << last_delivery << ", " << stalls << " credit stalls in the engine: "
            << (differ == 0 ? "identical" : std::to_string(differ) + " differ") << '\n';
  return differ == 0 && ok ? exit_pass : exit_fail;
}

}  // namespace tessera::tb::torus
