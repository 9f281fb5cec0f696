#!/usr/bin/env bash
# The plugin SDK on the GPU machine, in one call: build Solvent with CUDA, run
# the SDK tests there (install into a temporary prefix, the out-of-tree example built
# against it with its conformance test and experiment, loader versioning and name
# conflicts), then install and check that the CUDA plugins load from the install and run
# De Luca et al.'s validation experiment with gepp-cuda through the installed `solvent`.
#   On the device, with carry [".devdeps"]:  bash scripts/gpu/sdk.sh
set -uo pipefail
OUT=${OUT:-/tmp/sdk-out}
mkdir -p "$OUT"
source scripts/gpu/configure.sh || exit 1
set +e
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
plugins=$(sed -n 's/^build \(lib\/solvent\/libsolvent-[^:]*\.so\):.*/\1/p' "$BUILD/build.ninja")
SECONDS=0
timeout 220 ninja -C "$BUILD" -k 0 $plugins bin/solvent solvent-testkit sdk-loader-tests \
  > "$OUT/build.log" 2>&1 || grep -E "error|FAILED" "$OUT/build.log" | head -30
echo "built in $SECONDS s"
(cd "$BUILD" && timeout 110 ctest -R '^sdk-' --output-on-failure -V) > "$OUT/sdk-tests.log" 2>&1
grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|max \|u" "$OUT/sdk-tests.log"
prefix=/tmp/solvent-prefix
cmake --install "$BUILD" --prefix "$prefix" > /dev/null
unset SOLVENT_PLUGIN_PATH
"$prefix/bin/solvent" plugins > "$OUT/installed-plugins.txt" 2>&1
grep -E "cuda|skipped" -A1 "$OUT/installed-plugins.txt"
timeout 60 "$prefix/bin/solvent" run config/angiogenesis-1d.toml --set linear_solver.type=gepp-cuda \
  --output /tmp/run-gepp-cuda --no-progress 2>&1 | tee "$OUT/run-gepp-cuda.log"
cp /tmp/run-gepp-cuda/record.toml "$OUT/record-gepp-cuda.toml"
