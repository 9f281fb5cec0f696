#!/usr/bin/env bash
# Sparse (CSR) systems over ranks and GPUs, in one device call (carry [".devdeps"]):
#   bash scripts/gpu/sparse.sh            tests, then cabin-40 and cabin-80
#   RESOLUTIONS=40 bash scripts/gpu/sparse.sh
# Builds the solvent command, the helmholtz model, the Krylov solvers (CPU and CUDA) and
# their preconditioners; runs the distributed conformance kit (every solver that takes CSR,
# the -cuda ones included, on a matrix split by rows against one rank) under mpirun -n 1, 2
# and, on 4 GPUs or more, 4. Then the built-in cabin at each resolution (40: 244 371 unknowns,
# 80: about 1.9 million), complex, solved to 1e-8 on 1, 2 and (4) GPUs, one rank per GPU,
# rows split by Scotch:
#   bicgstab-l-cuda (l = 8) + jacobi-cuda, bicgstab-cuda + ilu0-cuda (block Jacobi per GPU),
# and beside them on the same ranks and partition the CPU solvers bicgstab-l + jacobi and
# bicgstab + ilu0 (block Jacobi), one core per rank. PETSc takes complex systems on one rank
# only (petsc-complex, its bcgs + ilu), so its line is the 1-rank one.
# One line each: ranks, iterations, solve seconds, seconds per iteration, relative residual,
# exit status. Results under $OUT: build.log, tests.log, device.txt, summary.md, every run's
# record.toml under runs/.
SECONDS=0
RESOLUTIONS=${RESOLUTIONS:-"40 80"}
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/sparse-out}
mkdir -p "$OUT/runs"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
targets="solvent steady helmholtz matrix-file cg bicgstab bicgstab-l tfqmr cg-cuda bicgstab-cuda
  bicgstab-l-cuda tfqmr-cuda jacobi jacobi-cuda ilu0 ilu0-cuda sdk-conformance-distributed-tests"
ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
ninja -C "$BUILD" petsc-complex >> "$OUT/build.log" 2>&1 || echo "(no petsc-complex plugin in this build)"
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
mpirun --version | head -1 | tee -a "$OUT/device.txt"
gpus=$(nvidia-smi --list-gpus | wc -l)
counts="1 2"
[ "$gpus" -ge 4 ] && counts="1 2 4"

test=$BUILD/bin/sdk-conformance-distributed-tests
for n in $counts; do
  echo "== conformance kit, $n ranks" >> "$OUT/tests.log"
  timeout 300 mpirun --bind-to none -n $n "$test" >> "$OUT/tests.log" 2>&1
  echo "conformance kit on $n ranks: exit $?" | tee -a "$OUT/summary.md"
done
echo "== tests ($SECONDS s)"

value() { sed -n "s/^ *'\?$2'\? = //p" "$1/record.toml" | head -1 | tr -d "'\""; }
declare -A solver=([bicgstab-l-cuda]=bicgstab-l-cuda [bicgstab-cuda]=bicgstab-cuda
  [bicgstab-l]=bicgstab-l [bicgstab]=bicgstab [petsc-complex]=petsc-complex)
declare -A pc=([bicgstab-l-cuda]=jacobi-cuda [bicgstab-cuda]=ilu0-cuda [bicgstab-l]=jacobi
  [bicgstab]=ilu0 [petsc-complex]=none)
{
  echo
  echo "| cabin | solver | preconditioner | ranks | iterations | solve s | s / iteration | residual | status |"
  echo "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
} | tee -a "$OUT/summary.md"
for r in $RESOLUTIONS; do
  for m in bicgstab-l-cuda bicgstab-cuda bicgstab-l bicgstab petsc-complex; do
    [ "$m" = petsc-complex ] && [ ! -e "$BUILD/lib/solvent/libsolvent-petsc-complex.so" ] && continue
    for n in $counts; do
      [ "$m" = petsc-complex ] && [ $n -gt 1 ] && continue
      dir=$OUT/runs/cabin$r-$m-$n
      s=${solver[$m]}
      args=(--set model.resolution=$r --set "linear_solver.type=\"$s\""
        --set "preconditioner.type=\"${pc[$m]}\"" --output "$dir" --overwrite --no-progress)
      if [ "$m" = petsc-complex ]; then
        args+=(--set "linear_solver.$s.ksp_type=\"bcgs\"" --set "linear_solver.$s.pc_type=\"ilu\""
          --set "linear_solver.$s.tolerance=1e-8" --set "linear_solver.$s.max_iterations=5000")
      else
        args+=(--set "linear_solver.$s.tolerance=1e-8" --set "linear_solver.$s.max_iterations=5000")
        [[ $s == bicgstab-l* ]] && args+=(--set "linear_solver.$s.l=8")
      fi
      timeout 580 mpirun --bind-to none -n $n "$BUILD/bin/solvent" run \
        config/krylov-cabin-bicgstab-l.toml "${args[@]}" > "$dir.log" 2>&1
      rc=$?
      its=$(value "$dir" iterations)
      solve=$(value "$dir" solve)
      per=$(awk -v s="$solve" -v i="$its" 'BEGIN { if (i > 0) printf "%.3g", s / i }')
      echo "| $r | $s | ${pc[$m]} | $n | $its | $solve | $per | $(value "$dir" relative_residual) | exit $rc |" \
        | tee -a "$OUT/summary.md"
      [ $rc -ne 0 ] && tail -3 "$dir.log"
    done
  done
done
echo "== script took $SECONDS s"
