#!/usr/bin/env bash
# solvent verify DIR: a rerun of what DIR records, compared byte for byte (timings and logs
# aside). An untouched run folder is verified (exit 0), also with a file added after the run
# (a plot), which is left aside and said; one observable value edited is exit 9
# naming the file and the first differing value; a plugin's recorded SHA-256 changed is
# named; a sweep verifies whole and member by member; the record's thread count is used; a
# run over 2 ranks names the mpirun command when verified without it (exit 2), verifies
# under it, and a value edited in a binary VTK piece is named by array and index.
# usage: verify_test.sh SOLVENT CONFIG_DIR WORK_DIR [MPIEXEC GRID_CONFIG]
set -uo pipefail
solvent=$1 configs=$2 work=$3 mpiexec=${4:-} grid=${5:-}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; cat out.txt; exit 1; }
# expect CODE TEXT ARGS...: `solvent verify ARGS...` exits CODE and prints TEXT.
expect() {
  local code=$1 text=$2
  shift 2
  "$solvent" verify "$@" > out.txt 2>&1
  local got=$?
  [ "$got" -eq "$code" ] || fail "verify $*: exit $got, expected $code"
  grep -qF -- "$text" out.txt || fail "verify $*: expected '$text'"
}
small=(--set model.M=50 --set integrator.steps=10 --set integrator.dt=0.01
       --set linear_solver.type=banded --no-progress)

OMP_NUM_THREADS=3 "$solvent" run "$configs/angiogenesis-1d.toml" --output one "${small[@]}" \
  > out.txt 2>&1 || fail "the run: exit $?"
expect 0 "verified: one is repeated byte for byte (timings and logs aside)" one --keep
# The recorded thread count, not this process's default, ran the rerun.
grep -q "running with 3 threads, as the record says" out.txt || fail "the thread count not taken"
kept=(.one.verify-*)
grep -q "^threads = 3$" "${kept[0]}/record.toml" || fail "the rerun did not record 3 threads"
rm -rf "${kept[@]}"
expect 0 "verified:" one  # without --keep nothing is left beside it
ls -d .one.verify-* > /dev/null 2>&1 && fail "the rerun's folder was left behind"

# A file put in the folder after the run (scripts/plot-profiles draws profiles.png there):
# no record lists it, so it is left aside and said; a file the record lists that is gone is
# still a difference.
cp -r one plotted
echo "a picture" > plotted/profiles.png
expect 0 "verified: plotted is repeated byte for byte" plotted
grep -qF "left aside: profiles.png (no record in plotted lists it: added after the run)" out.txt \
  || fail "the added file is not said to be left aside"
rm plotted/observables.csv && echo "added" > plotted/observables.txt
expect 9 "observables.csv: written by the rerun only" plotted
grep -qF "left aside: observables.txt" out.txt || fail "the added file, beside a difference"

# One observable edited: row 4 (step 2), column mass_C.
cp -r one edited
recorded=$(sed -n 4p edited/observables.csv | cut -d, -f3)
sed -i '4s/^\([^,]*,[^,]*,\)[^,]*/\10.5/' edited/observables.csv
expect 9 "observables.csv: line 4, column mass_C: recorded 0.5, rerun $recorded" edited
[ "$(grep -c '^  ' out.txt)" -eq 1 ] || fail "more than the edited file named"

# A plugin whose file changed since the run: its recorded hash no longer matches.
cp -r one plugin
sed -i "/\[plugins.linear_solver\]/,/^$/s/^\(    sha256 = '\)[0-9a-f]*'/\1$(printf '0%.0s' {1..64})'/" \
  plugin/record.toml
expect 9 "record.toml: plugin 'banded' (linear_solver) changed: SHA-256 recorded '0000" plugin

# Refusals: not a run, a run not completed, --member of a single run.
mkdir empty
expect 2 "empty holds no Solvent run (no readable record.toml)" empty
expect 2 "--member 0: one holds a single run, not a sweep" one --member 0

# A sweep of 2 members: whole, one member, a member that does not exist.
cat > sweep.toml <<EOF
[run]
name = "verify-sweep"
[model]
type = "angiogenesis-1d"
M = 40
[integrator]
type = "imex-trapezoid"
dt = 0.01
steps = 5
[linear_solver]
type = "banded"
[sweep]
mode = "grid"
[sweep.model.parameters]
k1 = [0.5, 2.0]
EOF
"$solvent" run sweep.toml --output sweep --jobs 2 > out.txt 2>&1 || fail "the sweep: exit $?"
expect 0 "verified: sweep is repeated byte for byte" sweep
expect 0 "verified: sweep/members/0001 is repeated byte for byte" sweep --member 1
expect 2 "--member 2: the sweep in sweep has 2 members (0 to 1)" sweep --member 2
sed -i '2s/^\(0,[^,]*,\)[^,]*/\1x/' sweep/sweep.csv
expect 9 "sweep.csv: line 2, column status: recorded x, rerun ok" sweep

if [ -n "$mpiexec" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  mpi=("$mpiexec" -n 2 --oversubscribe)
  "${mpi[@]}" "$solvent" run "$grid" --output ranks > out.txt 2>&1 || fail "2 ranks: exit $?"
  expect 2 "ranks ran on 2 ranks and this verify has 1: run mpirun -n 2 $solvent verify ranks" ranks
  "${mpi[@]}" "$solvent" verify ranks > out.txt 2>&1 || fail "verify under mpirun -n 2: exit $?"
  grep -q "verified: ranks is repeated byte for byte" out.txt || fail "2 ranks not verified"
  # The raw appended values of a piece: the high byte of value 3 of array u.
  piece=ranks/solution_pieces/piece_0001.vti
  start=$(grep -abo '<AppendedData encoding="raw">' "$piece" | cut -d: -f1)
  printf '\x41' | dd of="$piece" bs=1 seek=$((start + 34 + 8 + 3 * 8 + 7)) conv=notrunc 2> /dev/null
  "${mpi[@]}" "$solvent" verify ranks > out.txt 2>&1
  [ $? -eq 9 ] || fail "an edited piece under mpirun -n 2: not exit 9"
  grep -q "solution_pieces/piece_0001.vti: array u, value 3 (tuple 3, component 0): recorded " \
    out.txt || fail "the edited piece's value not named"
fi
echo "verify: all checks passed"
