#!/usr/bin/env bash
# Blocks by measured speed ([run] balance = "measured") with a rank too slow to pay for its
# exchanges: its speed faked through SOLVENT_TEST_RANK_SPEED (for tests only), it is given
# no block with one warning naming it, and the other ranks solve the grid: with CG and
# Jacobi, BiCGSTAB and matm (its sweeps pipelined past the empty block) the residual
# history is one rank's bit for bit (whole lines of axis 1 on every rank) and the solution
# pieces reassemble to one rank's solution exactly. Where every share is worth its
# exchanges no rank is emptied and the record says so. Where every rank but one is emptied,
# matm's sweeps have no pipeline left and go over whole lines (one fragment), on a view with
# no ghost layer, as on one rank. On 4 ranks split 1x2x2 the slow
# rank's slab goes empty, its partner with it, named as such, and the solution written as
# one VTKHDF file by every rank (where HDF5 and the field readers are found) is one rank's.
# A malformed speed list is a configuration error.
# usage: slow_rank_test.sh SOLVENT MPIEXEC PYTHON READ_PVTI WORK_DIR [DEBIAN_PYTHON READ_FIELDS]
set -u
solvent=$1 mpiexec=$2 python=$3 read_pvti=$4 work=$5 readers=("${@:6}")
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/grid_runs.sh"
grid_problem "$work/cg.toml" cg poisson 17 17 17 '[preconditioner]
type = "jacobi"'
number='[0-9.e+-]+'
balanced=(--set 'run.balance="measured"' --no-progress)

for solver in cg bicgstab matm; do
  one="$work/$solver-n1"
  "$solvent" run "$work/cg.toml" --output "$one" --set "linear_solver.type=\"$solver\"" \
    --no-progress > "$work/out.txt" 2>&1 || fail "$solver on one process: exit $?"
  dir="$work/$solver-slow"
  SOLVENT_TEST_RANK_SPEED="0:1000,1:1e-6,2:1000" "$mpiexec" --oversubscribe -n 3 "$solvent" run \
    "$work/cg.toml" --output "$dir" --set "linear_solver.type=\"$solver\"" "${balanced[@]}" \
    > "$work/out.txt" 2>&1 || fail "$solver, rank 1 slow: exit $?"
  [ "$(grep -c "is given no block" "$work/out.txt")" = 1 ] || fail "$solver: not one warning"
  grep -Eq "^\[warning\] grid-equations-3d: rank 1 is given no block: at its measured speed of 1e-06 nodes/s its share would be 5e-10 of the grid, which the other ranks do in 1.23e-09 s an iteration, less than the $number s its exchanges cost an iteration$" \
    "$work/out.txt" || fail "$solver: not the expected warning"
  [ "$(value "$dir" ranks_without_block)" = 1 ] || fail "$solver: the record does not name rank 1"
  [ "$(value "$dir" share_each_rank)" = "0.5294 0 0.4706" ] ||
    fail "$solver: shares $(value "$dir" share_each_rank)"
  [ "$(value "$dir" block_sizes_axis3)" = "9 0 8 (by measured speed)" ] ||
    fail "$solver: blocks $(value "$dir" block_sizes_axis3)"
  [ "$(value "$dir" iterations)" = "$(value "$one" iterations)" ] ||
    fail "$solver: $(value "$dir" iterations) iterations, not $(value "$one" iterations)"
  cmp -s "$one/residual_history.csv" "$dir/residual_history.csv" ||
    fail "$solver, rank 1 emptied: the residual history differs from one rank's"
  "$python" "$read_pvti" compare "$dir/solution.pvti" "$one/solution.vti" --rtol 0 \
    > "$work/out.txt" 2>&1 || fail "$solver, rank 1 emptied: the solution differs from one rank's"
done

# Ranks 1 and 2 slow: rank 0 holds the grid, and its lines (three warps long, so cuttable
# in three) are swept whole, not in fragments that wait on empty neighbours.
grid_problem "$work/long.toml" matm poisson 96 6 6
"$solvent" run "$work/long.toml" --output "$work/long-n1" --no-progress > "$work/out.txt" 2>&1 ||
  fail "matm 96x6x6 on one process: exit $?"
dir="$work/long-alone"
SOLVENT_TEST_RANK_SPEED="0:1000,1:1e-6,2:1e-6" "$mpiexec" --oversubscribe -n 3 "$solvent" run \
  "$work/long.toml" --output "$dir" "${balanced[@]}" > "$work/out.txt" 2>&1 ||
  fail "matm, ranks 1 and 2 slow: exit $?"
[ "$(value "$dir" ranks_without_block)" = "1 2" ] || fail "matm alone: the record does not name ranks 1 and 2"
[ "$(value "$dir" fragments)" = 1 ] || fail "matm alone: $(value "$dir" fragments) fragments a sweep, not 1"
# Its view is the block alone, laid out as one rank's grid; where two ranks hold nodes it
# keeps the ghost layer their exchanges fill.
[ "$(value "$dir" ghost_layer)" = false ] || fail "matm alone: ghost_layer $(value "$dir" ghost_layer)"
[ "$(value "$work/matm-slow" ghost_layer)" = true ] ||
  fail "matm, rank 1 emptied: ghost_layer $(value "$work/matm-slow" ghost_layer)"
cmp -s "$work/long-n1/residual_history.csv" "$dir/residual_history.csv" ||
  fail "matm with ranks 1 and 2 emptied: the residual history differs from one rank's"
