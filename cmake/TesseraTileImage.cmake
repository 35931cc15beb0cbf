# Tile images for the Cortex-M4 tiles (`tessera run --tiles cortex-m4 --firmware X.elf`,
# docs/tiles.md) built by a project of one's own against an installed Tessera
# (docs/baremetal.md, "Building a tile image out of tree"): included by TesseraConfig.cmake,
# which sets TESSERA_TILE_INCLUDE_DIRS, TESSERA_TILE_LIBRARY and TESSERA_TILE_LINKER_SCRIPT.
#
# tessera_add_tile_image(<name> SOURCES <file>... [INCLUDE_DIRECTORIES <dir>...]
#                        [COMPILE_DEFINITIONS <def>...] [COMPILE_OPTIONS <opt>...]
#                        [LINK_OPTIONS <opt>...] [LINKER_SCRIPT <file>] [OUTPUT <file>])
#   builds <name>.elf (in the current binary directory unless OUTPUT says otherwise, with
#   <name>.elf.map beside it) as part of `all`, from the sources, the tile library and the
#   tile runtime's headers, and makes the target <name>, whose property TESSERA_TILE_IMAGE
#   holds the file.
# tessera_add_tile_test(<test> <image target> <tessera run options>...)
#   a ctest test: the installed CLI runs the image on Cortex-M4 tiles (--model tlm --tiles
#   cortex-m4 --firmware <image>, then the options); it passes when the run exits 0, i.e.
#   every tile's blocks verified.
#
# The host project's compiler is not the cross compiler, so the image is compiled and linked
# by custom commands that call arm-none-eabi-g++ directly, with the flags of the bare-metal
# build's tile images (baremetal/CMakeLists.txt, scripts/tile-image.sh): Cortex-M4F hard
# float, picolibc's C++ specs and hosted start-up, freestanding C++20 at -Os, the tile memory
# map, and no heap (every allocator is wrapped and left undefined, so an image that calls
# malloc, or operator new, does not link). One object per source, each with its header
# dependencies (a depfile), so editing a header rebuilds what includes it.

include_guard(GLOBAL)

find_program(TESSERA_ARM_CXX arm-none-eabi-g++
             DOC "The cross compiler of the Cortex-M4 tile images (Debian: gcc-arm-none-eabi)")

set(TESSERA_TILE_ARCH_FLAGS
    -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -specs=picolibcpp.specs)
set(TESSERA_TILE_COMPILE_FLAGS
    -std=c++20 -Os -g -ffreestanding -fno-exceptions -fno-rtti -fno-threadsafe-statics
    -ffunction-sections -fdata-sections -Wall -Wextra -Wno-psabi)

# Fails the configure with what to install when the cross tools cannot build an image.
function(_tessera_check_cross_tools)
  if(NOT TESSERA_ARM_CXX)
    message(FATAL_ERROR "tessera_add_tile_image: arm-none-eabi-g++ not found (install "
                        "gcc-arm-none-eabi libstdc++-arm-none-eabi-picolibc "
                        "picolibc-arm-none-eabi, or set TESSERA_ARM_CXX)")
  endif()
  if(NOT TESSERA_TILE_LIBRARY OR NOT EXISTS "${TESSERA_TILE_LIBRARY}")
    message(FATAL_ERROR "tessera_add_tile_image: this Tessera has no tile library (it was "
                        "built without the cross tools), so it cannot link a tile image")
  endif()
  if(TESSERA_ARM_PICOLIBCPP_OK)
    return()
  endif()
  # The compiler alone is not enough: picolibc's C++ specs come with its libstdc++.
  execute_process(COMMAND "${TESSERA_ARM_CXX}" -print-file-name=picolibcpp.specs
                  OUTPUT_VARIABLE specs OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT IS_ABSOLUTE "${specs}")
    message(FATAL_ERROR "tessera_add_tile_image: ${TESSERA_ARM_CXX} has no picolibcpp.specs "
                        "(install libstdc++-arm-none-eabi-picolibc picolibc-arm-none-eabi)")
  endif()
  set(TESSERA_ARM_PICOLIBCPP_OK ON CACHE INTERNAL "arm-none-eabi-g++ finds picolibcpp.specs")
endfunction()

