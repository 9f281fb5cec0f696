#!/usr/bin/env bash
# Source this at the start of a device command: unpacks the carried TOML++ packages
# (the GPU machine has no TOML++ and no network) and configures a Release build in
# $BUILD (default /tmp/build) for sm_90 (SOLVENT_CMAKE_ARGS: more cache settings, e.g. -g), or the CMake preset SOLVENT_PRESET names (asan:
# the sanitizer build of the test suite, on the device's 16 cores). Usage on the device,
# with carry [".devdeps"]:
#   source scripts/gpu/configure.sh && ninja -C $BUILD <targets>
set -e
BUILD=${BUILD:-/tmp/build}
if ! pkg-config --exists tomlplusplus 2>/dev/null; then
  mkdir -p /tmp/p && for f in .devdeps/*.deb; do dpkg -x "$f" /tmp/p; done
  export CMAKE_PREFIX_PATH=/tmp/p/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
  sed -i 's#^prefix=.*#prefix=/tmp/p/usr#' /tmp/p/usr/lib/x86_64-linux-gnu/pkgconfig/tomlplusplus.pc
  export PKG_CONFIG_PATH=/tmp/p/usr/lib/x86_64-linux-gnu/pkgconfig
  export LD_LIBRARY_PATH=/tmp/p/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if [ -n "${SOLVENT_PRESET:-}" ]; then
  cmake --preset "$SOLVENT_PRESET" -S . -B "$BUILD" > "$BUILD.configure.log" 2>&1
else
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    ${SOLVENT_CMAKE_ARGS:-} > "$BUILD.configure.log" 2>&1
fi || { cat "$BUILD.configure.log"; exit 1; }
export BUILD
set +e