# The same with convection (A1 != 0): the emptied ranks, which hold no node to tell by, must
# take the non-self-adjoint iteration and make its sums with the rank that holds the grid (a
# rank that took the self-adjoint one made five sums against six: MPI aborted the run).
grid_problem "$work/long-cd.toml" matm convection-diffusion 96 6 6
"$solvent" run "$work/long-cd.toml" --output "$work/long-cd-n1" --no-progress > "$work/out.txt" 2>&1 ||
  fail "matm 96x6x6 convection-diffusion on one process: exit $?"
[ "$(value "$work/long-cd-n1" self_adjoint)" = false ] ||
  fail "matm 96x6x6 convection-diffusion: self_adjoint $(value "$work/long-cd-n1" self_adjoint)"
dir="$work/long-cd-alone"
SOLVENT_TEST_RANK_SPEED="0:1000,1:1e-6,2:1e-6" timeout 60 "$mpiexec" --oversubscribe -n 3 "$solvent" run \
  "$work/long-cd.toml" --output "$dir" "${balanced[@]}" > "$work/out.txt" 2>&1 ||
  fail "matm convection-diffusion, ranks 1 and 2 slow: exit $?"
[ "$(value "$dir" ranks_without_block)" = "1 2" ] ||
  fail "matm convection-diffusion alone: ranks without block $(value "$dir" ranks_without_block)"
[ "$(value "$dir" ghost_layer)" = false ] ||
  fail "matm convection-diffusion alone: ghost_layer $(value "$dir" ghost_layer)"
cmp -s "$work/long-cd-n1/residual_history.csv" "$dir/residual_history.csv" ||
  fail "matm convection-diffusion with ranks 1 and 2 emptied: the residual history differs from one rank's"

# CG on 2 ranks, split evenly: the same solve again.
"$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/cg.toml" --output "$work/cg-n2" \
  --no-progress > "$work/out.txt" 2>&1 || fail "cg on 2 ranks: exit $?"
cmp -s "$work/cg-n2/residual_history.csv" "$work/cg-slow/residual_history.csv" ||
  fail "cg: 2 ranks and 3 with one emptied differ"

# Equal speeds: every share is worth its exchanges, no rank is emptied.
dir="$work/cg-even"
SOLVENT_TEST_RANK_SPEED="0:1000,1:1000,2:1000" "$mpiexec" --oversubscribe -n 3 "$solvent" run \
  "$work/cg.toml" --output "$dir" "${balanced[@]}" > "$work/out.txt" 2>&1 ||
  fail "equal speeds: exit $?"
grep -q "given no block" "$work/out.txt" && fail "equal speeds: a rank was emptied"
[ "$(value "$dir" ranks_without_block)" = none ] || fail "equal speeds: the record names a rank"
[ "$(value "$dir" block_sizes_axis3)" = "6 6 5 (by measured speed)" ] ||
  fail "equal speeds: blocks $(value "$dir" block_sizes_axis3)"
cmp -s "$work/cg-n1/residual_history.csv" "$dir/residual_history.csv" ||
  fail "equal speeds: the residual history differs from one rank's"

# 4 ranks split 1x2x2: rank 2 slow empties its slab across axis 3, rank 3 with it.
dir="$work/matm-slab"
format=vtk
[ ${#readers[@]} -eq 2 ] && format=vtkhdf
SOLVENT_TEST_RANK_SPEED="0:1000,1:1000,2:1e-6,3:1000" "$mpiexec" --oversubscribe -n 4 \
  "$solvent" run "$work/cg.toml" --output "$dir" --set 'linear_solver.type="matm"' \
  --set "output.format=\"$format\"" "${balanced[@]}" > "$work/out.txt" 2>&1 ||
  fail "1x2x2, rank 2 slow: exit $?"
grep -Eq "^\[warning\] grid-equations-3d: rank 3 is given no block: its slab of blocks across axis 3 goes at the pace of rank 2 \(1e-06 nodes/s measured\), and at it its share would be 5e-10 of the grid, which the other ranks do in 2.46e-09 s an iteration, less than the $number s its exchanges cost an iteration$" \
  "$work/out.txt" || fail "1x2x2: not the expected warning for rank 3"
[ "$(value "$dir" ranks_without_block)" = "2 3" ] || fail "1x2x2: the record does not name ranks 2 and 3"
cmp -s "$work/matm-n1/residual_history.csv" "$dir/residual_history.csv" ||
  fail "1x2x2 with a slab emptied: the residual history differs from one rank's"
if [ $format = vtkhdf ]; then
  "${readers[@]}" compare "$dir/solution.vtkhdf" "$work/matm-n1/solution.vti" > "$work/out.txt" 2>&1 ||
    fail "1x2x2 with a slab emptied: the VTKHDF solution is not one rank's"
else
  "$python" "$read_pvti" compare "$dir/solution.pvti" "$work/matm-n1/solution.vti" --rtol 0 \
    > "$work/out.txt" 2>&1 || fail "1x2x2 with a slab emptied: the solution is not one rank's"
fi

# A speed list that does not parse.
SOLVENT_TEST_RANK_SPEED="1:fast" "$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/cg.toml" \
  --output "$work/bad" "${balanced[@]}" > "$work/out.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a malformed speed list: exit $rc, expected 2"
grep -q 'SOLVENT_TEST_RANK_SPEED="1:fast": "1:fast" is not RANK:SPEED with a rank below 2 and a positive speed' \
  "$work/out.txt" || fail "a malformed speed list: not the expected message"
echo "a rank too slow for its exchanges gets no block; cg, bicgstab and matm repeat the one-rank solve bit for bit"
