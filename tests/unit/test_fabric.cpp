// Fabric spec strings and neighbours (../shared/DESIGN.md "Units and names").
#include <catch2/catch.hpp>

#include "tessera/runtime/fabric.hpp"
#include "tessera/runtime/routing.hpp"

using namespace tessera;

static_assert(parse_fabric("mesh:16x32").value == fabric::mesh(16, 32));
static_assert(parse_fabric("hypercube:6").value.tiles() == 64);

TEST_CASE("fabric specs parse into shapes", "[fabric]") {
  const auto m = parse_fabric("mesh:16x32");
  REQUIRE(m.ok());
  CHECK(m.value.kind == fabric_kind::mesh);
  CHECK(m.value.rows == 16);
  CHECK(m.value.cols == 32);
  CHECK(m.value.tiles() == 512);
  CHECK(m.value.ports() == 4);

  const auto t = parse_fabric("torus:3x5");
  REQUIRE(t.ok());
  CHECK(t.value.kind == fabric_kind::torus);
  CHECK(t.value.tiles() == 15);

  const auto h = parse_fabric("hypercube:7");
  REQUIRE(h.ok());
  CHECK(h.value.tiles() == 128);
  CHECK(h.value.ports() == 7);

  const auto r = parse_fabric("ring:12");
  REQUIRE(r.ok());
  CHECK(r.value.tiles() == 12);
  CHECK(r.value.ports() == 2);
}

TEST_CASE("bad fabric specs name the problem", "[fabric]") {
  using E = fabric_parse_error;
  CHECK(parse_fabric("mesh").error == E::missing_colon);
  CHECK(parse_fabric("cube:3").error == E::unknown_kind);
  CHECK(parse_fabric("mesh:4").error == E::bad_shape);
  CHECK(parse_fabric("mesh:4x").error == E::bad_number);
  CHECK(parse_fabric("mesh:ax4").error == E::bad_number);
  CHECK(parse_fabric("mesh:-4x4").error == E::bad_number);
  CHECK(parse_fabric("mesh:0x4").error == E::zero_size);
  CHECK(parse_fabric("mesh:1x1").error == E::too_few_tiles);
  CHECK(parse_fabric("mesh:300x300").error == E::too_many_tiles);
  CHECK(parse_fabric("mesh:99999999x1").error == E::bad_number);
  CHECK(parse_fabric("hypercube:0").error == E::bad_dimension);
  CHECK(parse_fabric("hypercube:17").error == E::bad_dimension);
  CHECK(parse_fabric("ring:1").error == E::too_few_tiles);
  CHECK(parse_fabric("ring:").error == E::bad_number);
  CHECK(parse_fabric("").error == E::missing_colon);
}

TEST_CASE("mesh edges have no links, torus edges wrap", "[fabric]") {
  const auto m = fabric::mesh(3, 4);
  // Tile 3 is row 0, column 3: east edge and north edge.
  CHECK_FALSE(neighbour(m, tile_id{3}, static_cast<std::uint32_t>(port2d::east)));
  CHECK_FALSE(neighbour(m, tile_id{3}, static_cast<std::uint32_t>(port2d::north)));
  CHECK(neighbour(m, tile_id{3}, static_cast<std::uint32_t>(port2d::west)) == tile_id{2});
  CHECK(neighbour(m, tile_id{3}, static_cast<std::uint32_t>(port2d::south)) == tile_id{7});

  const auto t = fabric::torus(3, 4);
  CHECK(neighbour(t, tile_id{3}, static_cast<std::uint32_t>(port2d::east)) == tile_id{0});
  CHECK(neighbour(t, tile_id{3}, static_cast<std::uint32_t>(port2d::north)) == tile_id{11});

  // Directed links: a mesh r x c has 2(r(c-1) + c(r-1)) of them.
  std::uint32_t links = 0;
  for (std::uint32_t l = 0; l < m.link_slots(); ++l)
    links += link_exists(m, link_id{l}) ? 1U : 0U;
  CHECK(links == 2 * (3 * 3 + 4 * 2));
  // A torus r x c (r, c >= 3) has 4rc.
  links = 0;
  for (std::uint32_t l = 0; l < t.link_slots(); ++l)
    links += link_exists(t, link_id{l}) ? 1U : 0U;
  CHECK(links == 4 * 12);
}

TEST_CASE("hypercube and ring neighbours", "[fabric]") {
  const auto h = fabric::hypercube(4);
  for (std::uint32_t p = 0; p < 4; ++p) {
    CHECK(neighbour(h, tile_id{5}, p) == tile_id{5U ^ (1U << p)});
  }
  CHECK(degree(h, tile_id{0}) == 4);
  const auto r = fabric::ring(6);
  CHECK(neighbour(r, tile_id{5}, 0) == tile_id{0});
  CHECK(neighbour(r, tile_id{0}, 1) == tile_id{5});
  // A 2-tile ring reaches the same neighbour both ways: one distinct neighbour.
  CHECK(degree(fabric::ring(2), tile_id{0}) == 1);
}
