#!/usr/bin/env bash
# One device call for the batched members of the 1D model (imex-batched-cuda): build only what
# it needs, the batched tests (GPU members against their single runs to 1e-12, the CPU batch bit
# for bit), compute-sanitizer memcheck on a small GPU batch, then ensemble-bench at 10^4
# members (single runs over every core, the CPU batch, the GPU batch, the floor).
# On the device, from the repository root, with carry [".devdeps"]:
#   export OUT; bash scripts/gpu/ensemble.sh        (MEMBERS=... to change the ensemble size)
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OUT
source scripts/gpu/configure.sh || exit 1
start=$SECONDS
ninja -C "$BUILD" angiogenesis-1d imex-trapezoid banded imex-batched imex-batched-cuda \
  plugins-imex-batched-tests plugins-imex-batched-cuda-tests ensemble-bench > "$OUT/build.log" 2>&1 \
  || { grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1; }
echo "built in $((SECONDS - start)) s"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv \
  | tee "$OUT/gpu.txt"
export SOLVENT_PLUGIN_PATH="$BUILD/lib/solvent" OPENBLAS_NUM_THREADS=1
(cd "$BUILD" && ctest -R plugins-imex-batched --output-on-failure -V --timeout 300) > "$OUT/ctest.log" 2>&1
grep -E "MESSAGE|skipped|Passed|Failed|tests passed|test cases" "$OUT/ctest.log" | tail -12
# memcheck: 40 members (one warp and a part), M = 50, 5 steps, two of them checked against
# their single runs inside the sanitizer too.
compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$BUILD/bin/ensemble-bench" --members 40 --M 50 --steps 5 --check 2 --paths gpu-batch \
  --out "$OUT/memcheck-run" > "$OUT/memcheck.log" 2>&1
echo "memcheck exit $? ($(grep -c "Invalid\|uninitialized\|leaked" "$OUT/memcheck.log") findings); tail:"
tail -3 "$OUT/memcheck.log"
"$BUILD/bin/ensemble-bench" --members ${MEMBERS:-10000} --steps 100 --M 400 --check 4 \
  --out "$OUT/ensemble" 2>&1 | tee "$OUT/ensemble.md"
echo "total $((SECONDS - start)) s"
