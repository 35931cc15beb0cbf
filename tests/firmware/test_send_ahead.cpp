// The executor's send_ahead (a tile posts its next op's send while the current one
// is in flight) must never change what data ends where: every textbook and
// complete-exchange algorithm stays verified byte by byte on the host alpha-beta
// model, with every protocol it applies to.
#include <catch2/catch.hpp>

#include "tessera/alphabeta/run.hpp"
#include "tessera/firmware/collective.hpp"

namespace fw = tessera::fw;

TEST_CASE("send_ahead keeps every collective verified", "[firmware][send_ahead]") {
  for (const char* spec : {"hypercube:3", "mesh:2x4", "ring:5"}) {
    const tessera::fabric f = tessera::parse_fabric(spec).value;
    for (const auto& a : fw::tb_algorithms) {
      if (!fw::fabric_meets(a.needs, f)) continue;
      fw::collective_params c;
      c.f = f;
      c.coll = a.coll;
      c.alg = a.alg;
      c.bytes = 48;
      c.type = tessera::elem_type::i32;
      c.shift = 2;
      tessera::ab::run_options o;
      o.send_ahead = true;
      const auto r = tessera::ab::run_collective(c, o);
      INFO(spec << ' ' << a.name << ": " << r.failure);
      CHECK(r.verified);
    }
    for (const auto& a : fw::a2a_algorithms) {
      if (!fw::a2a_supported(a.alg, f)) continue;
      for (const bool prepost : {false, true}) {
        fw::collective_params c;
        c.f = f;
        c.coll = fw::collective::alltoall;
        c.a2a = a.alg;
        c.bytes = 40;
        tessera::ab::run_options o;
        o.send_ahead = true;
        o.prepost = prepost;
        o.proto = prepost ? tessera::protocol::forced : tessera::protocol::raw;
        const auto r = tessera::ab::run_collective(c, o);
        INFO(spec << ' ' << a.name << (prepost ? " forced+prepost" : " raw") << ": " << r.failure);
        CHECK(r.verified);
      }
    }
  }
}

TEST_CASE("send_ahead posts the next send while the current one is in flight",
          "[firmware][send_ahead]") {
  // Linear alltoall on ring:3 with ts = 10, tw = 1, m = 10: each step is a sendrecv
  // to me + i and from me - i, i = 1, 2. Without send_ahead step 2's messages start
  // when step 1 is over (2 x 20 cycles). With it, a tile's step-2 send is queued
  // behind its step-1 send on its single output port, so it starts the moment that
  // port frees, which is when step 1 is over anyway: the same 40 cycles. The output
  // port, not the executor, is the limit on this network.
  fw::collective_params c;
  c.f = tessera::parse_fabric("ring:3").value;
  c.coll = fw::collective::alltoall;
  c.a2a = fw::a2a_algorithm::linear;
  c.bytes = 10;
  for (const bool ahead : {false, true}) {
    tessera::ab::run_options o;
    o.prm = {10, 1};
    o.send_ahead = ahead;
    const auto r = tessera::ab::run_collective(c, o);
    CHECK(r.verified);
    CHECK(r.cycles == 40);
  }
}
