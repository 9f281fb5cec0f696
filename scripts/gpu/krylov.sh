#!/usr/bin/env bash
# The Krylov solvers on the GPU machine in one call: build, the Krylov tests (CPU and
# CUDA), then krylov-benchmark (docs/benchmarks.md, section "Krylov solvers").
# Device command, with carry [".devdeps"]:   BUDGET=300 bash scripts/gpu/krylov.sh
# BUDGET (seconds, default 300) bounds the whole script so that the tables come back even
# when the benchmark is cut short. Results under $OUT: build.log, tests.log, benchmark.md.
SECONDS=0
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/krylov-out}
mkdir -p "$OUT"
targets="bicgstab bicgstab-l tfqmr cg bicgstab-cuda bicgstab-l-cuda tfqmr-cuda cg-cuda helmholtz
  jacobi jacobi-cuda ilu0 ilu0-cuda
  plugins-krylov-kernels-tests plugins-krylov-tests plugins-krylov-cuda-tests krylov-benchmark"
ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; }
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/device.txt"
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
(cd "$BUILD" && timeout ${TEST_TIMEOUT:-90} ctest -R krylov --output-on-failure) > "$OUT/tests.log" 2>&1
tail -15 "$OUT/tests.log"
echo "== tests done ($SECONDS s)"
timeout $(( ${BUDGET:-300} - SECONDS - 5 )) "$BUILD/bin/krylov-benchmark" ${BENCH_ARGS:-} 2>&1 \
  | grep -v '\[info\]' > "$OUT/benchmark.md"
cat "$OUT/benchmark.md"
echo "== script took $SECONDS s"
