#!/usr/bin/env bash
# transport-3d in the basin (nodes outside it are inactive, their equation u = 0) with PETSc's
# BiCGSTAB + GAMG, which leaves small values at those nodes within its tolerance where CG +
# Jacobi leaves exact zeros: its 12 layers must end where CG's do. When the integrator formed
# the right-hand side of inactive nodes from earlier layers, those values were multiplied by
# 2000 a layer: the run ended unconverged at layer 6, or, stopping on the true residual
# (-ksp_norm_type unpreconditioned), overflowed with every solve converged.
#   inactive_nodes_test.sh SOLVENT CONFIG WORKDIR
set -uo pipefail
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
export OMP_NUM_THREADS=1
fail() { echo "FAIL: $*"; exit 1; }
common=(--set model.domain='"basin"' --set model.n1=24 --set model.n2=24 --set model.n3=24
        --set integrator.dt=1e-3 --set integrator.steps=12 --no-progress)
"$solvent" run "$config" --output "$work/gamg" "${common[@]}" --set linear_solver.type='"petsc"' \
  --set linear_solver.ksp_type='"bcgs"' --set linear_solver.pc_type='"gamg"' \
  --set linear_solver.initial_guess='"given"' --set linear_solver.tolerance=1e-10 \
  > "$work/gamg.txt" 2>&1
rc=$?; [ $rc = 0 ] || { cat "$work/gamg.txt"; fail "the GAMG run ended with exit $rc"; }
"$solvent" run "$config" --output "$work/cg" "${common[@]}" --set linear_solver.type='"cg"' \
  --set preconditioner.type='"jacobi"' --set linear_solver.cg.tolerance=1e-10 \
  > "$work/cg.txt" 2>&1
rc=$?; [ $rc = 0 ] || { cat "$work/cg.txt"; fail "the CG run ended with exit $rc"; }
last() { tail -1 "$1/observables.csv" | cut -d, -f1,3; }
read -r step_gamg error_gamg <<< "$(last "$work/gamg" | tr , ' ')"
read -r step_cg error_cg <<< "$(last "$work/cg" | tr , ' ')"
[ "$step_gamg" = 12 ] && [ "$step_cg" = 12 ] || fail "last layers $step_gamg and $step_cg, not 12"
awk -v a="$error_gamg" -v b="$error_cg" \
  'BEGIN { if (a !~ /^[0-9.e+-]+$/ || b !~ /^[0-9.e+-]+$/ || b <= 0) exit 1
           d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * b) }' \
  || fail "error_max at t = 0.012: GAMG $error_gamg, CG $error_cg (they must agree to 1e-6)"
echo "PASS: error_max at t = 0.012, GAMG $error_gamg, CG $error_cg"