function(tessera_add_tile_image name)
  cmake_parse_arguments(PARSE_ARGV 1 T "" "LINKER_SCRIPT;OUTPUT"
    "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;COMPILE_OPTIONS;LINK_OPTIONS")
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
            "tessera_add_tile_image(${name}): unknown arguments ${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT T_SOURCES)
    message(FATAL_ERROR "tessera_add_tile_image(${name}): no SOURCES")
  endif()
  _tessera_check_cross_tools()

  set(script "${TESSERA_TILE_LINKER_SCRIPT}")
  if(T_LINKER_SCRIPT)
    cmake_path(ABSOLUTE_PATH T_LINKER_SCRIPT BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               OUTPUT_VARIABLE script)
  endif()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}.elf")
  if(T_OUTPUT)
    cmake_path(ABSOLUTE_PATH T_OUTPUT BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
               OUTPUT_VARIABLE out)
  endif()
  set(obj_dir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.tile")

  set(compile ${TESSERA_TILE_ARCH_FLAGS} ${TESSERA_TILE_COMPILE_FLAGS})
  foreach(dir IN LISTS T_INCLUDE_DIRECTORIES)
    cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND compile "-I${dir}")
  endforeach()
  foreach(dir IN LISTS TESSERA_TILE_INCLUDE_DIRS)
    list(APPEND compile "-I${dir}")
  endforeach()
  list(TRANSFORM T_COMPILE_DEFINITIONS PREPEND "-D")
  list(APPEND compile ${T_COMPILE_DEFINITIONS} ${T_COMPILE_OPTIONS})

  set(objects "")
  set(index 0)
  foreach(src IN LISTS T_SOURCES)
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
    cmake_path(GET src FILENAME base)
    # The index keeps two sources of one name apart.
    set(obj "${obj_dir}/${index}_${base}.o")
    math(EXPR index "${index} + 1")
    cmake_path(RELATIVE_PATH obj BASE_DIRECTORY "${CMAKE_BINARY_DIR}" OUTPUT_VARIABLE shown)
    add_custom_command(
      OUTPUT "${obj}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${obj_dir}"
      COMMAND "${TESSERA_ARM_CXX}" ${compile} -MD -MF "${obj}.d" -c "${src}" -o "${obj}"
      DEPENDS "${src}"
      DEPFILE "${obj}.d"
      COMMENT "Building tile object ${shown}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()

  set(wraps malloc calloc realloc reallocarray aligned_alloc memalign posix_memalign valloc
            pvalloc sbrk)
  list(TRANSFORM wraps PREPEND "--wrap=")
  list(JOIN wraps "," wraps)
  cmake_path(RELATIVE_PATH out BASE_DIRECTORY "${CMAKE_BINARY_DIR}" OUTPUT_VARIABLE shown)
  # The tile library whole: its objects define what the platform and the image rely on
  # (tessera_nic_command, the word-copying memcpy, libstdc++'s throw helpers as "report and
  # stop"), which an archive would only contribute when something before it asked.
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${TESSERA_ARM_CXX}" ${TESSERA_TILE_ARCH_FLAGS} --crt0=hosted ${objects}
            -Wl,--whole-archive "${TESSERA_TILE_LIBRARY}" -Wl,--no-whole-archive
            "-T${script}" -Wl,--undefined=tessera_nic_command -Wl,--undefined=__heap_end
            -Wl,--gc-sections "-Wl,${wraps}" "-Wl,-Map=${out}.map" ${T_LINK_OPTIONS}
            -o "${out}"
    DEPENDS ${objects} "${TESSERA_TILE_LIBRARY}" "${script}"
    COMMENT "Linking tile image ${shown}"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${name} ALL DEPENDS "${out}")
  set_target_properties(${name} PROPERTIES TESSERA_TILE_IMAGE "${out}")
endfunction()

function(tessera_add_tile_test test image)
  get_target_property(file ${image} TESSERA_TILE_IMAGE)
  if(NOT file)
    message(FATAL_ERROR "tessera_add_tile_test(${test}): ${image} is not a target of "
                        "tessera_add_tile_image")
  endif()
  add_test(NAME ${test}
           COMMAND Tessera::tessera run --model tlm --tiles cortex-m4 --firmware "${file}"
                   ${ARGN})
endfunction()
