// The tile image (baremetal/tile/tile_main.cpp) on Unicorn Cortex-M4 cores
// (tessera/iss/cortex_m4.hpp), without SystemC: each core's NIC registers are the
// platform's device (nic_device.hpp) over an in-memory network that delivers at once, and
// the cores take turns. Each collective runs to its end on every tile and the blocks each
// reports are read from its RAM and checked byte by byte against the payload definition,
// as a native tile's are. Also: the image's refusals and the core's stop reasons.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "tessera/common/errors.hpp"
#include "tessera/firmware/payload.hpp"
#include "tessera/iss/boot.hpp"
#include "tessera/iss/cortex_m4.hpp"
#include "tessera/iss/elf_image.hpp"
#include "tessera/iss/nic_device.hpp"
#include "tessera/runtime/memory_nic.hpp"

namespace {

using namespace tessera;
namespace abi = tile_abi;

constexpr std::uint32_t max_tiles = 8;
using net = memory_fabric<max_tiles, 64, 256, 4096, 64>;
using device = iss::nic_device<net::port>;

struct device_bus final : iss::register_bus {
  device* dev{nullptr};
  std::uint32_t read(std::uint32_t offset) override { return dev->read(offset); }
  void write(std::uint32_t offset, std::uint32_t value) override { dev->write(offset, value); }
};

struct tile {
  net::port port;
  device_bus bus;
  std::unique_ptr<iss::cortex_m4> core;
  std::unique_ptr<device> dev;
};

const iss::elf_image& image() {
  static const iss::elf_image img = iss::load_elf(TESSERA_TILE_IMAGE);
  return img;
}

struct outcome {
  std::vector<iss::tile_result> results;
  std::uint64_t instructions{0};
  std::string fault;
};

// Runs the collective on c.f's tiles, the cores taking turns of up to `budget`
// instructions or until they stop for a command or go idle, until every tile has finished.
// With `check`, every tile's reported blocks are verified.
outcome run(const fw::collective_params& c, std::uint64_t budget = 20000, bool check = true) {
  const std::uint32_t p = c.f.tiles();
  auto fab = std::make_unique<net>();
  std::vector<std::unique_ptr<tile>> ts;
  executor_config cfg;
  cfg.tiles = p;
  for (std::uint32_t t = 0; t < p; ++t) {
    auto tl = std::make_unique<tile>();
    tl->port = fab->nic(t);
    tl->core = std::make_unique<iss::cortex_m4>(image(), tl->bus);
    tl->core->reset();
    iss::write_boot(tl->core->ram(), c, cfg, t);
    tl->dev = std::make_unique<device>(tl->port, t, p, iss::guest_ram{tl->core->ram()});
    tl->bus.dev = tl->dev.get();
    ts.push_back(std::move(tl));
  }
  outcome o;
  for (int turn = 0; turn < 200000; ++turn) {
    std::uint32_t finished = 0;
    for (auto& tl : ts) {
      if (tl->dev->finished()) {
        ++finished;
        continue;
      }
      const iss::core_stop s = tl->core->run(budget);
      o.instructions += s.instructions;
      if (s.why == iss::stop_reason::fault) {
        o.fault = s.fault;
        return o;
      }
    }
    if (finished == p) break;
  }
  for (auto& tl : ts)
    o.results.push_back(iss::read_result(tl->core->ram()));
  // Keep the RAM for the checks: copy each tile's reported blocks now.
  for (std::uint32_t t = 0; t < p && check; ++t) {
    iss::reported_blocks got;
    const std::string problem =
        got.load(t, o.results[t], ts[t]->core->ram(), fw::layout{c}.slot_bytes());
    INFO("tile " << t);
    CHECK(problem.empty());
    if (problem.empty()) {
      const fw::mismatch m = fw::verify_tile(c, t, got.store());
      CHECK(m.kind == fw::mismatch_kind::none);
    }
  }
  return o;
}

fw::collective_params params(fw::collective coll, fabric f, std::uint32_t bytes) {
  fw::collective_params c;
  c.coll = coll;
  c.f = f;
  c.bytes = bytes;
  c.type = elem_type::i32;
  c.rop = reduce_op::sum;
  if (coll == fw::collective::alltoall) {
    c.a2a = fw::default_a2a_algorithm(f);
  } else {
    c.alg = fw::default_algorithm(coll, f);
  }
  return c;
}

}  // namespace

