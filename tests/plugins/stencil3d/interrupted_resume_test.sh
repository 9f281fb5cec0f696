#!/usr/bin/env bash
# explicit-stencil3d stopped by SIGTERM part way and continued with `solvent run --resume`:
# every file of the run never stopped, byte for byte (each rank's checkpoint files
# included; not record.toml and log.txt, which hold times), on one process or, given
# MPIEXEC, on 2 ranks. A checkpoint with one bit flipped, and one cut short (on 2 ranks
# rank 1's), are refused (exit 4) naming the file and the damage, and leave the run's files
# as they were.
#   interrupted_resume_test.sh SOLVENT CONFIG WORKDIR [MPIEXEC]
# (Open MPI's run-as-root variables come from the test's environment.)
set -uo pipefail
solvent=$1 config=$2 work=$3 mpiexec=${4:-}
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
source "$(dirname "$0")/../../support/interrupt_run.sh"  # rows, interrupt
rm -rf "$work" && mkdir -p "$work"
launcher=() piece=checkpoint.bin on="one process"
if [ -n "$mpiexec" ]; then
  launcher=("$mpiexec" -n 2 --oversubscribe) piece=checkpoint.rank-1.bin on="2 ranks"
fi
# Enough short steps for a signal to land part way (the tips have fused by step 1000; the
# steps after are quick), a checkpoint every 7.
run=("$solvent" run "$config" --set integrator.steps=1500 --set integrator.max_segments=100000
     --set integrator.checkpoint_every=7 --no-progress)
# same REFERENCE DIR WHAT: DIR holds REFERENCE's files (a temporary a rank ended by the
# others left, NAME.tmp.PID, is not one: the next run removes it).
same() {
  diff -r -q -x record.toml -x log.txt -x '*.tmp.*' "$1" "$2" > "$work/diff.txt" ||
    { cat "$work/diff.txt"; fail "$3: the files differ"; }
}

"${launcher[@]}" "${run[@]}" --output "$work/reference" > "$work/out.txt" 2>&1 ||
  fail "the uninterrupted run: exit $?"
total=$(rows "$work/reference")
at=$((50 + RANDOM % (total / 2)))
interrupt "$work/run" TERM $at "${launcher[@]}" "${run[@]}" --output "$work/run"
rc=$?
[ $rc -eq 143 ] || fail "SIGTERM at row $at: exit $rc, expected 143"
[ "$(rows "$work/run")" -lt "$total" ] || fail "SIGTERM at row $at: the run was not cut short"
[ -f "$work/run/$piece" ] || fail "no $piece"
cp -r "$work/run" "$work/stopped"

# refused DAMAGE MESSAGE: a copy of the stopped run with DAMAGE done to its $piece is refused
# with MESSAGE, and its files stay as they were.
refused() {
  local dir=$work/$1
  cp -r "$work/stopped" "$dir"
  local size
  size=$(stat -c %s "$dir/$piece")
  case $1 in
  flipped) printf '\x5a' | dd of="$dir/$piece" bs=1 seek=$((size / 2)) conv=notrunc status=none ;;
  cut) head -c $((size - 8)) "$work/stopped/$piece" > "$dir/$piece" ;;
  esac
  cp -r "$dir" "$dir-before"
  "${launcher[@]}" "$solvent" run --resume "$dir" --no-progress > "$work/out.txt" 2>&1
  rc=$?
  [ $rc -eq 4 ] || fail "$1 $piece: exit $rc, expected 4"
  grep -qF "$dir/$piece: $(eval echo "\"$2\"")" "$work/out.txt" || fail "$1 $piece: not the message '$2'"
  same "$dir-before" "$dir" "after the refused resume of $1 $piece"
}
refused flipped 'a damaged checkpoint: its checksum does not match its contents; rerun with --overwrite'
refused cut 'a damaged checkpoint: $((size - 8)) bytes where its header says $size; rerun with --overwrite'

"${launcher[@]}" "$solvent" run --resume "$work/run" --no-progress > "$work/out.txt" 2>&1 ||
  fail "resume after SIGTERM at row $at: exit $?"
grep -q "from its checkpoint at step" "$work/out.txt" || fail "no resume"
same "$work/reference" "$work/run" "resumed after SIGTERM at row $at"
echo "stopped by SIGTERM at row $at on $on, resumed to the uninterrupted files; a flipped and a cut $piece refused"
