#!/usr/bin/env bash
# Interruption and resume: SIGINT and SIGTERM end a run cleanly (exit 130 / 143, record
# "interrupted" with the last step), SIGKILL leaves a record that `solvent status` and
# `--resume` recognise, and a resumed run's files equal an uninterrupted run's byte for byte.
# A resume of another experiment, or of a run whose integrator writes no checkpoints, is
# refused. Signals land at random moments (RANDOM, seeded per run by the shell), so repeated
# CI runs cover different steps.
# usage: interruption_test.sh SOLVENT CONFIG_3D CONFIG_1D WORK_DIR
set -uo pipefail
solvent=$1 config3d=$2 config1d=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
small=(--set model.nx=21 --set model.ny=21 --set model.nz=21 --set integrator.steps=400
       --set integrator.fields_every=40 --set integrator.checkpoint_every=25
       --set integrator.png=false)
source "$(dirname "$0")/../../support/interrupt_run.sh"  # rows, interrupt

"$solvent" run "$config3d" "${small[@]}" --output "$work/reference" > "$work/out.txt" 2>&1 \
  || fail "the uninterrupted run: exit $?"
total=$(rows "$work/reference")

same_as_reference() {
  diff -r -q -x record.toml -x log.txt "$work/reference" "$1" > "$work/diff.txt" \
    || { cat "$work/diff.txt"; fail "$2: the resumed run's files differ from the reference"; }
}

for signal in INT TERM KILL; do
  # In the first half: a step takes under a millisecond here and `interrupt` looks every
  # 10 ms, so a signal meant for the last rows can arrive after the run has ended (exit 0).
  at=$((30 + RANDOM % (total / 2 - 30)))
  dir="$work/$signal"
  interrupt "$dir" $signal $at "$solvent" run "$config3d" "${small[@]}" --output "$dir"; rc=$?
  case $signal in
    INT) want=130 status="status = 'interrupted'" ;;
    TERM) want=143 status="status = 'interrupted'" ;;
    KILL) want=137 status="status = 'running'" ;;
  esac
  [ $rc -eq $want ] || fail "SIG$signal at row $at: exit $rc, expected $want"
  grep -q "$status" "$dir/record.toml" || fail "SIG$signal: the record does not say $status"
  if [ $signal != KILL ]; then
    grep -q "interrupted by SIG$signal after step" "$work/out.txt" || fail "SIG$signal: no message"
    [ -f "$dir/observables.csv" ] || fail "SIG$signal: observables.csv not flushed into place"
  fi
  "$solvent" status "$dir" > "$work/out.txt" 2>&1; rc=$?
  # A killed run's record still says "running"; its lock, released by the kernel, says dead.
  [ $rc -eq "$([ $signal = KILL ] && echo 8 || echo 0)" ] || fail "status after SIG$signal: exit $rc"
  if [ $signal = KILL ]; then
    grep -Eq "^  status: died \(killed or crashed\) without closing its record; the last step written is [0-9]+$" \
      "$work/out.txt" || fail "status does not see the kill"
  else
    grep -q "status: interrupted" "$work/out.txt" || fail "status does not say interrupted"
  fi
  grep -q "resume: yes, from the checkpoint at step" "$work/out.txt" \
    || fail "status after SIG$signal does not offer the resume"
  if [ $signal = KILL ]; then
    # A damaged row before the checkpoint: refused, as the file could not be reproduced.
    cp -r "$dir" "$work/damaged" && sed -i '3s/,/;/g' "$work/damaged/observables.csv.partial"
    "$solvent" run --resume "$work/damaged" > "$work/out.txt" 2>&1; rc=$?
    [ $rc -eq 4 ] || fail "resuming with a damaged observables row: exit $rc, expected 4"
    grep -q "observables.csv.partial:3: a damaged row; the run cannot be continued to the same bytes" \
      "$work/out.txt" || fail "resuming with a damaged observables row: no file:line message"
  fi
  "$solvent" run --resume "$dir" > "$work/out.txt" 2>&1 || fail "resume after SIG$signal: exit $?"
  [ $signal != KILL ] || grep -q "(it stopped without finishing) from its checkpoint at step" \
    "$work/out.txt" || fail "the resume does not say the earlier run stopped unfinished"
  same_as_reference "$dir" "SIG$signal at row $at"
done

# A second run into a directory a live run holds is refused. The live run is stopped by
# SIGINT below, so it is given steps enough to outlast the checks on any machine (400 steps
# take 0.3 s here: 4000 could end before the second run and the status had looked), and no
# fields to write meanwhile.
"$solvent" run "$config3d" "${small[@]}" --set integrator.steps=40000 \
  --set integrator.fields_every=40000 --output "$work/busy" > /dev/null 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null && [ "$(rows "$work/busy")" -lt 5 ]; do sleep 0.01; done
"$solvent" run "$config3d" "${small[@]}" --output "$work/busy" --overwrite > "$work/out.txt" 2>&1
rc=$?
# The same record says "running" as a killed run's did; the lock its process holds tells them apart.
"$solvent" status "$work/busy" > "$work/status.txt" 2>&1 || fail "status of a live run: exit $?"
grep -q "^  status: running now (process $pid)$" "$work/status.txt" || fail "status of a live run"
kill -s INT $pid; wait $pid
[ $rc -eq 2 ] || fail "a second run into a busy directory: exit $rc, expected 2"
grep -q "another Solvent run (process $pid) is writing into" "$work/out.txt" \
  || fail "a second run into a busy directory: no message naming the process"

# Another experiment, or changed parameters, in the resumed directory: refused, key named.
"$solvent" run --resume "$work/INT" "$config1d" > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "resuming with another experiment: exit $rc, expected 2"
grep -q "model.type (recorded 'angiogenesis-3d', given 'angiogenesis-1d')" "$work/out.txt" \
  || fail "resuming with another experiment: the differing key is not named"
"$solvent" run --resume "$work/INT" --set model.parameters.rho=0.3 > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "resuming with another parameter: exit $rc, expected 2"
grep -q "model.parameters.rho (recorded" "$work/out.txt" || fail "the changed parameter is not named"
"$solvent" run --resume "$work/INT" > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "completed at step 400; nothing to continue" "$work/out.txt" \
  || fail "resuming a completed run: exit $rc"
# A larger steps extends the run, and config.toml says so.
"$solvent" run --resume "$work/INT" --set integrator.steps=420 > "$work/out.txt" 2>&1 \
  || fail "extending a run: exit $?"
grep -q "^steps = 420" "$work/INT/config.toml" || fail "config.toml does not say the new steps"

# An integrator without checkpoints (imex-batched, one member alone, which takes no
# [linear_solver]): interrupted cleanly, its resume refused with the reason.
sed '/^\[linear_solver\]/,/^$/d' "$config1d" > "$work/batched.toml"
"$solvent" run "$work/batched.toml" --set integrator.type=imex-batched \
  --set integrator.steps=100000 --output "$work/1d" > "$work/out.txt" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null && [ "$(rows "$work/1d")" -lt 10 ]; do sleep 0.01; done
kill -s INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] || fail "SIGINT to the 1D run: exit $rc, expected 130"
grep -q "writes no checkpoints: rerun with --overwrite" "$work/out.txt" || fail "1D: no message"
"$solvent" run --resume "$work/1d" > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "resuming the 1D run: exit $rc, expected 2"
grep -q "writes no checkpoints, so its runs cannot be continued" "$work/out.txt" \
  || fail "resuming the 1D run: no reason given"
echo "interruption: SIGINT, SIGTERM, SIGKILL at random steps resumed to identical files"
