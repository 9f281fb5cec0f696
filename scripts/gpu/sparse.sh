#!/usr/bin/env bash
# The -cuda Krylov solvers on a CSR matrix distributed by rows, in one device call on a
# machine with one GPU or more (carry [".devdeps"]):
#   bash scripts/gpu/sparse.sh
# Every rank takes GPU local_rank % GPUs, so on one GPU the ranks share it: equality with one
# rank, not scaling. It builds the solvers, their preconditioners and the tests, then checks:
#  - the distributed conformance kit (sdk-conformance-distributed-tests: every solver that
#    takes CSR, the -cuda ones included, on the grid's Poisson matrix split by Scotch, against
#    one rank) under mpirun -n 1, 2, 3; a -cuda solver skipped for want of a device fails it;
#  - the CUDA CSR tests of one process (plugins-krylov-cuda: kernels and solvers against the
#    CPU ones; plugins-ilu-cuda);
#  - whole runs of matrix-file on a complex matrix (81 rows, uneven over the ranks):
#    bicgstab-cuda, bicgstab-l-cuda and tfqmr-cuda with jacobi-cuda on 1 and 2 ranks against
#    their CPU twins on one rank, bicgstab-cuda with ilu0-cuda (block Jacobi) on 2 against
#    bicgstab with ilu0 on 2 (solutions within 1e-9, iterations within 10 %);
#  - compute-sanitizer memcheck on the kit's CSR case, 1 rank and 2 ranks;
#  - the figures docs/krylov.md quotes from these runs (iterations, agreement), each
#    against what this call measured, so that the text cannot drift from the GPU path.
# One PASS or FAIL line per check in $OUT/summary.txt and at the end "sparse.sh: PASS" (every
# check passed) or "sparse.sh: FAIL (n checks)"; the logs under $OUT.
SECONDS=0
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/sparse-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
targets="solvent steady matrix-file grid-equations-3d cg bicgstab bicgstab-l tfqmr cg-cuda
  bicgstab-cuda bicgstab-l-cuda tfqmr-cuda jacobi jacobi-cuda ilu0 ilu0-cuda
  sdk-conformance-distributed-tests plugins-krylov-cuda-tests plugins-ilu-cuda-tests"
if ! ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1; then
  grep -E "error|FAILED" "$OUT/build.log" | head -40
  echo "sparse.sh: FAIL (build; $OUT/build.log)"
  exit 1
fi
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
mpirun --version | head -1 | tee -a "$OUT/device.txt"
# The whole script must fit one device call (10 minutes): each step has its own limit.
mpi() {  # mpi SECONDS mpirun-arguments...
  local limit=$1
  shift
  timeout "$limit" mpirun --oversubscribe --bind-to none "$@"
}
failed=0
verdict() {  # verdict STATUS WHAT: one PASS (status 0) or FAIL line
  local word=PASS
  [ "$1" = 0 ] || { word=FAIL; failed=$((failed + 1)); }
  echo "$word: $2" | tee -a "$OUT/summary.txt"
  # A device call returns few files: the failing log's end goes to the output too.
  local log
  log=$(echo "$2" | sed -n 's/.*(\([a-z0-9.-]*\.log\)).*/\1/p; s/.*; \([a-z0-9.-]*\.log\))$/\1/p' | tail -1)
  [ "$word" = PASS ] || [ -z "$log" ] || tail -15 "$OUT/$log"
}

kit=$BUILD/bin/sdk-conformance-distributed-tests
for n in 1 2 3; do
  log=$OUT/kit-$n.log
  mpi 60 -n $n "$kit" > "$log" 2>&1
  rc=$?
  skipped=$(grep -c "cuda: skipped, no device" "$log")
  [ $rc -eq 0 ] && [ "$skipped" -eq 0 ]
  verdict $? "distributed conformance kit on $n ranks (exit $rc, $skipped -cuda solvers skipped; kit-$n.log)"
done

for t in plugins-krylov-cuda-tests plugins-ilu-cuda-tests; do
  timeout 150 "$BUILD/bin/$t" > "$OUT/$t.log" 2>&1
  rc=$?  # 77: no device, skipped
  verdict $rc "$t (exit $rc; $t.log)"
done
echo "== tests ($SECONDS s)"

