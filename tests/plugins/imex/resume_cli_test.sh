#!/usr/bin/env bash
# An IMEX run of the 1D experiment stopped part way (SIGINT, and SIGKILL) and continued with
# `solvent run --resume` ends with the files of the run never interrupted, byte for byte
# (observables.csv, profiles at [output] every or times, checkpoint.bin); a checkpoint cut
# short, of another format version or with a byte changed is refused by name (exit 4).
#   resume_cli_test.sh SOLVENT CONFIG WORKDIR METHOD
set -uo pipefail
solvent=$1 config=$2 work=$3 method=$4
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/interrupt_run.sh"  # rows, interrupt
fail() { echo "FAIL ($method): $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
# Short steps on the band solver: fast, yet long enough for a signal to land part way.
run=("$solvent" run "$config" --set integrator.type="$method" --set linear_solver.type=banded
     --set integrator.dt=0.0005 --set integrator.steps=6000 --set integrator.checkpoint_every=40
     --set output.every=250 --no-progress)
# The Crank-Nicolson methods start with Rannacher's half steps, so those are continued too;
# the adaptive imex-ark23 lands on every multiple of dt and takes as many steps as it needs
# between (more than 6000, rejected ones among them: a long first step).
case "$method" in
  imex-trapezoid|imex-cnab2) run+=(--set integrator.rannacher_steps=2) ;;
  imex-ark23) run+=(--set integrator.first_dt=0.0005 --set integrator.rtol=1e-6) ;;
esac

"${run[@]}" --output "$work/reference" > "$work/out.txt" 2>&1 || fail "the uninterrupted run: exit $?"
total=$(rows "$work/reference")

for signal in INT KILL; do
  dir="$work/$signal"
  at=$((100 + RANDOM % (total / 2)))
  interrupt "$dir" $signal $at "${run[@]}" --output "$dir"; rc=$?
  want=130 && [ $signal = KILL ] && want=137
  [ $rc -eq $want ] || fail "SIG$signal at row $at: exit $rc, expected $want"
  [ -f "$dir/checkpoint.bin" ] || fail "SIG$signal at row $at: no checkpoint.bin"
  [ "$(rows "$dir")" -lt "$total" ] || fail "SIG$signal at row $at: the run was not cut short"
  cp -r "$dir" "$work/$signal-stopped"
  "$solvent" run --resume "$dir" --no-progress > "$work/out.txt" 2>&1 \
    || fail "resume after SIG$signal at row $at: exit $?"
  grep -q "continuing from the checkpoint at step" "$work/out.txt" || fail "SIG$signal: no resume"
  cmp "$work/reference/observables.csv" "$dir/observables.csv" || fail "SIG$signal: observables.csv"
  diff -r -q -x record.toml -x log.txt "$work/reference" "$dir" > "$work/diff.txt" \
    || { cat "$work/diff.txt"; fail "SIG$signal at row $at: the resumed run's files differ"; }
done

# With [output] times instead of every: the resumed run writes profiles at the same steps
# (none at the checkpoint's step unless a time falls on it).
times=(--set 'output.times=[0.1, 0.9003, 1.5, 2.5]')
"${run[@]}" "${times[@]}" --output "$work/times-reference" > "$work/out.txt" 2>&1 \
  || fail "the uninterrupted run with times: exit $?"
at=$((100 + RANDOM % (total / 2)))
interrupt "$work/times" KILL $at "${run[@]}" "${times[@]}" --output "$work/times"
"$solvent" run --resume "$work/times" --no-progress > "$work/out.txt" 2>&1 \
  || fail "resume with times after SIGKILL at row $at: exit $?"
diff -r -q -x record.toml -x log.txt "$work/times-reference" "$work/times" > "$work/diff.txt" \
  || { cat "$work/diff.txt"; fail "times, SIGKILL at row $at: the resumed run's files differ"; }

# refused DIR MESSAGE: a resume of DIR exits 4 with MESSAGE.
refused() {
  "$solvent" run --resume "$1" --no-progress > "$work/out.txt" 2>&1; local rc=$?
  [ $rc -eq 4 ] || fail "resuming $1: exit $rc, expected 4"
  grep -qF "$2" "$work/out.txt" || fail "resuming $1: no message '$2'"
}
# Cut short: the size its header promises is named.
cp -r "$work/INT-stopped" "$work/cut"
size=$(stat -c %s "$work/cut/checkpoint.bin")
head -c $((size - 100)) "$work/INT-stopped/checkpoint.bin" > "$work/cut/checkpoint.bin"
refused "$work/cut" "cut/checkpoint.bin: a damaged checkpoint: $((size - 100)) bytes where its header says $size; rerun with --overwrite"
# Cut inside its header.
head -c 20 "$work/INT-stopped/checkpoint.bin" > "$work/cut/checkpoint.bin"
refused "$work/cut" "cut/checkpoint.bin: a damaged checkpoint: 20 bytes, cut short before its 48-byte header ends; rerun with --overwrite"
# Another format version (the u32 after the 8-byte mark).
cp -r "$work/INT-stopped" "$work/version"
printf '\x63\x00\x00\x00' | dd of="$work/version/checkpoint.bin" bs=1 seek=8 conv=notrunc 2>/dev/null
refused "$work/version" "version/checkpoint.bin: checkpoint format version 99, this build reads version 4; rerun with --overwrite"
# One byte of the state flipped: the checksum finds it.
cp -r "$work/INT-stopped" "$work/flipped"
printf '\xff' | dd of="$work/flipped/checkpoint.bin" bs=1 seek=500 conv=notrunc 2>/dev/null
refused "$work/flipped" "flipped/checkpoint.bin: a damaged checkpoint: its checksum does not match its contents; rerun with --overwrite"
echo "$method: resumed after SIGINT and SIGKILL to identical files; damaged checkpoints refused"
