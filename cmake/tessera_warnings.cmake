# Warnings are errors in the project's own code. Third-party headers (SystemC,
# Verilator) come in through SYSTEM include paths so they do not trip this.
add_library(tessera_warnings INTERFACE)
target_compile_options(tessera_warnings INTERFACE -Wall -Wextra -Werror -Wpedantic
                                                  -Wshadow -Wconversion -Wsign-conversion)
