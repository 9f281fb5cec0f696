#!/usr/bin/env bash
# Every split of 1 to 4 ranks, one GPU each, for the Krylov CUDA solvers with GPU peer halos: a
# run that does not end within 90 s has each rank's stacks taken with cuda-gdb, then is
# killed. Carry [".devdeps"]; results under $OUT.
SECONDS=0
SOLVENT_CMAKE_ARGS="-DCMAKE_CXX_FLAGS=-g -DCMAKE_CUDA_FLAGS=-g" source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/hang-out}; mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
ninja -C "$BUILD" solvent grid-equations-3d steady cg-cuda bicgstab-cuda jacobi-cuda > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "== built ($SECONDS s)"; nvidia-smi topo -m | head -6
w=/tmp/hang && mkdir -p $w
for solver in ${SOLVERS:-cg-cuda bicgstab-cuda}; do for split in ${SPLITS:-1x1x1 1x1x2 1x1x3 1x3x1 1x1x4 1x4x1 1x2x2 4x1x1}; do
  ranks=$(( $(echo $split | tr x '*') ))
  printf '[run]\nname = "x"\n[model]\ntype = "grid-equations-3d"\nn1 = 64\nn2 = 64\nn3 = 256\nsplit = "%s"\nproblem = "poisson"\n[integrator]\ntype = "steady"\n[linear_solver]\ntype = "%s"\ntolerance = 1e-8\n[preconditioner]\ntype = "jacobi-cuda"\n' $split $solver > $w/$solver-$split.toml
  log=$OUT/$solver-$split.log
  mpirun -n $ranks $BUILD/bin/solvent run $w/$solver-$split.toml --overwrite --output $w/$solver-$split > $log 2>&1 &
  mp=$!
  for i in $(seq 90); do kill -0 $mp 2>/dev/null || break; sleep 1; done
  if kill -0 $mp 2>/dev/null; then
    echo "$solver $split: STILL RUNNING after 90 s; stacks in $log"
    for pid in $(pgrep -f "^$BUILD/bin/solvent run $w/$solver-$split"); do
      echo "=== pid $pid" >> $log
      timeout 60 cuda-gdb -batch -p $pid -ex "thread apply all bt 25" >> $log 2>&1
    done
    kill -9 $mp; pkill -9 -f "bin/solvent run" ; sleep 2
  else
    wait $mp; echo "$solver $split: exit $? $(grep -h 'error' $log | head -2 | tr '\n' ' ') $(grep -h '^iterations\|error_max\|^residual =' $w/$solver-$split/record.toml 2>/dev/null | tr '\n' ' ') history $(md5sum < $w/$solver-$split/residual_history.csv 2>/dev/null | cut -c1-8)"
  fi
done; done
echo "== done ($SECONDS s)"
