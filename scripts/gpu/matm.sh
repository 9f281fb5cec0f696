#!/usr/bin/env bash
# MATM on the GPU machine in one call: build, the GPU tests (matm-cuda against matm),
# then the benchmark (docs/benchmarks.md, section MATM). Results under $OUT.
# Device command, with carry [".devdeps"]:   BUDGET=280 bash scripts/gpu/matm.sh [sizes] [shape-size]
# BUDGET (seconds, default 280) bounds the whole script, so the tables come back even
# when the benchmark has to be cut short; QUICK=1 times matm-cuda alone (Poisson, fewer
# block shapes); TEST_TIMEOUT (default 60) bounds the GPU tests.
# TUNING=1 runs Sukhinov et al.'s tuning experiment instead of the benchmark's tables
# (`matm-benchmark --tuning`, Y from TUNING_Y, default 1000,3000,10000,30000, on a 128 x Y x
# 128 box) and fits its regression: $OUT/tuning.csv, tuning-fit.txt, tuning.png.
SECONDS=0
source scripts/gpu/configure.sh || exit 1
SIZES=${1:-64,128,256}
SHAPE=${2:-256}
OUT=${OUT:-/tmp/matm-out}
mkdir -p "$OUT"
set -o pipefail
targets="matm matm-cuda grid-equations-3d plugins-matm-cuda-tests matm-benchmark cg bicgstab cg-cuda bicgstab-cuda"
time ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/device.txt"
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
quiet() { grep -v '^\[info\]\|^\[warning\]\|^\[.*\] \[info\]'; }
echo "== GPU tests ($SECONDS s)"
timeout ${TEST_TIMEOUT:-60} "$BUILD/bin/plugins-matm-cuda-tests" 2>&1 | quiet | tail -60 | tee "$OUT/gpu-tests.log"
if [ -n "${TUNING:-}" ]; then
  echo "== tuning study ($SECONDS s)"
  timeout $(( ${BUDGET:-280} - SECONDS - 10 )) "$BUILD/bin/matm-benchmark" --tuning "$OUT/tuning.csv" \
    --tuning-y "${TUNING_Y:-1000,3000,10000,30000}" 2>&1 | quiet > "$OUT/tuning.log"
  tail -3 "$OUT/tuning.log"
  python3 scripts/matm-tuning-fit "$OUT/tuning.csv" --png "$OUT/tuning.png" | tee "$OUT/tuning-fit.txt"
  echo "== script took $SECONDS s"
  exit 0
fi
echo "== benchmark --sizes $SIZES --shape-size $SHAPE ($SECONDS s)"
timeout $(( ${BUDGET:-280} - SECONDS - 5 )) "$BUILD/bin/matm-benchmark" --sizes "$SIZES" --shape-size "$SHAPE" --cpu-full-max 128 \
  --quick ${QUICK:-0} --out "$OUT/matm-benchmark.md" 2>&1 | quiet > "$OUT/benchmark.log"
cat "$OUT/matm-benchmark.md" 2>/dev/null || tail -60 "$OUT/benchmark.log"
echo "== script took $SECONDS s"