# Whole runs on the complex matrix; solution.csv rows are "index, real, imaginary".
work=/tmp/sparse-work && rm -rf $work && mkdir -p $work
matrix=$PWD/tests/core/sdk/matrix_market/data/helmholtz-duct.mtx
# The rows split in order: the GPU machines have no Scotch.
run() {  # run NAME RANKS SOLVER PRECONDITIONER
  mpi 60 -n "$2" "$BUILD/bin/solvent" run tests/models/matrix_file/over_ranks/system.toml \
    --set "model.matrix=\"$matrix\"" --set "linear_solver.type=\"$3\"" \
    --set "preconditioner.type=\"$4\"" --set model.partition=\"contiguous\" --output "$work/$1" --overwrite --no-progress \
    > "$OUT/run-$1.log" 2>&1
}
iterations() { sed -n 's/^iterations = //p' "$work/$1/record.toml" 2>/dev/null | tr -d "'"; }
# The largest |x - reference| over the largest |reference|; empty where a file is missing.
difference() {
  [ -f "$work/$1/solution.csv" ] && [ -f "$work/$2/solution.csv" ] || return 1
  awk -F, 'FNR == 1 { next }
    NR == FNR { re[FNR] = $2; im[FNR] = $3; next }
    { dr = $2 - re[FNR]; di = $3 - im[FNR]; d = sqrt(dr * dr + di * di)
      s = sqrt(re[FNR] * re[FNR] + im[FNR] * im[FNR]); rows++
      if (d > worst) worst = d; if (s > scale) scale = s }
    END { if (rows == 0 || scale == 0) exit 1; printf "%.3e\n", worst / scale }' \
    "$work/$2/solution.csv" "$work/$1/solution.csv"
}
check_run() {  # check_run NAME RANKS SOLVER PRECONDITIONER REFERENCE
  run "$1" "$2" "$3" "$4"
  local rc=$? d ok=1 a b
  a=$(iterations "$1") b=$(iterations "$5")
  # Iterations within 10 % (and 2) of the reference's: the split reorders the sums.
  d=$(difference "$1" "$5") && awk -v d="$d" -v a="${a:-0}" -v b="${b:-0}" \
    'BEGIN { m = b / 10 > 2 ? b / 10 : 2; exit !(d <= 1e-9 && a > 0 && (a - b) ^ 2 <= m ^ 2) }' && ok=0
  differences[$1]=$d
  [ $rc -eq 0 ] && [ $ok -eq 0 ]
  verdict $? "$3 + $4, complex matrix-file on $2 ranks: exit $rc, ${a:-?} iterations (${b:-?} for $5), solutions differ by ${d:-?} (run-$1.log)"
}
declare -A differences
# The CPU twin on one rank is each -cuda solver's reference. CG is left out: this matrix is
# complex symmetric, not Hermitian (the kit runs cg-cuda over ranks on the real matrix).
for s in bicgstab bicgstab-l tfqmr; do
  run $s-1 1 $s jacobi
  verdict $? "reference: $s + jacobi on 1 rank, $(iterations $s-1) iterations (run-$s-1.log)"
  for n in 1 2; do check_run $s-cuda-$n $n $s-cuda jacobi-cuda $s-1; done
done
# Block Jacobi: each rank's diagonal block factored, on the CPU and on the GPU alike.
run ilu0-2 2 bicgstab ilu0
verdict $? "reference: bicgstab + ilu0 (block Jacobi) on 2 ranks, $(iterations ilu0-2) iterations (run-ilu0-2.log)"
check_run ilu0-cuda-2 2 bicgstab-cuda ilu0-cuda ilu0-2
echo "== runs ($SECONDS s)"

# What docs/krylov.md says of these runs, written from this call's values.
source tests/support/quoted_text.sh
quote() {  # quote PHRASE: PASS where the document says it
  (fail() { echo "$*"; exit 1; }; quoted docs/krylov.md "$1") > "$OUT/quote.log" 2>&1
  verdict $? "docs/krylov.md says: $1"
}
# Agreement is round-off: the document states a bound, which every run must keep to.
within() {  # within BOUND DIFFERENCES...: every difference below the bound
  awk -v b="$1" 'BEGIN { ok = 1 } { if ($1 == "" || $1 + 0 >= b + 0) ok = 0 } END { exit !ok }' <<< "$(printf '%s\n' "${@:2}")"
}
jacobi=(); for s in bicgstab bicgstab-l tfqmr; do for n in 1 2; do jacobi+=("${differences[$s-cuda-$n]}"); done; done
quote "on 1 and on 2 ranks ($(iterations bicgstab-1), $(iterations bicgstab-l-1), $(iterations tfqmr-1)) and agree with its solution to within 1e-11 relative"
within 1e-11 "${jacobi[@]}"
verdict $? "the -cuda solvers with jacobi-cuda within 1e-11 of their CPU twins: ${jacobi[*]}"
quote "takes $(iterations ilu0-cuda-2) iterations against \`ilu0\`'s $(iterations ilu0-2) and agrees to within 1e-10"
within 1e-10 "${differences[ilu0-cuda-2]}"
verdict $? "bicgstab-cuda + ilu0-cuda within 1e-10 of bicgstab + ilu0: ${differences[ilu0-cuda-2]}"

# compute-sanitizer on the kit's CSR case (1 rank: the one-GPU CSR product; 2 ranks: the
# gather, the host-staged exchange and the product with ghosts).
# Beside the nvcc the build found where it is not on PATH.
sanitizer=$(command -v compute-sanitizer ||
  echo "$(dirname "$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt")")/compute-sanitizer")
for n in 1 2; do
  log=$OUT/sanitizer-$n.log
  mpi 90 -n $n "$sanitizer" --tool memcheck --error-exitcode 9 "$kit" \
    --test-case="*split by rows*" > "$log" 2>&1
  rc=$?
  clean=$(grep -c "ERROR SUMMARY: 0 errors" "$log")
  [ $rc -eq 0 ] && [ "$clean" -eq $n ]
  verdict $? "compute-sanitizer memcheck, kit CSR case on $n ranks (exit $rc, $clean of $n ranks with 0 errors; sanitizer-$n.log)"
done
echo "== script took $SECONDS s"
result="sparse.sh: PASS"
[ $failed -eq 0 ] || result="sparse.sh: FAIL ($failed checks)"
echo "$result" | tee -a "$OUT/summary.txt"
[ $failed -eq 0 ]
