#!/usr/bin/env bash
# matm-cuda with ranks on the CPU (linear_solver.device). Two modes:
#   cpu: no GPU needed (CI). matm-cuda with every rank on the CPU ("cpu,cpu", "cpu", and
#        "cpu,cpu,cpu" with blocks sized by measured speed) must repeat matm bit for bit:
#        the same residual history and the same solution pieces byte for byte, and the record
#        must name the devices; a device list of the wrong length or with an unknown entry
#        is refused with its message.
#   gpu: one GPU and CPU ranks in one run ("cuda,cpu" split along axis 3 and axis 2,
#        "cuda,cpu,cpu", "auto" on 3 ranks, and "cuda,cpu,cpu" balanced by measured speed,
#        where the GPU rank must get the largest block): each takes the one-process (one
#        GPU) iteration count and its solution equals the one-process solution to 1e-12.
#        Without a GPU it reports itself skipped (exit 77).
# usage: device_ranks_test.sh cpu|gpu SOLVENT MPIEXEC PYTHON READ_PVTI WORK_DIR
set -u
mode=$1 solvent=$2 mpiexec=$3 python=$4 read_pvti=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/grid_runs.sh"
# run NAME RANKS SOLVER DEVICE [--set ...]: a solve into $work/NAME, which must converge.
run() {
  local dir="$work/$1" n=$2 solver=$3 device=$4
  shift 4
  local what="$dir ($solver on $n rank(s), device $device)"
  local launch=("$mpiexec" --oversubscribe -n "$n")
  [ "$n" = 1 ] && launch=()
  "${launch[@]}" "$solvent" run "$work/problem.toml" --output "$dir" \
    --set "linear_solver.type=\"$solver\"" ${device:+--set "linear_solver.device=\"$device\""} \
    --no-progress "$@" > "$work/out.txt" 2>&1 || return 1
  [ "$(value "$dir" converged)" = true ] || fail "$what did not converge"
}
# same_bits A B: the residual histories and the solution pieces of two runs, byte for byte.
same_bits() {
  cmp -s "$work/$1/residual_history.csv" "$work/$2/residual_history.csv" ||
    fail "$2: the residual history differs from $1's"
  local pieces=0
  for piece in "$work/$1"/solution_pieces/*; do
    cmp -s "$piece" "$work/$2/solution_pieces/$(basename "$piece")" ||
      fail "$2: solution piece $(basename "$piece") differs from $1's"
    pieces=$((pieces + 1))
  done
  [ "$pieces" -gt 1 ] || fail "$1: $pieces solution pieces, nothing compared"
}
# refused DEVICE RANKS MESSAGE: a device list matm-cuda must refuse with MESSAGE.
refused() {
  "$mpiexec" --oversubscribe -n "$2" "$solvent" run "$work/problem.toml" --output "$work/refused" \
    --set 'linear_solver.type="matm-cuda"' --set "linear_solver.device=\"$1\"" --overwrite \
    --no-progress > "$work/out.txt" 2>&1 && fail "device = \"$1\" on $2 ranks was accepted"
  grep -qF "$3" "$work/out.txt" || fail "device = \"$1\" on $2 ranks: not the expected message"
}

for problem in poisson convection-diffusion; do
  # Axis 1 has 70 nodes: sweeps in up to three fragments of whole warps.
  grid_problem "$work/problem.toml" matm "$problem" 70 13 12
  if [ "$mode" = cpu ]; then
    run "$problem-matm" 2 matm "" || fail "$problem: matm on 2 ranks: exit $?"
    [ "$(value "$work/$problem-matm" iterations)" -gt 10 ] || fail "$problem: too few iterations"
    for case in "cpu,cpu 0" "cpu 2"; do
      set -- $case
      dir="$problem-$1-f$2"
      run "$dir" 2 matm-cuda "$1" --set "linear_solver.fragments=$2" || fail "$dir: exit $?"
      [ "$(value "$work/$dir" device_each_rank)" = "cpu, cpu" ] ||
        fail "$dir: the record's device_each_rank"
      same_bits "$problem-matm" "$dir"
    done
    # Blocks sized by the CPU calibration of matm-cuda: the blocks change, the bits do not.
    run "$problem-matm-3" 3 matm "" || fail "$problem: matm on 3 ranks: exit $?"
    run "$problem-cpu3-measured" 3 matm-cuda "cpu,cpu,cpu" --set 'run.balance="measured"' ||
      fail "$problem: matm-cuda on 3 CPU ranks balanced by speed: exit $?"
    cmp -s "$work/$problem-matm-3/residual_history.csv" \
      "$work/$problem-cpu3-measured/residual_history.csv" ||
      fail "$problem: 3 CPU ranks balanced by speed: the residual history differs from matm's"
  else
    one="$problem-n1"
    if ! run "$one" 1 matm-cuda ""; then
      if grep -q "no CUDA device" "$work/out.txt"; then
        echo "skipped: $(grep -m1 "no CUDA device" "$work/out.txt")"
        exit 77
      fi
      fail "$problem on one process"
    fi
    iterations=$(value "$work/$one" iterations)
    [ "$iterations" -gt 10 ] || fail "$problem: $iterations iterations, too few to compare"
    for case in "2 cuda,cpu 1x1x2 even" "2 cuda,cpu 1x2x1 even" "3 cuda,cpu,cpu auto even" \
                "3 auto auto even" "3 cuda,cpu,cpu auto measured"; do
      set -- $case
      n=$1 device=$2 split=$3 balance=$4 dir="$problem-n$1-$2-$3-$4"
      run "$dir" "$n" matm-cuda "$device" --set "model.split=\"$split\"" \
        --set "run.balance=\"$balance\"" || fail "$dir: exit $?"
      devices=$(value "$work/$dir" device_each_rank)
      # "auto" puts rank 0 on GPU 0 and, on a host of one GPU, the others on the CPU.
      case "$devices" in "cuda, "*) ;; *) fail "$dir: devices '$devices', rank 0 not on a GPU" ;; esac
      [ "$(value "$work/$dir" iterations)" = "$iterations" ] ||
        fail "$dir: $(value "$work/$dir" iterations) iterations, not $iterations"
      "$python" "$read_pvti" compare "$work/$dir/solution.pvti" "$work/$one/solution.vti" \
        --rtol 1e-12 > "$work/out.txt" 2>&1 || fail "$dir: the solution differs from one process's"
      if [ "$balance" = measured ]; then
        "$python" - "$work/$dir/record.toml" <<'PY' || fail "$dir: the GPU rank's block is not the largest"
import sys, tomllib
model = tomllib.load(open(sys.argv[1], "rb"))["facts"]["model"]
key = next(k for k in model if k.startswith("block_sizes_axis"))
sizes = [int(v) for v in model[key].split(" (")[0].split()]
assert sizes[0] == max(sizes) and sizes[0] > min(sizes), sizes
PY
      fi
    done
  fi
done

if [ "$mode" = cpu ]; then
  refused "cpu,cpu,cpu" 2 'matm-cuda: device = "cpu,cpu,cpu": 3 entries for 2 ranks: give one device for every rank, or one for all (cpu, cuda or auto)'
  refused "cpu,gpu" 2 "matm-cuda: device = \"cpu,gpu\": 'gpu' is not a device: each entry is cpu or cuda"
  # A GPU rank whose probe fails beside CPU ranks ends every rank with its message (exit 7),
  # none left waiting in a collective; where a GPU is present the run simply succeeds.
  timeout -s KILL 120 "$mpiexec" --oversubscribe -n 2 "$solvent" run "$work/problem.toml" \
    --output "$work/no-gpu" --set 'linear_solver.type="matm-cuda"' \
    --set 'linear_solver.device="cuda,cpu"' --no-progress > "$work/out.txt" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    [ $rc -eq 7 ] || fail "\"cuda,cpu\" without a GPU: exit $rc, expected 7"
    grep -q "rank 0: matm-cuda: no CUDA device" "$work/out.txt" ||
      fail "\"cuda,cpu\" without a GPU: not the expected message"
  fi
  echo "matm-cuda with every rank on the CPU repeats matm bit for bit; wrong device lists refused"
else
  echo "matm-cuda with one GPU rank and CPU ranks repeats the one-GPU solve to rounding"
fi
