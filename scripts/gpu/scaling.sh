#!/usr/bin/env bash
# Distributed Krylov solvers on a machine with two GPUs (kind nvidia-h200-x2), carry
# [".devdeps"]:
#   bash scripts/gpu/scaling.sh check   build; the Krylov tests (CUDA and MPI); cg-cuda and
#                                       bicgstab-cuda on 2 GPUs against 1, peer and
#                                       host-staged halos; compute-sanitizer on both ranks
#   bash scripts/gpu/scaling.sh bench   scaling-benchmark: one face exchange, 16 KiB to 64 MiB,
#                                       both paths (SWEEP_ONLY=1: that alone); strong 512^3 and
#                                       weak 256^3 a GPU, GPU peer and host-staged halos, CPU
#                                       ranks (docs/scaling.md)
# Results under $OUT.
SECONDS=0
mode=${1:-check}
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/scaling-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
targets="solvent grid-equations-3d steady cg bicgstab bicgstab-l tfqmr cg-cuda bicgstab-cuda
  bicgstab-l-cuda tfqmr-cuda jacobi jacobi-cuda ilu0 ilu0-cuda scaling-benchmark
  plugins-krylov-kernels-tests plugins-krylov-tests plugins-krylov-cuda-tests
  plugins-krylov-distributed-tests sdk-conformance-distributed-tests"
ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
nvidia-smi topo -m > "$OUT/topology.txt" 2>&1
mpirun --version | head -1 | tee -a "$OUT/device.txt"
solvent=$BUILD/bin/solvent

if [ "$mode" = check ]; then
  (cd "$BUILD" && timeout 200 ctest -R krylov --output-on-failure) > "$OUT/tests.log" 2>&1
  tail -12 "$OUT/tests.log"
  OMP_NUM_THREADS=4 timeout 120 mpirun --bind-to none -n 2 "$BUILD/bin/sdk-conformance-distributed-tests" \
    > "$OUT/conformance-distributed.log" 2>&1
  echo "distributed conformance kit, 2 ranks, CUDA solvers included: exit $?" | tee -a "$OUT/tests.log"
  grep -a "skipped\|ERROR" "$OUT/conformance-distributed.log" | head -5
  echo "== tests ($SECONDS s)"
  work=/tmp/scaling-check && rm -rf $work && mkdir -p $work
  for solver in cg-cuda bicgstab-cuda tfqmr-cuda bicgstab-l-cuda; do
    problem=convection-diffusion
    [ $solver = cg-cuda ] && problem=poisson
    printf '[run]\nname = "x"\n[model]\ntype = "grid-equations-3d"\nn1 = 64\nn2 = 64\nn3 = 64\nproblem = "%s"\n[integrator]\ntype = "steady"\n[linear_solver]\ntype = "%s"\ntolerance = 1e-10\n[preconditioner]\ntype = "jacobi-cuda"\n' \
      $problem $solver > $work/$solver.toml
    mpirun --bind-to none -n 1 $solvent run $work/$solver.toml --output $work/$solver-1 > $work/$solver-1.log 2>&1 || tail -5 $work/$solver-1.log
    mpirun --bind-to none -n 2 $solvent run $work/$solver.toml --output $work/$solver-2 > $work/$solver-2.log 2>&1 || tail -5 $work/$solver-2.log
    SOLVENT_CUDA_HALO=host mpirun --bind-to none -n 2 -x SOLVENT_CUDA_HALO $solvent run $work/$solver.toml \
      --output $work/$solver-2h > $work/$solver-2h.log 2>&1 || tail -5 $work/$solver-2h.log
    python3 - $work/$solver <<'PY'
import sys, re
base = sys.argv[1]
def rec(d):
    t = open(d + "/record.toml").read()
    it = re.search(r"^iterations = (\d+)", t, re.M).group(1)
    em = re.search(r"error_max = (\S+)", t).group(1)
    dev = re.findall(r"device = '([^']*)'", t)
    h = [float(l.split(",")[1]) for l in open(d + "/residual_history.csv").read().split("\n")[1:] if l]
    return it, em, h, dev
