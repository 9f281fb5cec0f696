#!/usr/bin/env bash
# Sweeps of the 1D model (M = 20, 10 steps: a member takes about a second, mostly starting
# the process). One case per call, so that CTest runs them side by side:
#   grid     a 3 x 2 grid: sweep.csv's rows and columns, the member folders, and every
#            member's files equal to a single run with the member's values given by --set
#   random   5 random members: two sweeps give the same sweep.csv (wall times aside), every
#            value inside its range
#   jobs     --jobs 2 gives the sweep.csv of --jobs 1 (wall times aside)
#   failure  members that fail (an unstable dt) or crash (killed) are recorded with their
#            reason, the others run, and the exit code counts the failures
#   narrow   a --set of a swept key fixes it (the sweep runs over the rest), and --member N
#            runs member N alone, equal to the single run with its values given by --set
#   errors   bad [sweep] tables: every problem at its line, exit 2, nothing written
#   resume   a sweep killed (SIGKILL, SIGTERM) after some members, resumed: only the rest
#            run again, and sweep.csv equals an uninterrupted sweep's (wall times aside); a
#            member whose sweep died before it started ends without writing
#   mpi      under mpirun -n 3, the sweep.csv of one process (wall times aside)
#   mpi-resume  a sweep over 2 ranks stopped by SIGTERM while members run, resumed on 2
#            ranks: the members continue from their checkpoints to one process's files
#   member-resume  a sweep stopped (SIGTERM, SIGKILL) while a member runs: the resume
#            continues that member from its checkpoint, to the files of the uninterrupted sweep
#   example  config/sweep-angiogenesis-1d.toml validates and runs, and scripts/plot-sweep
#            draws it (where gnuplot is)
# usage: sweep_test.sh CASE SOLVENT WORK_DIR [MPIEXEC (mpi) | SOURCE_DIR (example)]
set -uo pipefail
case=$1 solvent=$2 work=$3 extra=${4:-}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL ($case): $*"; [ -f out.txt ] && cat out.txt; exit 1; }

cat > base.toml <<'TOML'
[run]
name = "sweep-test"
seed = 7
[model]
type = "angiogenesis-1d"
M = 20
[integrator]
type = "imex-trapezoid"
dt = 0.01
steps = 10
[linear_solver]
type = "banded"
[output]
every = 5
TOML
# sweep FILE TABLE: base.toml with TABLE appended as its [sweep].
sweep() { { cat base.toml; printf '%s\n' "$2"; } > "$1"; }
grid_table='[sweep]
mode = "grid"
[sweep.model.parameters]
k1 = [0.5, 1.0, 2.0]
[sweep.linear_solver]
type = ["banded", "lapack"]'
source "$(dirname "$0")/../../support/sweep_csv.sh"  # without_wall, same_csv
value() { sed -n "s/^ *$2 = //p" "$1" | head -1 | tr -d "'"; }

