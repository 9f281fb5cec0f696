#!/usr/bin/env bash
# Where a model knows its exact solution, the core records the error of every reported state
# (exact_error_max, exact_error_rel_l2 in observables.csv) without the model computing it;
# halving dt and h together lowers it; a model without one gets no such columns.
# usage: exact_error_test.sh SOLVENT CONFIG WORK_DIR
set -euo pipefail
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
run() {  # run OUT M STEPS DT [more --set]
  local out=$1 m=$2 steps=$3 dt=$4; shift 4
  "$solvent" run "$config" --no-progress --output "$work/$out" --set model.M=$m \
    --set integrator.steps=$steps --set integrator.dt=$dt --set linear_solver.type=banded \
    --set linear_solver.reuse_factorization=true "$@" > /dev/null
}
# The last row's value of one column of observables.csv.
last() {
  awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
                       { v = $c } END { if (!c) exit 1; print v }' "$work/$1/observables.csv"
}
run coarse 50 10 0.02 --set model.mode=manufactured
run fine 100 20 0.01 --set model.mode=manufactured
coarse=$(last coarse exact_error_max) fine=$(last fine exact_error_max)
awk -v c="$coarse" -v f="$fine" 'BEGIN {
  if (!(c > 0 && f > 0 && f < c / 1.8)) { printf "error did not fall: %g -> %g\n", c, f; exit 1 }
  printf "exact_error_max at t = 0.2: %g (M = 50, dt = 0.02) -> %g (M = 100, dt = 0.01)\n", c, f }'
last fine exact_error_rel_l2 > /dev/null
run model 50 2 0.01
if last model exact_error_max > /dev/null 2>&1; then
  echo "a model without an exact solution got an exact_error_max column"; exit 1
fi
echo "3 passed, 0 failed"
