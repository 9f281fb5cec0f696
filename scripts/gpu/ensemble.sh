#!/usr/bin/env bash
# One device call for the batched members of the 1D model (imex-batched-cuda): build only what
# it needs, the batched tests (GPU members against their single runs to 1e-12, the CPU batch bit
# for bit), compute-sanitizer memcheck on two small GPU batches (the second loaded in two
# chunks), then ensemble-bench at 10^4 members (single runs over every core, the CPU batch,
# the GPU batch, the floor).
# Also the example sweep with [sweep] batch on the GPU against the CPU batch, and the curve over
# ensemble sizes (SCALING, default "100 1000 100000"; empty: none) where the GPU starts to pay.
# On the device, from the repository root, with carry [".devdeps"]:
#   export OUT; bash scripts/gpu/ensemble.sh        (MEMBERS=... to change the ensemble size)
set -o pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OUT
source scripts/gpu/configure.sh || exit 1
start=$SECONDS
ninja -C "$BUILD" solvent angiogenesis-1d imex-trapezoid banded imex-batched imex-batched-cuda \
  plugins-imex-batched-tests plugins-imex-batched-cuda-tests ensemble-bench > "$OUT/build.log" 2>&1 \
  || { grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1; }
echo "built in $((SECONDS - start)) s"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version --format=csv \
  | tee "$OUT/gpu.txt"
export SOLVENT_PLUGIN_PATH="$BUILD/lib/solvent" OPENBLAS_NUM_THREADS=1
(cd "$BUILD" && ctest -R plugins-imex-batched --output-on-failure -V --timeout 300) > "$OUT/ctest.log" 2>&1
grep -E "MESSAGE|skipped|Passed|Failed|tests passed|test cases" "$OUT/ctest.log" | tail -12
# memcheck: 40 members (one warp and a part), M = 50, 5 steps, two of them checked against
# their single runs inside the sanitizer too; then 1100 members at M = 20 (two chunks of the
# engine's loads, the second a part one), 5 steps too.
for members in 40 1100; do
  m=50; [ "$members" -gt 40 ] && m=20
  compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
    "$BUILD/bin/ensemble-bench" --members $members --M $m --steps 5 --check 2 \
    --paths gpu-batch --out "$OUT/memcheck-run-$members" > "$OUT/memcheck-$members.log" 2>&1
  echo "memcheck ($members members) exit $? ($(grep -c "Invalid\|uninitialized\|leaked" \
    "$OUT/memcheck-$members.log") findings); tail:"
  tail -2 "$OUT/memcheck-$members.log"
done
# The example sweep batched on the GPU against the same sweep batched on the CPU (the final
# observables of its six members).
for b in imex-batched imex-batched-cuda; do
  "$BUILD/bin/solvent" run config/sweep-angiogenesis-1d.toml --output "/tmp/sweep-$b" --overwrite \
    --set "sweep.batch=\"$b\"" > "$OUT/sweep-$b.log" 2>&1 || tail -3 "$OUT/sweep-$b.log"
done
python3 - /tmp/sweep-imex-batched/sweep.csv /tmp/sweep-imex-batched-cuda/sweep.csv <<'PY' \
  | tee "$OUT/sweep-compare.txt"
import csv, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
worst = max(abs(float(x[k]) - float(y[k])) / abs(float(y[k])) for x, y in zip(a, b) for k in x
            if k.startswith(("mass_", "max_", "min_")) and float(y[k]) != 0)
print(f"sweep batched on the GPU against the CPU: {len(b)} members, largest relative "
      f"difference of the final observables {worst:.3g}")
PY
cp /tmp/sweep-imex-batched-cuda/sweep.csv "$OUT/sweep-gpu.csv" 2>/dev/null
"$BUILD/bin/ensemble-bench" --members ${MEMBERS:-10000} --steps 100 --M 400 --check 4 \
  --out "$OUT/ensemble" 2>&1 | tee "$OUT/ensemble.md"
for members in ${SCALING-100 1000 100000}; do
  "$BUILD/bin/ensemble-bench" --members "$members" --steps 100 --M 400 --check 2 \
    --out "/tmp/ensemble-$members" 2>&1 | grep -E "^(check|[0-9]+ members|single|cpu-batch|gpu-batch)"
done 2>&1 | tee "$OUT/scaling.md"
echo "total $((SECONDS - start)) s"