case $case in
grid)
  sweep grid.toml "$grid_table"
  "$solvent" validate grid.toml > out.txt 2>&1 || fail "validate: exit $?"
  grep -qx "grid.toml: valid sweep of 6 members (grid over model.parameters.k1, linear_solver.type); every member checked" out.txt \
    || fail "validate does not name the members"
  "$solvent" run grid.toml --output out > out.txt 2>&1 || fail "the sweep: exit $?"
  grep -q "sweep completed: 6 members (grid), 6 ran now, 0 failed" out.txt || fail "no summary"
  head -1 out/sweep.csv | grep -q "^member,model.parameters.k1,linear_solver.type,status,exit_reason,wall_s,steps,t,mass_C," \
    || fail "sweep.csv columns: $(head -1 out/sweep.csv)"
  [ "$(wc -l < out/sweep.csv)" -eq 7 ] || fail "sweep.csv has $(wc -l < out/sweep.csv) lines, expected 7"
  want="0,0.5,banded 1,0.5,lapack 2,1.0,banded 3,1.0,lapack 4,2.0,banded 5,2.0,lapack"
  got=$(tail -n +2 out/sweep.csv | cut -d, -f1-3 | tr '\n' ' ')
  [ "$got" = "$want " ] || fail "members in grid order: $got"
  [ "$(tail -n +2 out/sweep.csv | cut -d, -f4-5 | sort -u)" = "ok,completed" ] || fail "not all ok"
  [ "$(value out/record.toml mode)" = grid ] && [ "$(value out/record.toml members)" = 6 ] &&
    [ "$(value out/record.toml ok)" = 6 ] && [ "$(value out/record.toml failed)" = 0 ] \
    || fail "the sweep's record"
  i=0
  for k1 in 0.5 1.0 2.0; do
    for type in banded lapack; do
      dir=out/members/$(printf %04d $i)
      [ "$(value $dir/record.toml status)" = completed ] || fail "member $i: not completed"
      "$solvent" run base.toml --set model.parameters.k1=$k1 --set linear_solver.type=$type \
        --output single$i > out.txt 2>&1 || fail "single run $i: exit $?"
      diff -r -x record.toml -x log.txt single$i $dir > diff.txt \
        || { cat diff.txt; fail "member $i differs from the single run k1=$k1 type=$type"; }
      i=$((i + 1))
    done
  done
  echo "grid: 6 members in order, each equal to its single run" ;;

narrow)
  sweep grid.toml "$grid_table"
  "$solvent" run base.toml --set model.parameters.k1=1.0 --set linear_solver.type=lapack \
    --output single > out.txt 2>&1 || fail "the single run: exit $?"
  # A --set of a swept key fixes it: the sweep runs over the other keys.
  "$solvent" validate grid.toml --set model.parameters.k1=1.0 > out.txt 2>&1 || fail "validate: exit $?"
  grep -qx "grid.toml: valid sweep of 2 members (grid over linear_solver.type; fixed by --set: model.parameters.k1); every member checked" out.txt \
    || fail "validate does not say what --set fixed"
  "$solvent" run grid.toml --set model.parameters.k1=1.0 --output out > out.txt 2>&1 || fail "the sweep: exit $?"
  grep -qx "sweep completed: 2 members (grid), 2 ran now, 0 failed" out.txt &&
    grep -qx "  fixed by --set, so not swept: model.parameters.k1" out.txt || fail "the summary"
  grep -qx "  results in out; the table: out/sweep.csv" out.txt || fail "the summary's table"
  head -1 out/sweep.csv | grep -q "^member,linear_solver.type,status," || fail "sweep.csv columns"
  diff -r -x record.toml -x log.txt single out/members/0001 > diff.txt \
    || { cat diff.txt; fail "the narrowed sweep's member 1 differs from the single run"; }
  "$solvent" validate grid.toml --set model.parameters.k1=1.0 --set linear_solver.type=lapack > out.txt 2>&1 \
    && grep -qx "grid.toml: valid sweep of 1 member (no key swept; fixed by --set: model.parameters.k1, linear_solver.type); every member checked" out.txt \
    || fail "every swept key fixed: not one member"
  # --member N: the single run of member N, as the sweep runs it.
  "$solvent" run grid.toml --member 3 --output m3 > out.txt 2>&1 || fail "--member 3: exit $?"
  diff -r -x record.toml -x log.txt single m3 > diff.txt || { cat diff.txt; fail "--member 3 differs from the single run"; }
  "$solvent" run grid.toml --member 6 --output m6 > out.txt 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -qx "error: grid.toml: the sweep has 6 members; there is no member 6" out.txt \
    && [ ! -e m6 ] || fail "--member past the members: exit $rc"
  "$solvent" run base.toml --member 0 --output m0 > out.txt 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -qx "error: base.toml: no \[sweep\] table, so no sweep members" out.txt \
    || fail "--member of a file without [sweep]: exit $rc"
  echo "narrow: --set fixes a swept key, --member runs one member as the sweep does" ;;

random)
  sweep random.toml '[sweep]
