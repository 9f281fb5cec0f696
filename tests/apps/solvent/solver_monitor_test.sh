#!/usr/bin/env bash
# [linear_solver] monitor = N: while an iterative solve runs, every Nth iteration's relative
# residual is logged, and each logged value is the one the solve records afterwards in
# residual_history.csv (the same iteration, to the 7 digits shown). Checked for the solvers
# of Solvent's own loops (cg, bicgstab, bicgstab-l, tfqmr, matm) and PETSc's through its
# monitor; a direct solver logs
# nothing, and monitor = 0 (the default) logs nothing.
# usage: solver_monitor_test.sh SOLVENT CONFIG_DIR WORK_DIR
set -uo pipefail
solvent=$1 configs=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export OMP_NUM_THREADS=1
failures=0
small=(--set model.n1=17 --set model.n2=17 --set model.n3=17 --no-progress)

# monitored SOLVER EVERY [more --set...]: the run's monitor lines against its residual history.
monitored() {
  local solver=$1 every=$2
  shift 2
  "$solvent" run "$configs/matm-poisson.toml" "${small[@]}" --set linear_solver.type="$solver" \
    --set linear_solver.monitor="$every" "$@" --output "$solver" > "$solver.txt" 2>&1 \
    || { echo "FAIL: $solver: exit $?"; cat "$solver.txt"; failures=$((failures + 1)); return; }
  local shown expected
  shown=$(sed -n 's/^\[info\]   iteration *\([0-9]*\): relative residual \(.*\)$/\1 \2/p' "$solver.txt")
  expected=$(awk -F, -v n="$every" 'NR > 2 && $1 % n == 0 { printf "%d %.6e\n", $1, $2 }' \
    "$solver/residual_history.csv")
  if [ -z "$shown" ] || [ "$shown" != "$expected" ]; then
    printf 'FAIL: %s, monitor = %s: logged\n%s\n  the residual history has\n%s\n' "$solver" \
      "$every" "$shown" "$expected"
    failures=$((failures + 1))
  fi
}
monitored cg 5
monitored bicgstab 4
monitored bicgstab-l 2
monitored tfqmr 4
monitored matm 3
monitored petsc 2 --set linear_solver.petsc.ksp_type='"cg"' --set linear_solver.petsc.pc_type='"jacobi"'

# Off by default, and nothing from a direct solver.
"$solvent" run "$configs/matm-poisson.toml" "${small[@]}" --set linear_solver.type=cg \
  --output off > off.txt 2>&1
"$solvent" run "$configs/angiogenesis-1d-banded.toml" --set integrator.steps=2 --set model.M=20 \
  --set linear_solver.monitor=1 --no-progress --output direct > direct.txt 2>&1
if grep -q "iteration .*: relative residual" off.txt direct.txt; then
  echo "FAIL: monitor lines without monitor, or from a direct solver"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "solver monitor: the residuals the solves record, as they run"
exit $((failures > 0))
