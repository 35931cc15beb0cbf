// tessera_selftest.elf: the freestanding runtime and firmware checked on the tile
// itself (Cortex-M4 under qemu -M mps2-an386); the exit code is the verdict.
#include "selftest.hpp"
#include "selftest_tests.hpp"

namespace {

using tessera::selftest::test_case;

constexpr test_case tests[] = {
    {"a2a delivers every block on hypercube:3", &tessera::selftest::a2a_delivers_on_hypercube3},
    {"a2a delivers every block on mesh:2x4", &tessera::selftest::a2a_delivers_on_mesh2x4},
    {"a2a checker rejects damaged op streams",
     &tessera::selftest::a2a_checker_rejects_damaged_streams},
    {"routes match closed forms", &tessera::selftest::routes_match_closed_forms},
    {"collectives verify on 8 tiles", &tessera::selftest::collectives_verify_on_8_tiles},
    {"FORCED message before its receive is lost",
     &tessera::selftest::forced_message_before_receive_is_lost},
    {"a damaged block is detected", &tessera::selftest::damaged_block_is_detected},
    {"reliable protocol survives loss and damage",
     &tessera::selftest::reliable_protocol_survives_loss_and_damage},
    {"memory plan walks and carves on the tile", &tessera::selftest::memory_plan_walks_on_the_tile},
};

}  // namespace

int main() {
  return tessera::selftest::run_all("tessera_selftest", tests);
}