mode = "random"
samples = 5
[sweep.model.parameters]
k1 = { uniform = [0.5, 2.0] }
a3 = { logspace = [0.1, 1.0, 4] }
[sweep.linear_solver]
type = ["banded", "lapack"]'
  for n in 1 2; do
    "$solvent" run random.toml --output out$n > out.txt 2>&1 || fail "sweep $n: exit $?"
  done
  same_csv out1 out2 "two sweeps of one seed"
  [ "$(tail -n +2 out1/sweep.csv | wc -l)" -eq 5 ] || fail "not 5 members"
  tail -n +2 out1/sweep.csv | awk -F, '
    $2 < 0.5 || $2 >= 2.0 { print "k1 out of range: " $0; bad = 1 }
    { near = 0; for (i = 0; i < 4; i++) { p = exp(log(0.1) * (1 - i / 3)); if ($3 > p * (1 - 1e-15) && $3 < p * (1 + 1e-15)) near = 1 } }
    !near { print "a3 not one of the 4 logspace points: " $0; bad = 1 }
    $4 != "banded" && $4 != "lapack" { print "type: " $0; bad = 1 }
    { seen[$2] = 1 } END { if (length(seen) != 5) { print "k1 values repeat"; bad = 1 } exit bad }' \
    > out.txt || fail "values outside their ranges"
  # The draws follow [run] seed: another seed, other members.
  "$solvent" run random.toml --set run.seed=8 --output out3 > out.txt 2>&1 || fail "seed 8: exit $?"
  [ "$(cut -d, -f2 out1/sweep.csv)" != "$(cut -d, -f2 out3/sweep.csv)" ] || fail "seed 8 drew the same"
  echo "random: reproducible from the seed, inside the ranges" ;;

jobs)
  sweep grid.toml "$grid_table"
  "$solvent" run grid.toml --output one > out.txt 2>&1 || fail "--jobs 1: exit $?"
  "$solvent" run grid.toml --jobs 2 --output two --progress > out.txt 2>&1 || fail "--jobs 2: exit $?"
  tr '\r' '\n' < out.txt | grep -Eq "^  member 6/6  0 failed  [0-9.e+]+ members/s  elapsed" || fail "no progress line"
  same_csv one two "--jobs 2 against --jobs 1"
  for i in 0 1 2 3 4 5; do
    diff -r -x record.toml -x log.txt one/members/000$i two/members/000$i > /dev/null || fail "member $i differs"
  done
  [ "$(value two/record.toml jobs)" = 2 ] || fail "the record does not say --jobs 2"
  echo "jobs: --jobs 2 equals --jobs 1" ;;

failure)
  sweep fail.toml '[sweep]
[sweep.model.parameters]
k1 = [0.5, 1.0]
[sweep.integrator]
dt = [0.01, 1.0]'
  "$solvent" run fail.toml --output out > out.txt 2>&1; rc=$?
  [ $rc -eq 102 ] || fail "exit $rc, expected 102 (two members failed)"
  grep -q "sweep completed: 4 members (grid), 4 ran now, 2 failed" out.txt || fail "no summary"
  grep -q "^  member 1: imex-trapezoid: the projection removed" out.txt || fail "member 1's reason"
  grep -q "^  member 3: imex-trapezoid: the projection removed" out.txt || fail "member 3's reason"
  [ "$(tail -n +2 out/sweep.csv | cut -d, -f1,4 | tr '\n' ' ')" = "0,ok 1,failed 2,ok 3,failed " ] \
    || fail "statuses: $(cut -d, -f1,4 out/sweep.csv | tr '\n' ' ')"
  grep -q '^1,0.5,1.0,failed,"imex-trapezoid: the projection removed' out/sweep.csv || fail "no reason in sweep.csv"
  [ "$(value out/record.toml failed)" = 2 ] && [ "$(value out/record.toml ok)" = 2 ] \
    || fail "the record's counts"
  # A member that crashes (killed here) fails alone; --resume runs it again.
  sweep grid.toml "$grid_table"
  "$solvent" run grid.toml --output crash > out.txt 2>&1 &
  pid=$!
  until member=$(pgrep -P $pid -f -- "--sweep-member 1 "); do sleep 0.01; done
  kill -KILL $member
  wait $pid; rc=$?
  [ $rc -eq 101 ] || fail "a crashed member: exit $rc, expected 101"
  grep -q "^1,0.5,lapack,failed,ended by SIGKILL before its record was finished," crash/sweep.csv \
    || fail "the crashed member's row: $(sed -n 3p crash/sweep.csv)"
  [ "$(grep -c ',ok,completed,' crash/sweep.csv)" -eq 5 ] || fail "the other members did not all run"
  "$solvent" run --resume crash > out.txt 2>&1 || fail "resuming after the crash: exit $?"
  grep -q "1 of 6 members still to run" out.txt || fail "the crashed member is not run again"
  echo "failure: failed and crashed members recorded, the others ran, exit 100 + failures" ;;

