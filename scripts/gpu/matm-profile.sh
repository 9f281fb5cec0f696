#!/usr/bin/env bash
# Where a MATM iteration's time goes on the GPU, in one device call (carry [".devdeps"]):
#   bash scripts/gpu/matm-profile.sh [n]     (default n = 256)
# Builds matm-cuda, times 20 iterations of the Poisson problem at n^3 with the default block,
# then runs Nsight Compute over the kernels of two iterations (after the first ten): each
# kernel's duration, achieved DRAM bandwidth, occupancy and warp stall reasons. Results under
# $OUT (ncu.txt: the full report; kernels.csv: one row per kernel launch).
SECONDS=0
N=${1:-256}
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/matm-profile}
mkdir -p "$OUT"
ninja -C "$BUILD" -k 0 solvent grid-equations-3d steady matm-cuda > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/device.txt"
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
work=/tmp/matm-profile-work && rm -rf $work && mkdir -p $work
printf '[run]\nname = "profile"\n[model]\ntype = "grid-equations-3d"\nn1 = %d\nn2 = %d\nn3 = %d\nproblem = "poisson"\n[integrator]\ntype = "steady"\n[linear_solver]\ntype = "matm-cuda"\ntolerance = 1e-30\nmax_iterations = %s\n' \
  "$N" "$N" "$N" "${ITERATIONS:-20}" > $work/p.toml
# An unconverged solve is an error by design; the timing facts are in the record all the same.
$BUILD/bin/solvent run $work/p.toml --output $work/timed > $work/timed.log 2>&1
grep -E "seconds|iterations" $work/timed/record.toml | head -20 | tee "$OUT/timing.txt"
echo "== timed ($SECONDS s)"
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats"
timeout 300 ncu --clock-control none --launch-skip ${SKIP:-40} --launch-count ${COUNT:-16} $sections \
  $BUILD/bin/solvent run $work/p.toml --set linear_solver.max_iterations=14 --output $work/ncu > "$OUT/ncu.txt" 2>&1
timeout 200 ncu --clock-control none --launch-skip ${SKIP:-40} --launch-count ${COUNT:-16} --csv \
  --metrics gpu__time_duration.sum,dram__bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
  $BUILD/bin/solvent run $work/p.toml --set linear_solver.max_iterations=14 --output $work/ncu2 > "$OUT/kernels.csv" 2>&1
grep -E '"(gpu__time_duration|dram__bytes)' "$OUT/kernels.csv" | cut -d, -f5,12-16 | head -40
grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Achieved Occupancy|Stall|Warp Cycles Per Issued|One or More Eligible" "$OUT/ncu.txt" | head -120
echo "== script took $SECONDS s"
