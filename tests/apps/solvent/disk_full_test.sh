#!/usr/bin/env bash
# A full disk, injected by LD_PRELOAD into write(2) for one file at a time: the run fails
# (exit 1) at the write that failed, naming its path and the OS's reason; the record says
# "failed" with the same message; nothing cut short lies under a final name. A disk that
# fills for one write and frees again fails the run just the same.
# usage: disk_full_test.sh SOLVENT FAULT_LIBRARY CONFIG WORK_DIR
set -uo pipefail
solvent=$1 fault=$2 config=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; cat "$work/out.txt"; exit 1; }
run() {
  local dir=$1 match=$2 after=$3 failures=$4
  LD_PRELOAD=$fault SOLVENT_FAULT_MATCH=$match SOLVENT_FAULT_AFTER=$after \
    SOLVENT_FAULT_FAILURES=$failures "$solvent" run "$config" --set model.M=20 \
    --set integrator.steps=60 --output "$dir" > "$work/out.txt" 2>&1
}

# failures -1: a disk that fills; 1: one that frees again; disk: one full for every file of
# the run once observables.csv has filled it, so that the record's closing write fails too
# until the room the run reserved at its start is given back.
for failures in -1 1 disk; do
  dir="$work/observables$failures"
  if [ $failures = disk ]; then
    SOLVENT_FAULT_DISK=$dir/ SOLVENT_FAULT_FREED_BY=record.toml.reserve.tmp. \
      run "$dir" observables.csv 1500 -1
  else
    run "$dir" observables.csv 1500 $failures
  fi
  rc=$?
  [ $rc -eq 1 ] || fail "observables.csv full (failures $failures): exit $rc, expected 1"
  grep -q "^error: cannot write $dir/observables.csv.partial: No space left on device$" \
    "$work/out.txt" || fail "observables.csv full: the message does not name the file"
  grep -q "status = 'failed'" "$dir/record.toml" || fail "observables.csv full ($failures): record not failed"
  grep -q "message = 'cannot write $dir/observables.csv.partial: No space left" "$dir/record.toml" \
    || fail "observables.csv full: the record does not say why"
  [ ! -e "$dir/observables.csv" ] || fail "a cut-short observables.csv under its final name"
  [ -z "$(find "$dir" -name 'record.toml.*')" ] || fail "observables.csv full: a reserve was left"
done

# A profile written atomically: its temporary is removed, no cut-short file is left.
dir="$work/profile"
run "$dir" step_00000020.csv 100 -1; rc=$?
[ $rc -eq 1 ] || fail "a profile's disk full: exit $rc, expected 1"
grep -q "^error: cannot write $dir/profiles/step_00000020.csv.tmp.[0-9.]*: No space left on device$" \
  "$work/out.txt" || fail "a profile's disk full: the message does not name the file"
[ -z "$(find "$dir" -name 'step_00000020.csv*')" ] || fail "a profile's temporary was left"
grep -q "status = 'failed'" "$dir/record.toml" || fail "a profile's disk full: record not failed"

# The record itself: the run stops before computing anything, saying which file.
dir="$work/record"
run "$dir" record.toml 0 -1; rc=$?
[ $rc -eq 1 ] || fail "record.toml's disk full: exit $rc, expected 1"
grep -q "^error: cannot write $dir/record.toml.tmp.[0-9.]*: No space left on device$" \
  "$work/out.txt" || fail "record.toml's disk full: the message does not name the file"
[ ! -e "$dir/observables.csv.partial" ] || fail "the run went on without a record"
echo "disk full: every failed write named, recorded, and nothing cut short kept"