errors)
  check() {  # check FILE TABLE EXPECTED...: `solvent run` refuses with exactly those lines
    local file=$1 table=$2; shift 2
    sweep "$file" "$table"
    "$solvent" run "$file" --output never > out.txt 2>&1; rc=$?
    [ $rc -eq 2 ] || fail "$file: exit $rc, expected 2"
    printf '%s\n' "$@" > want.txt
    diff want.txt out.txt > diff.txt || { cat diff.txt; fail "$file: messages"; }
    [ ! -e never ] || fail "$file: an output folder was made"
  }
  check table.toml '[sweep]
mode = "zip"
samples = 2
[sweep.model]
M = [30, 40, 50]
[sweep.model.parameters]
k1 = [0.5, 1.0]
a3 = { linspace = [0.1, 1.0, 0] }
a4 = []
b = { uniform = [2, 1] }
eps0 = 0.1
[sweep.modle]
x = [1]' \
    "error: table.toml:17:11: [sweep] samples is for mode \"random\"; mode \"zip\" takes its members from the lists" \
    "error: table.toml:22:6: [sweep] model.parameters.a3: linspace = [lo, hi, n] needs two finite numbers and a count n >= 1" \
    "error: table.toml:23:6: [sweep] model.parameters.a4: an empty list sweeps nothing" \
    "error: table.toml:24:5: [sweep] model.parameters.b: uniform = [lo, hi] needs two finite numbers, lo < hi" \
    "error: table.toml:25:8: [sweep] model.parameters.eps0: expected a list of values, or { linspace = [lo, hi, n] }, { logspace = [lo, hi, n] } or, in random mode, { uniform = [lo, hi] }" \
    "error: table.toml:27:5: [sweep] modle.x: unknown section [modle]; did you mean [model]?" \
    "error: table.toml:21:6: [sweep] model.parameters.k1: 2 values where model.M has 3; mode \"zip\" pairs the lists element by element, so they need one length" \
    "error: table.toml:27:5: [sweep] modle.x: 1 value where model.M has 3; mode \"zip\" pairs the lists element by element, so they need one length" \
    "8 configuration errors; nothing was run"
  check mode.toml '[sweep]
mode = "random"
[sweep.model.parameters]
k1 = { linspace = [0.5, 1.0, 3] }' \
    "error: mode.toml:16:8: [sweep] mode \"random\" needs samples >= 1 (how many members to draw)" \
    "1 configuration error; nothing was run"
  check members.toml '[sweep]
[sweep.model]
M = [2, 30]
[sweep.model.parameters]
kk = [1.0, 2.0]
dC = { logspace = [1e-3, -1, 3] }
dP = { logspace = [-0.1, 0.1, 2] }' \
    "error: members.toml:20:6: [sweep] model.parameters.dC: logspace = [lo, hi, n] needs two numbers > 0 and a count n >= 1" \
    "error: members.toml:21:6: [sweep] model.parameters.dP: logspace = [lo, hi, n] needs two numbers > 0 and a count n >= 1" \
    "2 configuration errors; nothing was run"
  # Values the schema refuses: at the sweep entry's line, once, with the members meeting them.
  check schema.toml '[sweep]
