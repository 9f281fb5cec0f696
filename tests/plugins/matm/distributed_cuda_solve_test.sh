#!/usr/bin/env bash
# matm-cuda over MPI ranks, one GPU per rank (ranks share GPU 0 on a host with one): the
# grid-equations-3d poisson and convection-diffusion problems solved on one process and on 2
# ranks, split along axis 3 or axis 2, with the sweeps pipelined in 1, 2 and 3 fragments
# (axis 1 has 70 nodes: at most three fragments of whole warps) and in both sweep layouts.
# Each run over ranks takes the one-process iteration count and its solution pieces
# reassembled equal the one-process solution to 1e-12 (the inner products are each rank's
# device sum, added exactly over the ranks: the same to rounding, not bit for bit). Without a GPU the test reports itself skipped (exit 77).
# usage: distributed_cuda_solve_test.sh SOLVENT MPIEXEC PYTHON READ_PVTI WORK_DIR
set -u
solvent=$1 mpiexec=$2 python=$3 read_pvti=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/grid_runs.sh"

for problem in poisson convection-diffusion; do
  grid_problem "$work/$problem.toml" matm-cuda "$problem" 70 13 12
  one="$work/$problem-n1"
  if ! "$solvent" run "$work/$problem.toml" --output "$one" --no-progress > "$work/out.txt" 2>&1; then
    if grep -q "no CUDA device" "$work/out.txt"; then
      echo "skipped: $(grep -m1 "no CUDA device" "$work/out.txt")"
      exit 77
    fi
    fail "$problem on one process"
  fi
  iterations=$(value "$one" iterations)
  [ "$iterations" -gt 10 ] || fail "$problem: $iterations iterations, too few to compare"
  for run in "auto 0 warp-scan" "1x1x2 1 warp-scan" "1x2x1 2 warp-scan" "1x1x2 3 paper"; do
    set -- $run
    split=$1 fragments=$2 sweep=$3 dir="$work/$problem-n2-$1-f$2-$3"
    what="$problem on 2 ranks (split $split, fragments $fragments, sweep $sweep)"
    "$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/$problem.toml" --output "$dir" \
      --set "model.split=\"$split\"" --set "linear_solver.fragments=$fragments" \
      --set "linear_solver.sweep=\"$sweep\"" --no-progress \
      > "$work/out.txt" 2>&1 || fail "$what: exit $?"
    [ "$(value "$dir" converged)" = true ] || fail "$what did not converge"
    [ "$(value "$dir" iterations)" = "$iterations" ] ||
      fail "$what: $(value "$dir" iterations) iterations, not $iterations"
    "$python" "$read_pvti" compare "$dir/solution.pvti" "$one/solution.vti" --rtol 1e-12 \
      > "$work/out.txt" 2>&1 || fail "$what: the solution differs from one process's"
  done
  # Axis 1 split: only where the sweeps go GPU to GPU (a GPU per rank); on one GPU shared by
  # both ranks it is refused as for the CPU.
  dir="$work/$problem-n2-2x1x1"
  "$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/$problem.toml" --output "$dir" \
    --set 'model.split="2x1x1"' --no-progress > "$work/out.txt" 2>&1
  rc=$?
  if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
    [ $rc -eq 0 ] || fail "$problem, split 2x1x1 on two GPUs: exit $rc"
    [ "$(value "$dir" iterations)" = "$iterations" ] ||
      fail "$problem, split 2x1x1: $(value "$dir" iterations) iterations, not $iterations"
    "$python" "$read_pvti" compare "$dir/solution.pvti" "$one/solution.vti" --rtol 1e-12 \
      > "$work/out.txt" 2>&1 || fail "$problem, split 2x1x1: the solution differs from one process's"
  else
    [ $rc -ne 0 ] && grep -q "which must not be split (the grid is split 2x1x1)" "$work/out.txt" ||
      fail "$problem, split 2x1x1 on one shared GPU: not refused (exit $rc)"
  fi
done
echo "matm-cuda: 2 ranks, 1 to 3 fragments, both sweep layouts, repeat the one-GPU solve to rounding"