i1, e1, h1, d1 = rec(base + "-1"); i2, e2, h2, d2 = rec(base + "-2"); i3, e3, h3, _ = rec(base + "-2h")
n = min(len(h1), len(h2))
diff = max(abs(a - b) / abs(a) for a, b in zip(h1[:n], h2[:n]))
print(f"{base.split('/')[-1]}: iterations 1 GPU {i1}, 2 GPUs {i2} (host-staged {i3}); error_max {e1} / {e2}; "
      f"residual history max rel. diff {diff:.2e}; peer = host-staged bitwise: {h2 == h3}; devices {d2}")
PY
  done | tee "$OUT/equality.txt"
  echo "== 2 GPUs against 1 ($SECONDS s)"
  sed -e 's/n1 = 64/n1 = 24/;s/n2 = 64/n2 = 24/;s/n3 = 64/n3 = 24/' $work/cg-cuda.toml > $work/small.toml
  for halo in auto host; do
    SOLVENT_CUDA_HALO=$halo timeout 200 mpirun --bind-to none -n 2 -x SOLVENT_CUDA_HALO compute-sanitizer --tool memcheck \
      --error-exitcode 9 $solvent run $work/small.toml --output $work/sanitizer-$halo \
      > "$OUT/sanitizer-$halo.log" 2>&1
    echo "compute-sanitizer memcheck, 2 ranks, halo $halo: exit $? $(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitizer-$halo.log") ranks with 0 errors" | tee -a "$OUT/equality.txt"
  done
  echo "== sanitizer ($SECONDS s)"
fi

if [ "$mode" = bench ]; then
  b=$BUILD/bin/scaling-benchmark
  header="| solver | problem | scaling | ranks | grid | split | halo | iterations | ms / iteration | halo KiB / product | ms / product | ms halo / product | residual |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  echo "$header" > "$OUT/scaling.md"
  bench() { timeout ${T:-120} mpirun --bind-to none "$@" 2>>"$OUT/bench.err" | tee -a "$OUT/scaling.md"; }
  timeout 120 mpirun --bind-to none -n 2 $b --halo-sweep 1 2>>"$OUT/bench.err" | tee "$OUT/halo.md"
  [ -n "${SWEEP_ONLY:-}" ] && { echo "== script took $SECONDS s"; exit 0; }
  N=${N:-512}
  for solver in cg-cuda bicgstab-cuda; do
    for problem in poisson convection; do
      OMP_NUM_THREADS=16 bench -n 1 -x OMP_NUM_THREADS $b --solver $solver --problem $problem --n $N
      OMP_NUM_THREADS=8 bench -n 2 -x OMP_NUM_THREADS $b --solver $solver --problem $problem --n $N
      SOLVENT_CUDA_HALO=host OMP_NUM_THREADS=8 bench -n 2 -x OMP_NUM_THREADS -x SOLVENT_CUDA_HALO \
        $b --solver $solver --problem $problem --n $N
    done
    OMP_NUM_THREADS=16 bench -n 1 -x OMP_NUM_THREADS $b --solver $solver --n 256 --weak 1
    OMP_NUM_THREADS=8 bench -n 2 -x OMP_NUM_THREADS $b --solver $solver --n 256 --weak 1
    SOLVENT_CUDA_HALO=host OMP_NUM_THREADS=8 bench -n 2 -x OMP_NUM_THREADS -x SOLVENT_CUDA_HALO \
      $b --solver $solver --n 256 --weak 1
    echo "== $solver ($SECONDS s)"
  done
  for solver in cg bicgstab; do
    OMP_NUM_THREADS=16 bench -n 1 -x OMP_NUM_THREADS $b --solver $solver --n 256 --iterations 20
    OMP_NUM_THREADS=8 bench -n 2 -x OMP_NUM_THREADS $b --solver $solver --n 256 --iterations 20
    OMP_NUM_THREADS=4 bench -n 4 -x OMP_NUM_THREADS $b --solver $solver --n 256 --iterations 20
  done
  echo "== CPU ranks ($SECONDS s)"
fi
echo "== script took $SECONDS s"