[sweep.model]
M = [2, 30]
[sweep.model.parameters]
kk = [1.0, 2.0]
dC = [0.1, -0.1]' \
    "error: schema.toml:17:5: [model] (model 'angiogenesis-1d'): key 'M' value 2 must be >= 3 (sweep members 0, 1, 2, 3)" \
    "error: schema.toml:19:6: [model] (model 'angiogenesis-1d'): unknown key 'parameters.kk'; did you mean 'parameters.k1'? (every sweep member)" \
    "error: schema.toml:20:6: [model] (model 'angiogenesis-1d'): key 'parameters.dC' value -0.1 must be >= 0 (sweep members 1, 3, 5, 7)" \
    "3 configuration errors; nothing was run"
  "$solvent" run base.toml --jobs 2 --output never > out.txt 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -qx "error: --jobs 2: runs the members of a sweep, and base.toml has no \[sweep\] table" \
    out.txt || fail "--jobs without a sweep: exit $rc"
  echo "errors: every problem of a [sweep] table at its line, nothing run" ;;

resume)
  sweep grid.toml "$grid_table"
  "$solvent" run grid.toml --output reference > out.txt 2>&1 || fail "uninterrupted: exit $?"
  "$solvent" run grid.toml --output killed > out.txt 2>&1 &
  pid=$!
  # Killed once two members have finished (their rows written); the member running then
  # ends with it.
  while kill -0 $pid 2>/dev/null && [ "$(wc -l < killed/sweep.csv 2>/dev/null || echo 0)" -lt 3 ]; do
    sleep 0.05
  done
  kill -KILL $pid; wait $pid 2>/dev/null
  [ "$(value killed/record.toml status)" = running ] || fail "the killed sweep's record"
  "$solvent" status killed > out.txt 2>&1; rc=$?
  [ $rc -eq 8 ] || fail "status of the killed sweep: exit $rc, expected 8"
  grep -Eq "^  status: died \(killed or crashed\) without closing its record: [2-5] of 6 members finished, 0 failed$" \
    out.txt || fail "status after the kill"
  grep -Eq "^  resume: yes, [1-4] members? to run: solvent run --resume killed$" out.txt \
    || fail "status does not offer the resume"
  pid0=$(value killed/members/0000/record.toml pid)
  # A member whose sweep died before the member could ask to die with it (the kill above
  # may fall there) ends at once, writing nothing, instead of clearing its folder beside
  # the resumed sweep's run of the same member. SOLVENT_SWEEP_PID names the sweep's process.
  SOLVENT_SWEEP_PID=1 "$solvent" run grid.toml --sweep-member 1 --output orphan > out.txt 2>&1
  rc=$?
  [ $rc -eq 137 ] || fail "a member whose sweep is gone: exit $rc, expected 137 (SIGKILL)"
  [ ! -e orphan ] || fail "a member whose sweep is gone wrote its folder"
  SOLVENT_SWEEP_PID=$$ "$solvent" run grid.toml --sweep-member 1 --output child > out.txt 2>&1 \
    || fail "a member whose sweep is its parent: exit $?"
  "$solvent" run --resume killed > out.txt 2>&1 || fail "resume: exit $?"
  grep -Eq "continuing the sweep in killed: [1-4] of 6 members still to run" out.txt \
    || fail "the resume does not say what is left"
  [ "$(value killed/members/0000/record.toml pid)" = "$pid0" ] || fail "member 0 ran again"
  same_csv reference killed "resumed against uninterrupted"
  [ "$(value killed/record.toml status)" = completed ] || fail "the resumed sweep's record"
  "$solvent" run --resume killed > out.txt 2>&1 || fail "resuming a finished sweep: exit $?"
  grep -q "0 of 6 members still to run" out.txt || fail "a finished sweep ran members again"
  # SIGTERM: the member running stops after its step in flight, the sweep records
  # "interrupted" and exits 143; the resume finishes it.
  "$solvent" run grid.toml --output term > out.txt 2>&1 &
  pid=$!
  while [ "$(wc -l < term/sweep.csv 2>/dev/null || echo 0)" -lt 2 ]; do sleep 0.05; done
  kill -TERM $pid; wait $pid; rc=$?
  [ $rc -eq 143 ] || fail "SIGTERM: exit $rc, expected 143"
  grep -Eq "sweep interrupted by SIGTERM: [1-5] of 6 members finished; continue with: solvent run --resume term" \
    out.txt || fail "SIGTERM: no message"
  [ "$(value term/record.toml status)" = interrupted ] || fail "SIGTERM: the record"
  "$solvent" run --resume term > out.txt 2>&1 || fail "resume after SIGTERM: exit $?"
  same_csv reference term "resumed after SIGTERM against uninterrupted"
  # A changed file would make other members: refused.
  echo "# changed" >> grid.toml
  "$solvent" run --resume killed > out.txt 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "resuming after the file changed: exit $rc, expected 2"
  grep -q "grid.toml changed since the sweep started, so its members would not be the ones that ran; rerun with --overwrite" \
    out.txt || fail "resuming after the file changed: no reason"
  echo "resume: a killed sweep resumed to the uninterrupted sweep.csv" ;;

