#!/usr/bin/env bash
# Darbyshire's Tables 3 and 4 for the continuous mode of angiogenesis-3d on one GPU: for the
# grids 100^3, 200^3, 300^3 and 400 x 400 x 140 and every block shape of the CUDA engine
# (16x4x4, 4x4x4, 16x16x4, 16x8x4, 64x4x4, z-march, z-march-16), the time per step of the kernel and
# with the transfers, the speed-up over the serial CPU engine, the effective bandwidth
# (48 bytes a node a step over the kernel's time) and the measured copy bandwidth, as a
# markdown table; with Nsight Compute (ncu) on the PATH, the achieved occupancy of each
# shape at 200^3 too. The CUDA tests of the continuous mode (CPU = CUDA bit for bit for
# every shape) run first. Run on the device machine from the repository root, with carry
# [".devdeps"]:
#   bash scripts/gpu/stencil-tables.sh     (GPU_STEPS, CPU_STEPS: steps timed, default 500, 3)
set -o pipefail
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
ninja -C "$BUILD" solvent angiogenesis-3d explicit-stencil3d plugins-stencil3d-cuda-tests \
  stencil3d-bench > "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv \
  | tee "$OUT/gpu.txt"
export SOLVENT_PLUGIN_PATH="$BUILD/lib/solvent"
(cd "$BUILD" && ctest -R "plugins-stencil3d-cuda$" --output-on-failure -V) > "$OUT/ctest.log" 2>&1
grep -E "tests passed|Failed|skipped" "$OUT/ctest.log" | tail -3
"$BUILD/bin/stencil3d-bench" --mode continuous --steps "${GPU_STEPS:-500}" \
  --cpu-steps "${CPU_STEPS:-3}" --out "$OUT/stencil_tables.csv" | tee "$OUT/stencil_tables.md"
if command -v ncu > /dev/null; then
  # The first launch of each shape's kernel at 200^3.
  for shape in 16x4x4 4x4x4 16x16x4 16x8x4 64x4x4 z-march z-march-16; do
    echo "== $shape"
    ncu --kernel-name regex:continuous --launch-count 1 \
      --metrics sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,dram__throughput.avg.pct_of_peak_sustained_elapsed \
      "$BUILD/bin/stencil3d-bench" --mode continuous --grid 200x200x200 --block "$shape" \
      --steps 1 --cpu-steps 1 --out /tmp/ncu.csv 2>&1 | grep -E "warps_active|maximum_warps|dram__throughput"
  done | tee "$OUT/occupancy.txt"
else
  echo "ncu not found: occupancy not measured"
fi
