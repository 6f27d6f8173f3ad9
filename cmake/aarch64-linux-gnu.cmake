# Cross-building for aarch64 hosts (Kunpeng servers run CANN) on an x86-64 Debian machine:
#   dpkg --add-architecture arm64 && apt-get install g++-aarch64-linux-gnu qemu-user \
#     libboost-test1.81-dev:arm64 libboost-context1.81-dev:arm64 libtbb-dev:arm64 libopenblas-dev:arm64
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# CTest runs the tests under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR); see the README: a launch does
# not return under qemu 7.2 yet.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Debian's multiarch packages put arm64 libraries in /usr/lib/aarch64-linux-gnu and share /usr/include.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
