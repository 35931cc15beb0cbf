// The tile runtime over the memory-mapped NIC (tessera/runtime/mmio_nic.hpp) against the
// platform's register device (tessera/iss/nic_device.hpp), with no ISS in between: the
// driver's register accesses call the device directly, and the device drives an
// in-memory network. Collectives run on every tile's executor and every byte is checked
// against the payload definition (fw::verify_tile), as a native tile's are; bad register
// use is refused without touching the network.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "tessera/firmware/payload.hpp"
#include "tessera/firmware/textbook.hpp"
#include "tessera/iss/nic_device.hpp"
#include "tessera/runtime/block_store.hpp"
#include "tessera/runtime/executor.hpp"
#include "tessera/runtime/memory_nic.hpp"
#include "tessera/runtime/mmio_nic.hpp"

namespace {

using namespace tessera;
namespace abi = tile_abi;

constexpr std::uint32_t tiles = 4;
using net = memory_fabric<tiles, 16, 64, 2048, 32>;
using device = iss::nic_device<net::port>;

// The bus of a host test: the tile's registers are the device's, its RAM a vector.
struct host_bus {
  device* dev{nullptr};
  std::byte* ram{nullptr};
  std::uint32_t read(std::uint32_t offset) { return dev->read(offset); }
  void write(std::uint32_t offset, std::uint32_t value) { dev->write(offset, value); }
  std::uint32_t address(const void* p) {
    return abi::ram_base + static_cast<std::uint32_t>(static_cast<const std::byte*>(p) - ram);
  }
  void wait() {}
};

using driver = mmio_nic<host_bus>;
using exec = executor<driver, fw::collective_program>;

constexpr std::size_t ram_bytes = 64 * 1024;
constexpr std::uint32_t slot = 256;
constexpr std::uint32_t capacity = 16;
constexpr std::uint32_t ids = 16;

struct tile {
  std::vector<std::byte> ram = std::vector<std::byte>(ram_bytes);
  block_store_storage<capacity, slot> mem;
  block_store store;
  net::port port;
  std::unique_ptr<device> dev;
  driver nic;
  std::array<block_id, ids> send_ids{};
  std::array<block_id, ids> recv_ids{};
  std::unique_ptr<exec> ex;
};

// Every tile runs the collective over its driver, stepped round robin until all are done
// or none moves. Returns the tiles for checking.
std::vector<std::unique_ptr<tile>> run(const fw::collective_params& c, net& fab) {
  std::vector<std::unique_ptr<tile>> ts;
  executor_config cfg;
  cfg.tiles = tiles;
  cfg.type = c.type;
  cfg.rop = c.rop;
  for (std::uint32_t t = 0; t < tiles; ++t) {
    auto tl = std::make_unique<tile>();
    tl->store = tl->mem.make();
    REQUIRE(fw::load_initial(c, t, tl->store));
    tl->port = fab.nic(t);
    tl->dev = std::make_unique<device>(tl->port, t, tiles, iss::guest_ram{tl->ram});
    tl->nic = driver{host_bus{tl->dev.get(), tl->ram.data()}};
    // The message buffers live in tile RAM, where the device reads and writes them.
    const std::size_t msg = dir_bytes(ids) + std::size_t{ids} * slot;
    const std::span<std::byte> tx{tl->ram.data(), msg};
    const std::span<std::byte> rx{tl->ram.data() + msg, msg};
    exec::buffers b{tl->send_ids, tl->recv_ids, tx, rx, {}};
    tl->ex = std::make_unique<exec>(tile_id{t}, tl->nic, fw::collective_program{c, tile_id{t}},
                                    tl->store, b, cfg);
    ts.push_back(std::move(tl));
  }
  for (int round = 0; round < 10000; ++round) {
    std::uint32_t done = 0;
    for (auto& tl : ts) {
      const tile_state s = tl->ex->poll();
      REQUIRE(s != tile_state::failed);
      if (s == tile_state::done) ++done;
    }
    if (done == tiles) break;
  }
  return ts;
}

fw::collective_params params(fw::collective coll, std::uint32_t bytes) {
  fw::collective_params c;
  c.coll = coll;
  c.f = fabric::mesh(2, 2);
  c.bytes = bytes;
  c.type = elem_type::u32;
  c.rop = reduce_op::sum;
  if (coll == fw::collective::alltoall) {
    c.a2a = fw::default_a2a_algorithm(c.f);
  } else {
    c.alg = fw::default_algorithm(coll, c.f);
  }
  return c;
}

}  // namespace