member-resume)
  source "$(dirname "$0")/../../support/interrupt_run.sh"  # rows
  # Members long enough to be stopped part way, with checkpoints (M = 2000: a member takes
  # about a second, as in mpi-resume below).
  sweep long.toml '[sweep]
mode = "grid"
[sweep.model.parameters]
k1 = [0.5, 1.0]'
  long=(--set model.M=2000 --set integrator.dt=0.0005 --set integrator.steps=4000
        --set integrator.checkpoint_every=40 --set output.every=500)
  "$solvent" run long.toml "${long[@]}" --output reference > out.txt 2>&1 || fail "uninterrupted: exit $?"
  for signal in TERM KILL; do
    "$solvent" run long.toml "${long[@]}" --output $signal > out.txt 2>&1 &
    pid=$!
    at=$((200 + RANDOM % 1500))
    while kill -0 $pid 2>/dev/null && [ "$(rows $signal/members/0001)" -lt $at ]; do sleep 0.01; done
    kill -s $signal $pid; wait $pid 2>/dev/null
    [ -f $signal/members/0001/checkpoint.bin ] || fail "SIG$signal at row $at of member 1: no checkpoint"
    "$solvent" run --resume $signal > out.txt 2>&1 || fail "resume after SIG$signal: exit $?"
    grep -q "continuing from the checkpoint at step" $signal/members/0001.log \
      || fail "SIG$signal at row $at: member 1 started over: $(cat $signal/members/0001.log)"
    same_csv reference $signal "resumed after SIG$signal"
    diff -r -q -x record.toml -x log.txt reference/members/0001 $signal/members/0001 > diff.txt \
      || { cat diff.txt; fail "SIG$signal at row $at: member 1's files differ"; }
  done
  echo "member-resume: a stopped member continued from its checkpoint to the uninterrupted files" ;;

mpi)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  sweep grid.toml "$grid_table"
  "$solvent" run grid.toml --output one > out.txt 2>&1 || fail "one process: exit $?"
  "$extra" -n 3 --oversubscribe "$solvent" run grid.toml --output ranks > out.txt 2>&1 \
    || fail "mpirun -n 3: exit $?"
  [ "$(grep -c "sweep completed" out.txt)" -eq 1 ] || fail "rank 0 alone reports"
  same_csv one ranks "mpirun -n 3 against one process"
  [ "$(value ranks/record.toml ranks)" = 3 ] || fail "the record does not say 3 ranks"
  echo "mpi: 3 ranks give the sweep.csv of one process" ;;
