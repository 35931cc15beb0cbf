// The tests of tessera_selftest.elf; each reports its checks and returns whether all
// passed. The table that runs them is in selftest_main.cpp.
#pragma once

namespace tessera::selftest {

// selftest_a2a.cpp
bool a2a_delivers_on_hypercube3();
bool a2a_delivers_on_mesh2x4();
bool a2a_checker_rejects_damaged_streams();

// selftest_collectives.cpp
bool collectives_verify_on_8_tiles();
bool forced_message_before_receive_is_lost();
bool damaged_block_is_detected();
bool reliable_protocol_survives_loss_and_damage();

// selftest_memory.cpp
bool memory_plan_walks_on_the_tile();

// selftest_routing.cpp
bool routes_match_closed_forms();

}  // namespace tessera::selftest
