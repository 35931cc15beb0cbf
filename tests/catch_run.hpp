#pragma once
// Runs the Catch2 session over the command line (tests/catch_main.cpp).
int tessera_catch_run(int argc, char* argv[]);