mpi-resume)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  work=$PWD
  source "$(dirname "$0")/../../support/interrupt_run.sh"  # rows, interrupt
  # Four members long enough to be stopped part way, two ranks running them side by side.
  # M = 2000 makes a step about 0.3 ms: at M = 20 a member's 4000 steps took 0.3 s, and the
  # signal, passed on by the rank, could reach member 1 only as its run ended.
  sweep long.toml '[sweep]
mode = "grid"
[sweep.model.parameters]
k1 = [0.5, 1.0, 1.5, 2.0]'
  long=(--set model.M=2000 --set integrator.dt=0.0005 --set integrator.steps=4000
        --set integrator.checkpoint_every=40 --set output.every=500)
  "$solvent" run long.toml "${long[@]}" --jobs 2 --output reference > out.txt 2>&1 \
    || fail "uninterrupted: exit $?"
  # SIGTERM to both ranks: each stops its member after the step in flight, leaving its
  # checkpoint; the resume on two ranks continues them. Only a member stopped part way tests
  # a continued one: on a loaded machine the signal may still come late, so up to 3 tries.
  for try in 1 2 3; do
    at=$((200 + RANDOM % 1000))
    rm -rf term
    interrupt term/members/0001 TERM $at \
      "$extra" -n 2 --oversubscribe "$solvent" run long.toml "${long[@]}" --output term
    grep -q "^run completed" term/members/0001.log || break
    echo "try $try: member 1 finished before SIGTERM at its row $at reached it"
  done
  grep -q "^run completed" term/members/0001.log && fail "member 1 was never stopped part way"
  [ -f term/members/0001/checkpoint.bin ] || fail "SIGTERM at row $at of member 1: no checkpoint"
  "$extra" -n 2 --oversubscribe "$solvent" run --resume term > out.txt 2>&1 \
    || fail "resume on 2 ranks: exit $?"
  grep -q "continuing from the checkpoint at step" term/members/0001.log \
    || fail "SIGTERM at row $at: member 1 started over: $(cat term/members/0001.log)"
  same_csv reference term "resumed on 2 ranks"
  for m in 0000 0001 0002 0003; do
    diff -r -q -x record.toml -x log.txt reference/members/$m term/members/$m > diff.txt \
      || { cat diff.txt; fail "SIGTERM at row $at: member $m's files differ"; }
  done
  echo "mpi-resume: a sweep over 2 ranks stopped mid-member resumed on 2 ranks to one process's files" ;;
example)
  config=$extra/config/sweep-angiogenesis-1d.toml
  "$solvent" validate "$config" > out.txt 2>&1 || fail "validate: exit $?"
  grep -qx "$config: valid sweep of 6 members (grid over model.parameters.k1, model.parameters.a3); every member checked" \
    out.txt || fail "validate's line"
  "$solvent" run "$config" --jobs 2 --output out > out.txt 2>&1 || fail "run: exit $?"
  [ "$(tail -n +2 out/sweep.csv | cut -d, -f2,3,4 | tr '\n' ' ')" = \
    "0.5,0.5,ok 0.5,1.0,ok 1.0,0.5,ok 1.0,1.0,ok 2.0,0.5,ok 2.0,1.0,ok " ] || fail "members"
  command -v gnuplot > /dev/null || { echo "example: ran (plot-sweep skipped: no gnuplot)"; exit 0; }
  "$extra/scripts/plot-sweep" out max_C > out.txt 2>&1 || fail "plot-sweep: exit $?"
  [ -s out/max_C.png ] || fail "plot-sweep wrote no picture"
  "$extra/scripts/plot-sweep" out max_X > out.txt 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "'max_X' is not an observable of out/sweep.csv" out.txt \
    || fail "an unknown observable: exit $rc"
  "$extra/scripts/plot-sweep" out max_C model.parameters.k2 > out.txt 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "'model.parameters.k2' is not a swept key of out/sweep.csv (swept: model.parameters.k1 model.parameters.a3)" \
    out.txt || fail "an unknown parameter: exit $rc"
  echo "example: the shipped sweep runs and plots" ;;
*) fail "unknown case" ;;
esac
