#!/usr/bin/env bash
# matm over MPI ranks: grid-equations-3d solved on 1, 2 and 3 ranks (split along axis 3),
# 4 ranks (axes 2 and 3), with several pipeline fragment counts and with two threads: the
# residual history repeats the one-rank run bit for bit (so the iteration count does), the
# maximum error is the same, and the solution pieces reassembled equal the one-rank
# solution to 1e-12 (axis 1 has 70 nodes: fragments are whole warps, so at most three). A
# split of axis 1, along which the sweeps are pipelined, is refused before anything is
# assembled, as a configuration error. The block coupling's iterations on 1, 2 and 4 blocks
# are those the package's README quotes.
# usage: distributed_solve_test.sh SOLVENT MPIEXEC PYTHON READ_PVTI WORK_DIR README
set -u
solvent=$1 mpiexec=$2 python=$3 read_pvti=$4 work=$5 readme=$6
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/grid_runs.sh"
source "$(dirname "$0")/../../support/quoted_text.sh"

for problem in poisson convection-diffusion; do
  grid_problem "$work/$problem.toml" matm "$problem" 70 13 12
  one="$work/$problem-n1"
  "$solvent" run "$work/$problem.toml" --output "$one" --no-progress > "$work/out.txt" 2>&1 ||
    fail "$problem on one process: exit $?"
  iterations=$(value "$one" iterations)
  [ "$iterations" -gt 10 ] || fail "$problem: $iterations iterations, too few to compare"
  for run in "1 auto 0 2" "2 auto 0 1" "3 auto 1 1" "3 auto 7 2" \
             "4 auto 0 1" "4 1x4x1 5 1"; do
    set -- $run
    n=$1 split=$2 fragments=$3 threads=$4 dir="$work/$problem-n$1-$2-f$3-t$4"
    what="$problem on $n ranks (split $split, fragments $fragments, $threads threads)"
    OMP_NUM_THREADS=$threads "$mpiexec" --oversubscribe -n "$n" "$solvent" run \
      "$work/$problem.toml" --output "$dir" --set "model.split=\"$split\"" \
      --set "linear_solver.fragments=$fragments" --no-progress > "$work/out.txt" 2>&1 ||
      fail "$what: exit $?"
    [ "$(value "$dir" converged)" = true ] || fail "$what did not converge"
    [ "$(value "$dir" iterations)" = "$iterations" ] ||
      fail "$what: $(value "$dir" iterations) iterations, not $iterations"
    cmp -s "$one/residual_history.csv" "$dir/residual_history.csv" ||
      fail "$what: the residual history differs from one rank's"
    [ "$(value "$dir" error_max)" = "$(value "$one" error_max)" ] || fail "$what: error_max differs"
    if [ "$n" -gt 1 ]; then
      "$python" "$read_pvti" compare "$dir/solution.pvti" "$one/solution.vti" --rtol 1e-12 \
        > "$work/out.txt" 2>&1 || fail "$what: the solution differs from one rank's"
    fi
  done
  grep -q "decomposition = '1x2x2 blocks over 4 ranks'" "$work/$problem-n4-auto-f0-t1/record.toml" ||
    fail "$problem: the automatic split of 4 ranks is not 1x2x2"
  # fragments = 0: the count chosen after the first iteration from the measured links (the
  # history above is still one rank's); the record states the fit.
  "$python" - "$work/$problem-n4-auto-f0-t1/record.toml" <<'PY' || fail "$problem: the link model's record"
import sys, tomllib
s = tomllib.load(open(sys.argv[1], "rb"))["facts"]["linear_solver"]
assert s["fragments_from"] == "link model", s
assert float(s["link_latency_us"]) > 0 and float(s["link_gb_per_s"]) > 0, s
assert 1 <= int(float(s["fragments"])) <= 3, s  # 70 nodes of axis 1: at most three warps
PY
done

"$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/poisson.toml" --output "$work/axis1" \
  --set 'model.split="2x1x1"' --no-progress > "$work/out.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a split of axis 1: exit $rc, expected 2 (refused with the configuration)"
grep -q "linear solver 'matm' cannot solve model 'grid-equations-3d' in its blocks: over ranks the triangular sweeps are pipelined along axis 1, which must not be split (the grid is split 2x1x1); split axes 2 and 3 (model.split = \"auto\" does), or run matm-cuda with a GPU per rank on one host, whose sweeps go from GPU to GPU" \
  "$work/out.txt" || fail "a split of axis 1: not the expected message"
