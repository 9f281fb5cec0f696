#!/usr/bin/env bash
# One device call for explicit-stencil3d: build, the CPU and CUDA tests (CUDA must
# grow the CPU's network bit for bit), the step times (stencil3d-bench), and a long
# run of the default 201^3 model on the GPU for the network picture.
# Run on the device machine from the repository root, with carry [".devdeps"]:
#   bash scripts/gpu/stencil3d.sh          (QUICK=1: only the CUDA tests, not the CPU ones)
set -o pipefail
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
ninja -C "$BUILD" solvent angiogenesis-3d explicit-stencil3d plugins-stencil3d-tests \
  plugins-stencil3d-cuda-tests stencil3d-bench > "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv \
  | tee "$OUT/gpu.txt"
export SOLVENT_PLUGIN_PATH="$BUILD/lib/solvent"
(cd "$BUILD" && ctest -R "stencil3d${QUICK:+-cuda}|angiogenesis-3d" --output-on-failure -V) > "$OUT/ctest.log" 2>&1
grep -E "tests passed|Passed|Failed|Skipped|identical|skipped" "$OUT/ctest.log" | tail -12
"$BUILD/bin/stencil3d-bench" --steps ${GPU_STEPS:-1000} --cpu-steps ${CPU_STEPS:-3} --out "$OUT/stencil3d_bench.csv" \
  | tee "$OUT/stencil3d_bench.md"
rm -rf /tmp/ang3d-cuda
{ time "$BUILD/bin/solvent" run config/angiogenesis-3d-cuda.toml --output /tmp/ang3d-cuda \
  --set integrator.fields_every=0 --set integrator.checkpoint_every=0; } 2> "$OUT/picture_run.log"
tail -5 "$OUT/picture_run.log"
cp /tmp/ang3d-cuda/network.png /tmp/ang3d-cuda/observables.csv "$OUT/" 2>/dev/null
tail -2 /tmp/ang3d-cuda/observables.csv
