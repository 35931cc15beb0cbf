# SystemC/TLM and Verilator for the tlm and rtl fidelities. Included by the top level
# unless TESSERA_HOST_ONLY, before platform/tlm, rtl_models/rtl and tb.

include_guard(GLOBAL)

# --- SystemC ------------------------------------------------------------------------------
# SystemC ships pkg-config files only, no CMake package.
find_package(PkgConfig REQUIRED)
pkg_check_modules(SystemC REQUIRED IMPORTED_TARGET systemc tlm)

# Debian builds SystemC as C++17 and its headers pick an ABI-check symbol from the
# language level; C++20 code that does not pin it fails to link
# (sc_api_version_2_3_4_cxx202002L is undefined).
add_library(tessera_systemc INTERFACE)
add_library(tessera::systemc ALIAS tessera_systemc)
target_link_libraries(tessera_systemc INTERFACE PkgConfig::SystemC)
target_compile_definitions(tessera_systemc INTERFACE SC_CPLUSPLUS=201703L)
# SYSTEM so that -Werror in our code does not apply to SystemC's headers, wherever the
# package puts them.
if(SystemC_INCLUDE_DIRS)
  target_include_directories(tessera_systemc SYSTEM INTERFACE ${SystemC_INCLUDE_DIRS})
endif()
set_target_properties(tessera_systemc PROPERTIES SYSTEM ON)

# --- Verilator ----------------------------------------------------------------------------
find_package(verilator 5.0 REQUIRED)
message(STATUS "Tessera: Verilator ${verilator_VERSION} at ${VERILATOR_ROOT}")

# Every rtl_models/rtl/*.sv except packages holds one module named after its file, and
# each is linted as a top of its own so unused ports and parameters show up.
cmake_path(GET CMAKE_CURRENT_LIST_DIR PARENT_PATH tessera_root_dir)
set(TESSERA_RTL_DIR "${tessera_root_dir}/rtl_models/rtl")
set(TESSERA_RTL_LINT_WAIVERS "${TESSERA_RTL_DIR}/lint.vlt")
file(GLOB TESSERA_RTL_PACKAGES CONFIGURE_DEPENDS "${TESSERA_RTL_DIR}/*_pkg.sv")
file(GLOB tessera_rtl_modules CONFIGURE_DEPENDS "${TESSERA_RTL_DIR}/*.sv")
list(SORT TESSERA_RTL_PACKAGES)
list(REMOVE_ITEM tessera_rtl_modules ${TESSERA_RTL_PACKAGES})
set(TESSERA_RTL_TOPS "")
foreach(module_file IN LISTS tessera_rtl_modules)
  cmake_path(GET module_file STEM top)
  list(APPEND TESSERA_RTL_TOPS ${top})
endforeach()
list(SORT TESSERA_RTL_TOPS)

# Sets out_var to the command that lints one top. Verilator exits non-zero on any
# warning because -Wno-fatal is not given, so the command fails on any warning.
function(tessera_rtl_lint_command top out_var)
  set(${out_var}
      ${VERILATOR_BIN} --lint-only -Wall --top-module ${top} -y ${TESSERA_RTL_DIR}
      ${TESSERA_RTL_LINT_WAIVERS} ${TESSERA_RTL_PACKAGES} ${TESSERA_RTL_DIR}/${top}.sv
      PARENT_SCOPE)
endfunction()

set(tessera_rtl_lint_steps "")
foreach(top IN LISTS TESSERA_RTL_TOPS)
  tessera_rtl_lint_command(${top} lint_cmd)
  list(APPEND tessera_rtl_lint_steps COMMAND ${lint_cmd})
endforeach()
add_custom_target(rtl-lint
  ${tessera_rtl_lint_steps}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
  COMMENT "verilator --lint-only -Wall on ${TESSERA_RTL_TOPS}"
  VERBATIM)
