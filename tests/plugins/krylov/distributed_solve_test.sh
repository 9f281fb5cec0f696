#!/usr/bin/env bash
# grid-equations-3d solved by each Krylov solver (Jacobi-preconditioned) on 1, 2 and 4 MPI
# ranks, automatic and given splits: the residual history (every iterate's residual) and the
# maximum error repeat the one-rank run bit for bit, the iteration count is the same, and the
# l2 error (a plain sum over ranks) agrees to 1e-12; the record names the split and each rank.
# usage: distributed_solve_test.sh SOLVENT MPIEXEC WORK_DIR
set -u
solvent=$1 mpiexec=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/grid_runs.sh"

for case in "cg poisson" "bicgstab convection-diffusion" "bicgstab-l convection-diffusion" \
            "tfqmr convection-diffusion"; do
  set -- $case
  solver=$1 problem=$2
  grid_problem "$work/$solver.toml" "$solver" "$problem" 13 11 9 $'[preconditioner]\ntype = "jacobi"'
  for run in "1 auto" "2 auto" "4 auto" "4 1x4x1" "2 1x1x2"; do
    set -- $run
    n=$1 split=$2 dir="$work/$solver-n$1-$2"
    "$mpiexec" --oversubscribe -n "$n" "$solvent" run "$work/$solver.toml" --output "$dir" \
      --set "model.split=\"$split\"" --no-progress > "$work/out.txt" 2>&1 ||
      fail "$solver on $n ranks ($split): exit $?"
    [ "$(value "$dir" converged)" = true ] || fail "$solver on $n ranks ($split) did not converge"
  done
  one="$work/$solver-n1-auto"
  iterations=$(value "$one" iterations)
  [ "$iterations" -gt 3 ] || fail "$solver: $iterations iterations, too few to compare"
  for dir in "$work/$solver"-n[24]-*; do
    what="$solver, $(basename "$dir") against one rank"
    [ "$(value "$dir" iterations)" = "$iterations" ] ||
      fail "$what: $(value "$dir" iterations) iterations, not $iterations"
    cmp -s "$one/residual_history.csv" "$dir/residual_history.csv" ||
      fail "$what: the residual history differs"
    [ "$(value "$dir" error_max)" = "$(value "$one" error_max)" ] || fail "$what: error_max differs"
    python3 - "$(value "$one" error_l2)" "$(value "$dir" error_l2)" <<'PY' || fail "$what: error_l2"
import sys
a, b = map(float, sys.argv[1:])
sys.exit(0 if abs(a - b) <= 1e-12 * abs(a) else 1)
PY
  done
  grep -q "decomposition = '1x2x2 blocks over 4 ranks'" "$work/$solver-n4-auto/record.toml" ||
    fail "$solver: the automatic split of 4 ranks is not 1x2x2"
  python3 - "$work/$solver-n2-auto/record.toml" <<'PY' || fail "$solver: the record does not list both ranks"
import sys, tomllib
ranks = tomllib.load(open(sys.argv[1], "rb"))["host"]["each_rank"]
sys.exit(0 if len(ranks) == 2 and all(f"cores, local rank {r}" in ranks[r] for r in (0, 1)) else 1)
PY
done
# A solve that does not converge fails on every rank at once: exit 6, said once.
"$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/cg.toml" --output "$work/unconverged" \
  --set linear_solver.max_iterations=2 --no-progress > "$work/out.txt" 2>&1
rc=$?
[ $rc -eq 6 ] || fail "an unconverged solve on 2 ranks: exit $rc, expected 6"
[ "$(grep -c "^error: rank .*the linear solve did not converge" "$work/out.txt")" -eq 1 ] ||
  fail "an unconverged solve on 2 ranks: not reported exactly once"
echo "cg, bicgstab, bicgstab-l, tfqmr: 2 and 4 ranks repeat the one-rank solve bit for bit"
