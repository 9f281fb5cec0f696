#!/usr/bin/env bash
# The GPU performance figures of docs/benchmarks.md ("GPU performance") in one device call:
# builds only what they need, runs the CUDA tests of dense, stencil3d and matm and
# compute-sanitizer (memcheck, racecheck) on small blocked-LU cases and on matm-cuda's sweeps
# (their hand-offs between blocks), then, one at a time on an otherwise idle GPU:
#   1. dense-solver-bench at n = 1200, 1600, 2400, 3200: gepp-cuda paper, best and blocked
#      (block sizes 32, 64, 128) against cuSOLVER, with the device ceilings;
#   2. stencil3d-field-bench at 300^3: the field update's bandwidth counted two ways, the
#      coefficients as kernel parameters and in constant memory, against the copy bandwidth
#      measured in the same run;
#   3. matm-benchmark at 256^3 (matm-cuda, Poisson, with its floor);
#   4. imex-1d-bench at M = 400, the banded paths, on one CPU core;
#   5. stencil3d-bench (the hybrid model's whole step, CUDA against the CPU), if time is left.
# Every stage has a time limit, cut to what is left of BUDGET_S seconds (default 540, the
# build included), so the whole ends in time. Three files come back in $OUT: summary.txt
# (what each stage returned), results.md (every table) and logs.tar.gz (all logs and CSVs,
# packed again after each stage).
#
# On the device, with carry [".devdeps"]:   bash scripts/gpu/performance.sh
set -uo pipefail
start=$SECONDS
budget=${BUDGET_S:-540}
OUT=${OUT:-/tmp/performance-out}
logs=/tmp/performance-logs
rm -rf "$logs"
mkdir -p "$OUT" "$logs"
left() { echo $((budget - (SECONDS - start))); }
# The smaller of a stage's own limit and what the budget leaves.
limit() { local l=$(( $(left) - 5 )); [ "$l" -lt "$1" ] && echo $(( l > 5 ? l : 5 )) || echo "$1"; }
say() { echo "$*" | tee -a "$OUT/summary.txt"; tar czf "$OUT/logs.tar.gz" -C "$logs" . 2>/dev/null; }
: > "$OUT/summary.txt"
source scripts/gpu/configure.sh || exit 1
set +e
targets="gepp-cuda cusolver gepp-cpu lapack banded imex-trapezoid angiogenesis-1d
  plugins-dense-cuda-tests dense-solver-bench
  angiogenesis-3d explicit-stencil3d plugins-stencil3d-cuda-tests stencil3d-bench stencil3d-field-bench
  matm matm-cuda grid-equations-3d plugins-matm-cuda-tests matm-benchmark imex-1d-bench"
if ! ninja -C "$BUILD" $targets > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -40
  exit 1
fi
say "built after $((SECONDS - start)) s"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv \
  | tee "$logs/device.txt"
export SOLVENT_PLUGIN_PATH="$BUILD/lib/solvent"
bin="$BUILD/bin"

# The CUDA tests of both packages, side by side (they time nothing).
timeout "$(limit 120)" "$bin/plugins-dense-cuda-tests" > "$logs/tests_dense.log" 2>&1 &
dense_tests=$!
OMP_NUM_THREADS=4 timeout "$(limit 100)" "$bin/plugins-stencil3d-cuda-tests" \
  > "$logs/tests_stencil3d.log" 2>&1
say "stencil3d CUDA tests rc=$? ($(grep -E '^\[doctest\] (test cases|assertions)' "$logs/tests_stencil3d.log" | tr '\n' ' '))"
wait "$dense_tests"
say "dense CUDA tests rc=$? ($(grep -E '^\[doctest\] (test cases|assertions)' "$logs/tests_dense.log" | tr '\n' ' '))"
grep -E "ERROR|FAILED|CHECK" "$logs/tests_dense.log" | head -20

# Every kernel of the blocked LU (panel, swaps, the cuBLAS calls) on small systems.
small='conformance: gepp-cuda in blocked mode,singular*'
for tool in memcheck racecheck; do
  timeout "$(limit 45)" compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$bin/plugins-dense-cuda-tests" -tc="$small" > "$logs/sanitizer_$tool.log" 2>&1
  say "compute-sanitizer $tool rc=$? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases' "$logs/sanitizer_$tool.log" | tr '\n' ' '))"
done

