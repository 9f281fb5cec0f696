#!/usr/bin/env bash
# gepp-cuda and cusolver on the GPU machine, in one call: build, the GPU tests (conformance,
# every switch combination, the M = 400 trajectory against gepp-cpu), the benchmark,
# compute-sanitizer memcheck and racecheck on the kernels, and the validation run through
# `solvent` (plus the fallback with the GPU hidden). Every stage has a time limit so the
# whole ends before BUDGET_S seconds; logs are packed into $OUT/gepp-results.tar.gz after
# each stage, the tables copied to $OUT.
#
# On the device, with carry [".devdeps"]:   BUDGET_S=300 bash scripts/gpu/gepp.sh
# (BENCH_LEVELS=25,400,800 narrows the benchmark's levels; CPU_LEVELS= skips gepp-cpu's
# slow levels; RESERVE_S is the time kept after the benchmark for the sanitizer and runs.)
set -uo pipefail
start=$SECONDS
budget=${BUDGET_S:-300}
OUT=${OUT:-/tmp/gepp-out}
logs=/tmp/gepp-logs
mkdir -p "$OUT" "$logs"
left() { echo $((budget - (SECONDS - start))); }
save() { tar czf "$OUT/gepp-results.tar.gz" -C "$logs" . 2>/dev/null; }
source scripts/gpu/configure.sh || exit 1
set +e
targets="gepp-cuda cusolver gepp-cpu lapack imex-trapezoid angiogenesis-1d
  plugins-dense-cuda-tests plugins-dense-envelope-tests dense-solver-bench"
if ! ninja -C "$BUILD" $targets > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -40
  save
  exit 1
fi
echo "built after $((SECONDS - start)) s"
export SOLVENT_PLUGIN_PATH="$BUILD/lib/solvent"
bin="$BUILD/bin"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv | tee "$logs/device.txt"

# gepp-cpu's large levels take tens of seconds on one core: they run beside the tests
# (CPU_LEVELS= empty skips them).
cpu_levels=${CPU_LEVELS-500,600,800}
cpu_bench=
if [ -n "$cpu_levels" ]; then
  timeout 120 "$bin/dense-solver-bench" --out "$logs/cpu" --configs gepp-cpu --levels "$cpu_levels" \
    --cpu-budget-s 60 > "$logs/bench_cpu.log" 2>&1 &
  cpu_bench=$!
fi

{
  "$bin/plugins-dense-envelope-tests"
  echo "envelope tests rc=$?"
  timeout 100 "$bin/plugins-dense-cuda-tests"
  echo "GPU tests rc=$?"
} > "$logs/tests.log" 2>&1
grep -E "rc=|validation|test cases|assertions|ERROR|FAILED|CHECK" "$logs/tests.log" | head -30
save

if [ -n "$cpu_bench" ]; then
  wait "$cpu_bench"
  echo "cpu levels rc=$? after $((SECONDS - start)) s"
fi
# BENCH_LEVELS narrows the levels for a quick look; the remaining budget less what the
# sanitizer and solvent stages need bounds the benchmark.
bench_s=$(( $(left) - ${RESERVE_S:-70} ))
if [ "$bench_s" -gt 20 ]; then
  timeout "$bench_s" "$bin/dense-solver-bench" --out "$logs" --cpu-max-M 400 \
    ${BENCH_LEVELS:+--levels "$BENCH_LEVELS"} > "$logs/bench.log" 2>&1
  echo "benchmark rc=$? after $((SECONDS - start)) s"
else
  echo "benchmark skipped: only $(left) s left"
fi
cp "$logs/dense_solvers.md" "$logs/dense_solvers.csv" "$OUT/" 2>/dev/null
cp "$logs/cpu/dense_solvers.csv" "$OUT/dense_solvers_cpu_levels.csv" 2>/dev/null
save

[ "$(left)" -lt 12 ] && { echo "out of time after the benchmark"; tail -45 "$logs/bench.log"; exit 0; }
small='conformance: gepp-cuda in paper mode,conformance: gepp-cuda in best mode,conformance: gepp-cuda refactoring*,conformance: gepp-cuda with host*,singular*'
for tool in memcheck racecheck; do
  timeout $(( $(left) / 2 < 25 ? $(left) / 2 : 25 )) compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin/plugins-dense-cuda-tests" -tc="$small" \
    > "$logs/sanitizer_$tool.log" 2>&1
  echo "compute-sanitizer $tool rc=$? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases' "$logs/sanitizer_$tool.log" | tr '\n' ' '))"
done
save

[ "$(left)" -lt 30 ] && { echo "no time left for the solvent runs"; tail -45 "$logs/bench.log"; exit 0; }
# The validation run through the solvent command, CPU then GPU, and their observables.
ninja -C "$BUILD" solvent >> "$logs/build.log" 2>&1 || echo "solvent did not build"
run() { timeout 12 "$bin/solvent" run config/angiogenesis-1d.toml --no-progress --overwrite "$@"; }
run --set linear_solver.type=gepp-cpu --set linear_solver.reuse_factorization=true \
  --set output.directory=/tmp/run-cpu > "$logs/solvent_cpu.log" 2>&1
echo "solvent gepp-cpu rc=$?"
run --set linear_solver.type=gepp-cuda --set output.directory=/tmp/run-gpu > "$logs/solvent_gpu.log" 2>&1
echo "solvent gepp-cuda rc=$?"
python3 - /tmp/run-cpu/observables.csv /tmp/run-gpu/observables.csv <<'PY' 2>&1 | tee "$logs/solvent_compare.txt"
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
worst = {}
for ra, rb in zip(a, b):
    for k in ra:
        if k.startswith("mass"):
            x, y = float(ra[k]), float(rb[k])
            worst[k] = max(worst.get(k, 0.0), abs(x - y) / max(abs(x), 1e-300))
print(f"solvent run, {len(a)} rows each: max relative difference:",
      ", ".join(f"{k} {v:.2e}" for k, v in worst.items()))
PY
mkdir -p "$logs/run-gpu" && cp /tmp/run-gpu/*.toml /tmp/run-gpu/*.json /tmp/run-gpu/observables.csv "$logs/run-gpu/" 2>/dev/null
CUDA_VISIBLE_DEVICES= timeout 8 "$bin/solvent" run config/angiogenesis-1d.toml --no-progress --overwrite \
  --set model.M=50 --set linear_solver.type=gepp-cuda --set linear_solver.fallback=gepp-cpu \
  --set output.directory=/tmp/run-fallback > "$logs/solvent_fallback.log" 2>&1
echo "fallback with the GPU hidden rc=$?: $(grep -i fallback "$logs/solvent_fallback.log" | head -2)"
mkdir -p "$logs/run-fallback" && cp /tmp/run-fallback/*.toml /tmp/run-fallback/*.json "$logs/run-fallback/" 2>/dev/null
save
echo "done after $((SECONDS - start)) s"
tail -45 "$logs/bench.log"
[ -f "$logs/bench_cpu.log" ] && grep -E "^M=" "$logs/bench_cpu.log"
exit 0
