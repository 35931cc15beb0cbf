# Cross toolchain for the bare-metal tile image: arm-none-eabi GCC with picolibc and its
# libstdc++ (Debian: gcc-arm-none-eabi, picolibc-arm-none-eabi,
# libstdc++-arm-none-eabi-picolibc), for a Cortex-M4F. Used by baremetal/ (see
# docs/baremetal.md); the top level passes it to that project through ExternalProject.
#
# Flags given here seed the cache on the first configure only: after editing them,
# delete the bare-metal build directory (build/baremetal).

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)

# CMake's compiler check links a test program; without the image's linker script and
# start-up choice that proves nothing, so it only compiles.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Cortex-M4 with its single-precision FPU and the hard-float ABI: picolibc and its
# libstdc++ ship that multilib (thumb/v7e-m+fp/hard). picolibcpp.specs adds picolibc's
# include directory when compiling and its libraries, start-up files and default linker
# script when linking, so it goes on both command lines.
set(tessera_arm_flags "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
set(CMAKE_C_FLAGS_INIT "${tessera_arm_flags} -specs=picolibc.specs")
set(CMAKE_CXX_FLAGS_INIT "${tessera_arm_flags} -specs=picolibcpp.specs")

# Programs (qemu, arm-none-eabi-size) come from the host; nothing else is searched for.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
