#!/usr/bin/env bash
# A whole run with the petsc solver: config/matm-convection.toml at 17^3 with
# --set linear_solver.type=petsc and bcgs; converged, with the true residual recorded. With
# MPIEXEC, the same run under mpirun -n 1 (the core starts MPI, PETSc finds it started)
# repeats it: same iterations and residual, and the process ends cleanly.
# usage: run_test.sh SOLVENT CONFIG OUTDIR [MPIEXEC]
set -euo pipefail
solvent=$1 config=$2 out=$3 mpiexec=${4:-}
rm -rf "$out"
args=(run "$config" --set linear_solver.type=petsc --set model.n1=17 --set model.n2=17
      --set model.n3=17 --set 'linear_solver.petsc.ksp_type="bcgs"')
"$solvent" "${args[@]}" --output "$out/one" > "$out.log" 2>&1 || { cat "$out.log"; exit 1; }
record=$out/one/record.toml
grep -q "^converged = true" "$record" || { echo "not converged"; cat "$record"; exit 1; }
grep -q "^solver_status = 'converged'" "$record"
grep -q "^ksp_type = 'bcgs'" "$record"
residual=$(sed -n 's/^relative_residual = //p' "$record")
awk -v r="$residual" 'BEGIN { exit !(r > 0 && r < 1e-7) }' || { echo "residual $residual"; exit 1; }
iterations=$(sed -n 's/^iterations = //p' "$record")
echo "petsc bcgs + ilu: $iterations iterations, true residual $residual"
if [ -n "$mpiexec" ]; then
  "$mpiexec" -n 1 "$solvent" "${args[@]}" --output "$out/mpi" > "$out.mpi.log" 2>&1 ||
    { cat "$out.mpi.log"; exit 1; }
  [ "$(sed -n 's/^iterations = //p' "$out/mpi/record.toml")" = "$iterations" ]
  [ "$(sed -n 's/^relative_residual = //p' "$out/mpi/record.toml")" = "$residual" ]
  echo "under mpirun -n 1: the same"
fi
