# The installed Tessera (docs/baremetal.md, "Installing Tessera"): what `cmake --install build
# --prefix P` puts under P, the CMake package an out-of-tree project finds there, and the
# .deb CPack makes of the same files (`cpack -G DEB` in the build directory, or the target
# `package`). Included by the top level after every target exists.
#
#   bin/tessera                          the CLI (exported as Tessera::tessera)
#   include/tessera/{runtime,firmware}/  the freestanding tile runtime and collectives
#   include/tessera/tile/tile_app.hpp    the tile library's interface
#   lib/tessera/cortex-m4/               libtessera_tile.a and tile_cm4.ld (arm-none-eabi)
#   lib/cmake/Tessera/                   TesseraConfig.cmake and its version, the export,
#                                        TesseraTileImage.cmake
#   share/tessera/                       tessera_tile.elf (the default --tiles cortex-m4
#                                        image), rtl/ (what `tessera area` synthesizes)
#
# The CLI finds share/tessera from its own location (common/install_paths.hpp), so the
# prefix can be moved; a build tree's CLI keeps its build-tree paths.

include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TESSERA_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Tessera")
set(TESSERA_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/tessera")
# Cross-compiled for the tile, not for the host: apart from the host's libraries.
set(TESSERA_INSTALL_TILEDIR "${CMAKE_INSTALL_LIBDIR}/tessera/cortex-m4")
set(tessera_root "${PROJECT_SOURCE_DIR}")

install(TARGETS tessera EXPORT TesseraTargets RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(EXPORT TesseraTargets NAMESPACE Tessera:: DESTINATION "${TESSERA_INSTALL_CMAKEDIR}")

install(DIRECTORY "${tessera_root}/runtime/include/" "${tessera_root}/firmware/include/"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" FILES_MATCHING PATTERN "*.hpp")
install(FILES "${tessera_root}/baremetal/tile/tile_app.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/tessera/tile")
install(DIRECTORY "${tessera_root}/rtl_models/rtl/" DESTINATION "${TESSERA_INSTALL_DATADIR}/rtl"
        FILES_MATCHING PATTERN "*.sv")

set(TESSERA_HAS_TILE_LIBRARY OFF)
if(TESSERA_BAREMETAL_ENABLED)
  set(TESSERA_HAS_TILE_LIBRARY ON)
  install(FILES "${TESSERA_BAREMETAL_BINARY_DIR}/libtessera_tile.a"
                "${tessera_root}/baremetal/tile/tile_cm4.ld"
          DESTINATION "${TESSERA_INSTALL_TILEDIR}")
  install(FILES "${TESSERA_BAREMETAL_BINARY_DIR}/tessera_tile.elf"
          DESTINATION "${TESSERA_INSTALL_DATADIR}")
endif()

configure_package_config_file("${tessera_root}/cmake/TesseraConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/TesseraConfig.cmake"
  INSTALL_DESTINATION "${TESSERA_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR TESSERA_INSTALL_DATADIR
            TESSERA_INSTALL_TILEDIR)
# 0.x: a minor version may break the package's interface.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/TesseraConfig.cmake"
              "${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake"
              "${tessera_root}/cmake/TesseraTileImage.cmake"
        DESTINATION "${TESSERA_INSTALL_CMAKEDIR}")

# --- the .deb ------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME tessera)
set(CPACK_PACKAGE_VENDOR "Tessera")
set(CPACK_PACKAGE_CONTACT "Tessera developers <tessera@invalid>" CACHE STRING
    "The .deb's Maintainer field")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "collective communication on networks-on-chip: closed forms, TLM, RTL and Cortex-M4 tiles")
set(CPACK_PACKAGE_DESCRIPTION
    "Tessera simulates collective communication (all-to-all, broadcast, reduce, ...) on \
tiled networks-on-chip at three fidelities: closed-form cost, SystemC/TLM timing engines and \
Verilated RTL, with tiles that run the runtime natively or as Cortex-M4 firmware under an \
instruction-set simulator. The package holds the tessera CLI, the default tile image, the \
freestanding tile runtime's headers, the tile library and a CMake package for building tile \
images out of tree.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # the CLI; the tile image keeps its symbols for GDB
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Depends from the libraries the binaries link (dpkg-shlibdeps: SystemC, Unicorn, libelf,
# the C++ runtime); without dpkg-dev, the same named by hand.
find_program(TESSERA_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(TESSERA_FILE file)
if(TESSERA_DPKG_SHLIBDEPS AND TESSERA_FILE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6, libgcc-s1, libstdc++6, libsystemc, libunicorn2, libelf1")
endif()
# Building tile images (the cross compiler, picolibc, its libstdc++; cmake for the package),
# `tessera area` (yosys) and the scripts and the Python module (python3) need these; the CLI's
# runs do not.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc-arm-none-eabi, libstdc++-arm-none-eabi-picolibc, \
picolibc-arm-none-eabi, cmake, yosys, python3")
# A tile under GDB (docs/tiles.md, "Debugging a tile").
set(CPACK_DEBIAN_PACKAGE_SUGGESTS gdb-multiarch)
include(CPack)