# Blocks sized by each rank's measured speed ([run] balance = "measured"): the record holds
# every rank's speed and the sizes; the solve is the one-rank solve, bit for bit.
dir="$work/balanced"
"$mpiexec" --oversubscribe -n 3 "$solvent" run "$work/convection-diffusion.toml" --output "$dir" \
  --set 'run.balance="measured"' --no-progress > "$work/out.txt" 2>&1 || fail "balanced by speed: exit $?"
cmp -s "$work/convection-diffusion-n1/residual_history.csv" "$dir/residual_history.csv" ||
  fail "balanced by speed: the residual history differs from one rank's"
"$python" - "$dir/record.toml" <<'PY' || fail "balanced by speed: the record"
import sys, tomllib
r = tomllib.load(open(sys.argv[1], "rb"))
speeds = r["host"]["measured_speed_each_rank"]
model = r["facts"]["model"]
# The auto split of 3 ranks cuts axis 2 (13 nodes): the blocks along it are sized.
assert model["decomposition"] == "1x3x1 blocks over 3 ranks", model
sizes = [int(v) for v in model["block_sizes_axis2"].split(" (")[0].split()]
assert len(speeds) == 3 and all(s > 0 for s in speeds), speeds
# A rank whose share is not worth its exchanges on this (oversubscribed) machine may be
# given no block; the record names it, and the others hold every plane.
none = model["ranks_without_block"]
emptied = [] if none == "none" else [int(r) for r in none.split()]
assert len(sizes) == 3 and sum(sizes) == 13, sizes
assert all((sizes[r] == 0) == (r in emptied) for r in range(3)), (sizes, emptied)
PY
# A solver without a calibration cannot balance a run.
"$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/poisson.toml" --output "$work/no-speed" \
  --set 'run.balance="measured"' --set linear_solver.type=cg --no-progress > "$work/out.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "balance by speed with cg: exit $rc, expected 2"
grep -q "\[run\] balance = \"measured\", but linear solver 'cg' measured no speed on rank 0; it has no calibration (use balance = \"even\")" \
  "$work/out.txt" || fail "balance by speed with cg: not the expected message"
# coupling = "block": each rank's preconditioner is its block's alone. On one rank that is
# the whole grid's (the one-rank run, bit for bit); over ranks it still converges to the
# tolerance, with more iterations the more blocks, the same for any thread count.
dir="$work/block-n1"
"$solvent" run "$work/poisson.toml" --output "$dir" --set 'linear_solver.coupling="block"' \
  --no-progress > "$work/out.txt" 2>&1 || fail "block coupling on one process: exit $?"
cmp -s "$work/poisson-n1/residual_history.csv" "$dir/residual_history.csv" ||
  fail "block coupling on one process: not the one-rank solve"
previous=$(value "$work/poisson-n1" iterations)
blocks=$previous
for split in 1x1x2 1x2x2; do
  n=$(( $(echo $split | tr x '*') ))
  for threads in 1 2; do
    dir="$work/block-$split-t$threads"
    OMP_NUM_THREADS=$threads "$mpiexec" --oversubscribe -n "$n" "$solvent" run "$work/poisson.toml" \
      --output "$dir" --set 'linear_solver.coupling="block"' --set "model.split=\"$split\"" \
      --no-progress > "$work/out.txt" 2>&1 || fail "block coupling, $split: exit $?"
    [ "$(value "$dir" converged)" = true ] || fail "block coupling, $split did not converge"
    [ "$(value "$dir" coupling)" = block ] || fail "block coupling, $split: the record does not say so"
  done
  cmp -s "$work/block-$split-t1/residual_history.csv" "$work/block-$split-t2/residual_history.csv" ||
    fail "block coupling, $split: 1 and 2 threads differ"
  iterations=$(value "$dir" iterations)
  [ "$iterations" -gt "$previous" ] ||
    fail "block coupling, $split: $iterations iterations, not more than the $previous of fewer blocks"
  "$python" "$read_pvti" compare "$dir/solution.pvti" "$work/poisson-n1/solution.vti" --rtol 1e-5 \
    > "$work/out.txt" 2>&1 || fail "block coupling, $split: the solution is not one rank's to the tolerance"
  echo "block coupling, $split: $iterations iterations (one block: $(value "$work/poisson-n1" iterations))"
  previous=$iterations
  blocks+=", $iterations"
done
quoted "$readme" "(Poisson on 70 x 13 x 12 nodes to 1e-10: $blocks on 1, 2, 4 blocks, split along axis 3, then axes 2 and 3;"
echo "matm: 2, 3 and 4 ranks, any fragments and threads, blocks by measured speed, repeat the one-rank solve bit for bit; the block coupling converges on 2 and 4 ranks"