TEST_CASE("iss: the tile image runs every collective on Cortex-M4 cores, every byte intact",
          "[iss]") {
  for (const fabric f : {fabric::mesh(2, 2), fabric::hypercube(3)}) {
    for (const fw::collective coll :
         {fw::collective::alltoall, fw::collective::allgather, fw::collective::allreduce,
          fw::collective::bcast, fw::collective::reduce, fw::collective::prefix,
          fw::collective::scatter, fw::collective::gather}) {
      const fw::collective_params c = params(coll, f, 64);
      INFO(fw::info(coll).name << " on " << f.tiles() << " tiles");
      const outcome o = run(c);
      INFO(o.fault);
      REQUIRE(o.fault.empty());
      REQUIRE(o.results.size() == f.tiles());
      for (const iss::tile_result& r : o.results) {
        CHECK(r.state == abi::tile_state_code::done);
        CHECK(r.arena_used <= r.arena_size);
      }
      CHECK(o.instructions > 0);
    }
  }
}

TEST_CASE("iss: a core stopped every few instructions resumes exactly where it stopped", "[iss]") {
  // Seven instructions a turn: every stop lands somewhere new in the runtime's code (in
  // loops, between a compare and its branch, next to IT blocks), and the run must not
  // notice.
  const fw::collective_params c = params(fw::collective::allreduce, fabric::hypercube(2), 32);
  const outcome few = run(c, 7);
  REQUIRE(few.fault.empty());
  for (const iss::tile_result& r : few.results)
    CHECK(r.state == abi::tile_state_code::done);
  // Deterministic: the same turns retire the same instructions. (Other turn lengths
  // interleave the tiles differently, and a tile that polls before a message is there
  // polls once more.)
  const outcome again = run(c, 7);
  CHECK(again.instructions == few.instructions);
}

TEST_CASE("iss: a workload larger than the arena is refused with the bytes it needs", "[iss]") {
  // Every tile of an all-gather ends holding all four 1 MiB blocks: more than the 4 MiB of
  // tile RAM, so the image stops before its program with the size of its whole plan.
  const fw::collective_params c = params(fw::collective::allgather, fabric::mesh(2, 2), 1U << 20);
  const std::uint32_t slot = fw::layout{c}.slot_bytes();
  REQUIRE(slot == c.bytes);
  const outcome o = run(c, 20000, false);
  REQUIRE(o.fault.empty());
  REQUIRE(o.results.size() == 4);
  for (const iss::tile_result& r : o.results) {
    CHECK(r.state == abi::tile_state_code::too_big);
    CHECK(r.arena_size < abi::ram_size);
    CHECK(r.arena_used > r.arena_size);
    // At least the block slots, the first region, and each receive's buffer after them.
    CHECK(r.arena_used >= 4 * slot + slot);
  }
}

TEST_CASE("iss: a bad firmware file is refused with one line naming it", "[iss]") {
  CHECK_THROWS_WITH(iss::load_elf("/nonexistent/tile.elf"), Catch::Contains("cannot be read"));
  CHECK_THROWS_WITH(iss::load_elf(TESSERA_TILE_IMAGE ".map"),
                    Catch::Contains("is not an ELF file"));
  // A host executable: ELF, but not the tile's architecture.
  CHECK_THROWS_WITH(iss::load_elf("/proc/self/exe"),
                    Catch::Contains("not a 32-bit little-endian ARM"));
}
