#!/usr/bin/env bash
# A steady solution over MPI ranks is written as one VTK dataset: solution.pvti (rank 0) and
# one piece per rank in solution_pieces/, neighbouring pieces sharing one layer of nodes.
# Reassembled (read_pvti.py: every node covered, overlapping nodes equal), it is the field
# that one rank writes as solution.vti, for -n 2, -n 4 (automatic split and 1x2x2) and -n 8
# (2x2x2: every edge and corner between blocks). No solution.csv is written for a grid;
# --overwrite of a distributed run's folder removes its pieces; an unconverged solve leaves
# unconverged_iterate.pvti; a piece that cannot be written fails the run, reported once.
# usage: distributed_solution_test.sh SOLVENT MPIEXEC CONFIG PYTHON READ_PVTI WORK_DIR
set -uo pipefail
solvent=$1 mpiexec=$2 config=$3 python=$4 read_pvti=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
fail() { echo "FAIL: $*"; cat "$work/out.txt"; exit 1; }
ranks() { local n=$1; shift; SOLVENT_RANK_TIMEOUT=30 timeout -k 5 60 "$mpiexec" -n "$n" --oversubscribe "$solvent" run "$config" "$@" > "$work/out.txt" 2>&1; }
pieces() { find "$1" -name 'piece_*.vti' | wc -l; }

# One rank: solution.vti alone, and nothing of pieces.
ranks 1 --output "$work/n1" || fail "-n 1: exit $?"
[ -f "$work/n1/solution.vti" ] && [ ! -e "$work/n1/solution.csv" ] || fail "-n 1: not solution.vti alone"
[ ! -e "$work/n1/solution.pvti" ] && [ ! -e "$work/n1/solution_pieces" ] || fail "-n 1 wrote pieces"

check() {  # check N DIR: a distributed run's folder
  local n=$1 dir=$2
  [ -f "$dir/solution.pvti" ] || fail "$dir: no solution.pvti"
  [ "$(pieces "$dir/solution_pieces")" -eq "$n" ] || fail "$dir: not $n pieces"
  [ ! -e "$dir/solution.csv" ] && [ ! -e "$dir/solution.vti" ] \
    || fail "$dir: solution.csv or solution.vti written over $n ranks (rank 0's block only)"
  [ -f "$dir/residual_history.csv" ] || fail "$dir: no residual_history.csv"
  [ "$(grep -c 'solution over .* ranks is in .*solution.pvti' "$work/out.txt")" -eq 1 ] \
    || fail "$dir: not said once where the solution is"
  for f in solution.pvti "solution_pieces/piece_0000.vti" "solution_pieces/piece_$(printf %04d $((n - 1))).vti"; do
    grep -q "'$f'" "$dir/record.toml" || fail "$dir: the record does not list $f"
  done
  "$python" "$read_pvti" compare "$dir/solution.pvti" "$work/n1/solution.vti" --rtol 1e-9 \
    >> "$work/out.txt" || fail "$dir: the reassembled solution is not the one-rank solution"
}
ranks 2 --output "$work/n2" || fail "-n 2: exit $?"
check 2 "$work/n2"
# Text and float32 pieces read back the same (float32 to its rounding); format = "none"
# writes no field at all, on any number of ranks.
ranks 2 --output "$work/n2-ascii" --set 'output.format="vtk-ascii"' || fail "-n 2 vtk-ascii: exit $?"
grep -q 'format="ascii"' "$work/n2-ascii/solution_pieces/piece_0001.vti" || fail "vtk-ascii: not text"
"$python" "$read_pvti" compare "$work/n2-ascii/solution.pvti" "$work/n1/solution.vti" --rtol 1e-15 \
  >> "$work/out.txt" || fail "vtk-ascii: not the one-rank solution"
ranks 2 --output "$work/n2-f32" --set 'output.precision="float32"' || fail "-n 2 float32: exit $?"
grep -q '<PDataArray type="Float32"' "$work/n2-f32/solution.pvti" || fail "float32: the .pvti says otherwise"
"$python" "$read_pvti" compare "$work/n2-f32/solution.pvti" "$work/n1/solution.vti" --rtol 1e-7 \
  >> "$work/out.txt" || fail "float32: not the one-rank solution to float's rounding"
for n in 1 2; do
  ranks $n --output "$work/none-$n" --set 'output.format="none"' || fail "-n $n format none: exit $?"
  [ -z "$(find "$work/none-$n" -name '*.vt*')" ] || fail "-n $n format none: field files written"
done
ranks 1 --output "$work/bad-format" --set 'output.format="hdf"'; rc=$?
[ $rc -eq 2 ] || fail "output.format = hdf: exit $rc, expected 2"
grep -q "format" "$work/out.txt" || fail "output.format = hdf: no message"
ranks 4 --output "$work/n4" || fail "-n 4: exit $?"
check 4 "$work/n4"
ranks 4 --set 'model.split="1x2x2"' --output "$work/n4-1x2x2" || fail "-n 4, 1x2x2: exit $?"
check 4 "$work/n4-1x2x2"
ranks 8 --set 'model.split="2x2x2"' --output "$work/n8" || fail "-n 8, 2x2x2: exit $?"
check 8 "$work/n8"

# --overwrite of a distributed run's folder removes its pieces: by fewer ranks, by one.
ranks 2 --overwrite --output "$work/n8" || fail "-n 2 over the -n 8 folder: exit $?"
check 2 "$work/n8"
ranks 1 --overwrite --output "$work/n8" || fail "-n 1 over a distributed folder: exit $?"
[ ! -e "$work/n8/solution.pvti" ] && [ ! -e "$work/n8/solution_pieces" ] \
  || fail "--overwrite left the distributed run's solution.pvti or pieces"
[ -f "$work/n8/solution.vti" ] || fail "-n 1 over a distributed folder: no solution.vti"

# An unconverged solve: its last iterate as unconverged_iterate.pvti, the run failing (6).
ranks 2 --set linear_solver.bicgstab.max_iterations=2 --output "$work/unconverged"; rc=$?
[ $rc -eq 6 ] || fail "an unconverged solve over 2 ranks: exit $rc, expected 6"
[ -f "$work/unconverged/unconverged_iterate.pvti" ] \
  && [ "$(pieces "$work/unconverged/unconverged_iterate_pieces")" -eq 2 ] \
  || fail "an unconverged solve over 2 ranks: no unconverged_iterate.pvti with 2 pieces"
"$python" "$read_pvti" check "$work/unconverged/unconverged_iterate.pvti" >> "$work/out.txt" \
  || fail "unconverged_iterate.pvti does not reassemble"

# A piece that cannot be written (its folder's name taken by a file): the run fails on
# every rank, reported once, and the record says so.
rm -r "$work/n4/solution_pieces" && echo "in the way" > "$work/n4/solution_pieces"
ranks 4 --overwrite --output "$work/n4"; rc=$?
[ $rc -ne 0 ] || fail "a piece that cannot be written: exit 0"
[ "$(grep -c 'error: .*cannot create the folder .*solution_pieces' "$work/out.txt")" -eq 1 ] \
  || fail "a piece that cannot be written: not reported exactly once"
grep -q "^status = 'failed'" "$work/n4/record.toml" || fail "a piece that cannot be written: the record does not say failed"
echo "distributed solution: -n 2, 4 (auto, 1x2x2), 8 (2x2x2) reassemble to the one-rank solution; --overwrite, unconverged and write failures handled"
