# The bare-metal tile build, seen from the host build: baremetal/ configured with
# cmake/arm-none-eabi.cmake and built as an ExternalProject in <build>/baremetal, the
# target baremetal-size, and the variables tests/baremetal uses to register the qemu
# tests. Included by the top level unless TESSERA_HOST_ONLY. Hosts without the cross
# tools still build: the bare-metal part is skipped with a message. See docs/baremetal.md.

include_guard(GLOBAL)

option(TESSERA_BAREMETAL "Build the arm-none-eabi tile image and run it under qemu" ON)

cmake_path(GET CMAKE_CURRENT_LIST_DIR PARENT_PATH tessera_bm_root)
set(TESSERA_BAREMETAL_BINARY_DIR "${CMAKE_BINARY_DIR}/baremetal")
set(TESSERA_BAREMETAL_ENABLED OFF)
set(tessera_bm_install_hint
    "install gcc-arm-none-eabi libstdc++-arm-none-eabi-picolibc picolibc-arm-none-eabi qemu-system-arm")

# Says why the bare-metal part is skipped, at configure time and from baremetal-size.
function(tessera_baremetal_skip reason)
  message(STATUS "baremetal: skipped: ${reason}")
  message(STATUS "baremetal: no tile image, so the Cortex-M4 tiles (--tiles cortex-m4) run "
                 "only with --firmware and their tests (label iss) are skipped")
  add_custom_target(baremetal-size
    COMMAND ${CMAKE_COMMAND} -E echo "baremetal: size report skipped: ${reason}"
    COMMENT "Bare-metal sizes"
    VERBATIM)
endfunction()

if(NOT TESSERA_BAREMETAL)
  tessera_baremetal_skip("TESSERA_BAREMETAL is OFF")
  return()
endif()

find_program(TESSERA_ARM_CXX arm-none-eabi-g++)
find_program(TESSERA_ARM_SIZE arm-none-eabi-size)
find_program(TESSERA_QEMU_ARM qemu-system-arm)
set(tessera_bm_missing "")
if(NOT TESSERA_ARM_CXX)
  list(APPEND tessera_bm_missing arm-none-eabi-g++)
endif()
if(NOT TESSERA_ARM_SIZE)
  list(APPEND tessera_bm_missing arm-none-eabi-size)
endif()
if(NOT TESSERA_QEMU_ARM)
  list(APPEND tessera_bm_missing qemu-system-arm)
endif()
if(tessera_bm_missing)
  list(JOIN tessera_bm_missing ", " tessera_bm_missing)
  tessera_baremetal_skip("${tessera_bm_missing} not found (${tessera_bm_install_hint})")
  return()
endif()

# The compiler alone is not enough: picolibc and its libstdc++ are separate packages.
# Configure and build baremetal/probe in a CMake process of its own (try_compile would
# reuse this project's host compiler). Only success is cached, so installing the
# packages and reconfiguring is all a failed probe needs.
if(NOT TESSERA_BAREMETAL_PROBE_OK)
  set(probe_dir "${CMAKE_BINARY_DIR}/baremetal-probe")
  set(probe_log "${CMAKE_BINARY_DIR}/baremetal-probe.log")
  file(REMOVE_RECURSE "${probe_dir}")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S "${tessera_bm_root}/baremetal/probe" -B "${probe_dir}"
            -G "${CMAKE_GENERATOR}"
            "-DCMAKE_TOOLCHAIN_FILE=${tessera_bm_root}/cmake/arm-none-eabi.cmake"
    OUTPUT_VARIABLE probe_output ERROR_VARIABLE probe_output
    RESULT_VARIABLE probe_result)
  if(probe_result EQUAL 0)
    execute_process(
      COMMAND ${CMAKE_COMMAND} --build "${probe_dir}"
      OUTPUT_VARIABLE probe_build_output ERROR_VARIABLE probe_build_output
      RESULT_VARIABLE probe_result)
    string(APPEND probe_output "${probe_build_output}")
  endif()
  file(WRITE "${probe_log}" "${probe_output}")
  if(NOT probe_result EQUAL 0)
    tessera_baremetal_skip("arm-none-eabi-g++ cannot link a picolibc C++ program for the \
Cortex-M4, see ${probe_log} (${tessera_bm_install_hint})")
    return()
  endif()
  set(TESSERA_BAREMETAL_PROBE_OK ON CACHE INTERNAL "baremetal/probe links with the cross toolchain")
endif()

set(TESSERA_BAREMETAL_ENABLED ON)
message(STATUS "baremetal: Cortex-M4 image in ${TESSERA_BAREMETAL_BINARY_DIR}, "
               "run with ${TESSERA_QEMU_ARM}")

include(ExternalProject)
# BUILD_ALWAYS: the inner build tracks the runtime and firmware headers itself and is
# a no-op when nothing changed; the outer build cannot see those dependencies.
ExternalProject_Add(tessera_baremetal
  SOURCE_DIR "${tessera_bm_root}/baremetal"
  BINARY_DIR "${TESSERA_BAREMETAL_BINARY_DIR}"
  PREFIX "${CMAKE_BINARY_DIR}/baremetal-ep"
  CMAKE_ARGS
    "-DCMAKE_TOOLCHAIN_FILE=${tessera_bm_root}/cmake/arm-none-eabi.cmake"
    "-DTESSERA_ROOT=${tessera_bm_root}"
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS
    "${TESSERA_BAREMETAL_BINARY_DIR}/tessera_selftest.elf"
    "${TESSERA_BAREMETAL_BINARY_DIR}/tessera_selftest_fail.elf"
    "${TESSERA_BAREMETAL_BINARY_DIR}/libtessera_fw.a"
    # Installed (cmake/tessera_install.cmake): the default image and the tile library.
    "${TESSERA_BAREMETAL_BINARY_DIR}/tessera_tile.elf"
    "${TESSERA_BAREMETAL_BINARY_DIR}/libtessera_tile.a")

add_custom_target(baremetal-size
  COMMAND ${CMAKE_COMMAND} --build "${TESSERA_BAREMETAL_BINARY_DIR}" --target size
  COMMENT "Bare-metal sizes (arm-none-eabi Cortex-M4, -Os) in ${TESSERA_BAREMETAL_BINARY_DIR}"
  USES_TERMINAL
  VERBATIM)
add_dependencies(baremetal-size tessera_baremetal)

# tessera_add_qemu_test(<name> <elf> [properties...]): runs <elf> on the AN386 board;
# the image's exit code (main's return value, through semihosting) is the verdict.
function(tessera_add_qemu_test name elf)
  add_test(NAME ${name}
           COMMAND ${TESSERA_QEMU_ARM} -M mps2-an386 -nographic
                   -semihosting-config enable=on,target=native -kernel ${elf})
  # REQUIRED_FILES: a missing image is "not run" (a failure), never a WILL_FAIL pass.
  set_tests_properties(${name} PROPERTIES LABELS baremetal TIMEOUT 60 REQUIRED_FILES ${elf}
                                          ${ARGN})
endfunction()