# matm-cuda against matm, then its sweeps under the sanitizers: the case whose blocks hand a
# value to a neighbour at every layer and column, and the sweep that forms A0 w.
timeout "$(limit 120)" "$bin/plugins-matm-cuda-tests" > "$logs/tests_matm.log" 2>&1
say "matm CUDA tests rc=$? ($(grep -E '^\[doctest\] (test cases|assertions)' "$logs/tests_matm.log" | tr '\n' ' '))"
grep -E "ERROR|FAILED|CHECK" "$logs/tests_matm.log" | head -20
for tool in memcheck racecheck; do
  timeout "$(limit 60)" compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$bin/plugins-matm-cuda-tests" -tc="blocks that wait*" > "$logs/sanitizer_matm_$tool.log" 2>&1
  say "compute-sanitizer $tool (matm) rc=$? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases' "$logs/sanitizer_matm_$tool.log" | tr '\n' ' '))"
done

# 1. Dense solves: gepp-cpu left out (--cpu-max-M 0), no ablation (--ablation-M 0).
timeout "$(limit 120)" "$bin/dense-solver-bench" --out "$logs/dense" --levels 300,400,600,800 \
  --cpu-max-M 0 --ablation-M 0 --block-sizes 32,128 --panel-threads 256,512 \
  > "$logs/dense_bench.log" 2>&1
say "dense-solver-bench rc=$? after $((SECONDS - start)) s"
grep -E "WRONG|skipped|error" "$logs/dense_bench.log" | head -10

# 2. The stencil's field update at 300^3 (checked against the CPU before timing).
timeout "$(limit 60)" "$bin/stencil3d-field-bench" --grid 300 --out "$logs/stencil3d_field.csv" \
  > "$logs/stencil3d_field.md" 2>&1
say "stencil3d-field-bench rc=$? after $((SECONDS - start)) s"

# 3. MATM at 256^3, matm-cuda alone (Poisson), with its floor and block shapes.
timeout "$(limit 70)" "$bin/matm-benchmark" --sizes 256 --shape-size 256 --quick 1 \
  --out "$logs/matm-benchmark.md" > "$logs/matm_bench.log" 2>&1
say "matm-benchmark rc=$? after $((SECONDS - start)) s"

# 4. The CPU banded IMEX step, one core (pinned; OpenBLAS and OpenMP on one thread).
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 timeout "$(limit 40)" taskset -c 1 "$bin/imex-1d-bench" \
  --levels 400 --only banded,banded-unverified,banded-refactor,lapack+reuse --budget-s 2 \
  --csv "$logs/imex_1d.csv" > "$logs/imex_1d.log" 2>&1
say "imex-1d-bench rc=$? after $((SECONDS - start)) s"

# 5. The hybrid model's whole step (tips and vessel uptake) on its four grids.
if [ "$(left)" -gt 30 ]; then
  OMP_NUM_THREADS=16 timeout "$(limit 60)" "$bin/stencil3d-bench" --steps 500 --cpu-steps 2 \
    --out "$logs/stencil3d_bench.csv" > "$logs/stencil3d_bench.md" 2>&1
  say "stencil3d-bench rc=$? after $((SECONDS - start)) s"
fi

say "done after $((SECONDS - start)) s"
{
  echo "# GPU performance, $(head -2 "$logs/device.txt" | tail -1)"
  echo; echo "## dense-solver-bench"; echo
  sed -n '/^Device:/,$p' "$logs/dense/dense_solvers.md" 2>/dev/null
  echo; echo "Extra blocked configurations (one solve / one IMEX step, ms):"; echo
  grep -E "^M=.*blocked( nb| panel_threads|, pageable)" "$logs/dense_bench.log" | sed 's/^/    /'
  echo; echo "dense_solvers.csv, blocked and cusolver rows (phases of the last solve, ms):"; echo
  grep -E "^M,|blocked|cusolver" "$logs/dense/dense_solvers.csv" 2>/dev/null | sed 's/^/    /'
  echo; echo "## stencil3d-field-bench"; echo
  cat "$logs/stencil3d_field.md"
  echo; echo "## matm-benchmark"; echo
  cat "$logs/matm-benchmark.md" 2>/dev/null || tail -20 "$logs/matm_bench.log"
  echo; echo "## imex-1d-bench (one core)"; echo
  sed 's/^/    /' "$logs/imex_1d.log"
  echo; echo "## stencil3d-bench"; echo
  cat "$logs/stencil3d_bench.md" 2>/dev/null
  echo; echo "## tests and sanitizer"; echo
  grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|validation M=400" \
    "$logs"/tests_*.log "$logs"/sanitizer_*.log | sed 's/^/    /'
} > "$OUT/results.md" 2>&1
tar czf "$OUT/logs.tar.gz" -C "$logs" . 2>/dev/null
cat "$OUT/results.md"
exit 0