TEST_CASE("mmio nic: collectives run over the registers and every byte arrives", "[iss]") {
  for (const fw::collective coll :
       {fw::collective::alltoall, fw::collective::allgather, fw::collective::allreduce,
        fw::collective::bcast, fw::collective::reduce, fw::collective::prefix}) {
    INFO(fw::info(coll).name);
    auto net_ptr = std::make_unique<net>();
    const fw::collective_params c = params(coll, 64);
    const auto ts = run(c, *net_ptr);
    for (std::uint32_t t = 0; t < tiles; ++t) {
      CHECK(ts[t]->ex->poll() == tile_state::done);
      const fw::mismatch m = fw::verify_tile(c, t, ts[t]->store);
      CHECK(m.kind == fw::mismatch_kind::none);
      CHECK(ts[t]->dev->refused() == 0);
      CHECK(ts[t]->dev->commands() > 0);
    }
  }
}

TEST_CASE("mmio nic: the device names itself and refuses what a tile must not do", "[iss]") {
  auto fab = std::make_unique<net>();
  net::port port = fab->nic(1);
  std::vector<std::byte> ram(4096);
  device dev{port, 1, tiles, iss::guest_ram{ram}};
  namespace reg = abi::reg;
  CHECK(dev.read(reg::magic) == abi::nic_magic);
  CHECK(dev.read(reg::version) == abi::abi_version);
  CHECK(dev.read(reg::tile) == 1);
  CHECK(dev.read(reg::tiles) == tiles);
  dev.write(reg::tile, 7);  // read-only
  CHECK(dev.read(reg::tile) == 1);
  auto command = [&](abi::command c) {
    dev.write(reg::command, static_cast<std::uint32_t>(c));
    return dev.read(reg::result);
  };
  // A payload that runs past the end of tile RAM.
  dev.write(reg::hdr_dst, 2);
  dev.write(reg::arg_addr, abi::ram_base + 4000);
  dev.write(reg::arg_len, 200);
  CHECK(command(abi::command::post_send) == abi::bad_command);
  // A buffer below tile RAM, a source outside the fabric.
  dev.write(reg::arg_peer, 0);
  dev.write(reg::arg_addr, abi::ram_base - 4);
  dev.write(reg::arg_len, 8);
  CHECK(command(abi::command::post_recv) == abi::bad_command);
  dev.write(reg::arg_peer, tiles);
  dev.write(reg::arg_addr, abi::ram_base);
  CHECK(command(abi::command::post_recv) == abi::bad_command);
  // A handle never given, an unknown command, a message kind out of range.
  dev.write(reg::arg_handle, 3);
  CHECK(command(abi::command::test) == abi::bad_command);
  CHECK(command(abi::command::release) == abi::bad_command);
  CHECK(command(static_cast<abi::command>(77)) == abi::bad_command);
  dev.write(reg::hdr_kind, 200);
  CHECK(command(abi::command::post_control) == abi::bad_command);
  CHECK(dev.refused() == 7);
  // A good receive, then its handle released twice.
  dev.write(reg::arg_peer, 0);
  dev.write(reg::arg_addr, abi::ram_base);
  dev.write(reg::arg_len, 64);
  const std::uint32_t h = command(abi::command::post_recv);
  REQUIRE(h != abi::bad_command);
  dev.write(reg::arg_handle, h);
  CHECK(command(abi::command::test) == static_cast<std::uint32_t>(nic_status::pending));
  CHECK(command(abi::command::release) == 0);
  CHECK(command(abi::command::release) == abi::bad_command);
  CHECK_FALSE(dev.finished());
  CHECK(command(abi::command::finish) == 0);
  CHECK(dev.finished());
}
