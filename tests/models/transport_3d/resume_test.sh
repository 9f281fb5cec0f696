#!/usr/bin/env bash
# transport-3d advanced by implicit-stencil7, stopped part way and continued with
# `solvent run --resume`: the files of the run never stopped, byte for byte (observables.csv
# without its solve_seconds column, a wall time; every checkpoint file; the configuration;
# not record.toml and log.txt, which hold times),
# after SIGINT (BDF2), SIGTERM (Crank-Nicolson) and SIGKILL (BDF2), or, given MPIEXEC, over
# two ranks stopped by SIGTERM and by SIGKILL; damaged checkpoints, and a resume on another
# count of ranks, refused by name (exit 4).
#   resume_test.sh SOLVENT CONFIG WORKDIR [MPIEXEC]
set -uo pipefail
solvent=$1 config=$2 work=$3 mpiexec=${4:-}
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/interrupt_run.sh"  # rows, interrupt
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
# CG with Jacobi keeps nothing from one solve to the next, so a resumed layer is the
# uninterrupted one; short layers, enough of them for a signal to land part way.
run=("$solvent" run "$config" --set model.velocity='"none"' --set linear_solver.type='"cg"'
     --set preconditioner.type='"jacobi"' --set integrator.dt=0.002 --set integrator.steps=1500
     --set integrator.checkpoint_every=7 --no-progress)
# same REFERENCE DIR WHAT: DIR holds REFERENCE's files (solve times aside).
same() {
  for d in "$1" "$2"; do cut -d, -f1-5 "$d/observables.csv" > "$d/observables.cut"; done
  head -1 "$1/observables.csv" | grep -q '^step,t,error_max,error_l2,mass,iterations,solve_seconds$' \
    || fail "$3: the columns are not the ones compared: $(head -1 "$1/observables.csv")"
  diff -r -q -x record.toml -x log.txt -x observables.csv "$1" "$2" > "$work/diff.txt" \
    || { cat "$work/diff.txt"; fail "$3: the resumed run's files differ"; }
}
# stop_and_resume NAME SIGNAL EXPECTED LAUNCHER... -- SETTINGS...: runs uninterrupted and
# stopped by SIGNAL part way (exit EXPECTED), resumes, and compares.
stop_and_resume() {
  local name=$1 signal=$2 want=$3; shift 3
  local launcher=()
  while [ "$1" != -- ]; do launcher+=("$1"); shift; done
  shift
  "${launcher[@]}" "${run[@]}" "$@" --output "$work/$name-reference" > "$work/out.txt" 2>&1 \
    || fail "$name: the uninterrupted run: exit $?"
  local total at rc dir=$work/$name
  total=$(rows "$work/$name-reference")
  at=$((50 + RANDOM % (total / 2)))
  interrupt "$dir" "$signal" $at "${launcher[@]}" "${run[@]}" "$@" --output "$dir"; rc=$?
  [ "$rc" -eq "$want" ] || fail "$name: SIG$signal at row $at: exit $rc, expected $want"
  [ "$(rows "$dir")" -lt "$total" ] || fail "$name: SIG$signal at row $at: the run was not cut short"
  [ -f "$dir/checkpoint.bin" ] || fail "$name: no checkpoint.bin"
  cp -r "$dir" "$work/$name-stopped"
  "${launcher[@]}" "$solvent" run --resume "$dir" --no-progress > "$work/out.txt" 2>&1 \
    || fail "$name: resume after SIG$signal at row $at: exit $?"
  grep -q "continuing from the checkpoint at layer" "$work/out.txt" || fail "$name: no resume"
  same "$work/$name-reference" "$dir" "$name (SIG$signal at row $at)"
  echo "$name: stopped by SIG$signal at row $at, resumed to the uninterrupted files"
}

# refused DIR MESSAGE [LAUNCHER...]: a resume of DIR exits 4 with MESSAGE.
refused() {
  local dir=$1 message=$2; shift 2
  "$@" "$solvent" run --resume "$dir" --no-progress > "$work/out.txt" 2>&1; local rc=$?
  [ $rc -eq 4 ] || fail "resuming $dir: exit $rc, expected 4"
  grep -qF "$message" "$work/out.txt" || fail "resuming $dir: no message '$message'"
}

if [ -z "$mpiexec" ]; then
  stop_and_resume bdf2-int INT 130 -- --set integrator.scheme='"bdf2"'
  stop_and_resume cn-term TERM 143 -- --set integrator.scheme='"crank-nicolson"'
  stop_and_resume bdf2-kill KILL 137 -- --set integrator.scheme='"bdf2"'
  cp -r "$work/bdf2-int-stopped" "$work/cut"
  size=$(stat -c %s "$work/cut/checkpoint.bin")
  head -c $((size - 8)) "$work/bdf2-int-stopped/checkpoint.bin" > "$work/cut/checkpoint.bin"
  refused "$work/cut" "cut/checkpoint.bin: a damaged checkpoint: $((size - 8)) bytes where its header says $size; rerun with --overwrite"
else
  ranks=("$mpiexec" -n 2 --oversubscribe)
  stop_and_resume ranks-term TERM 143 "${ranks[@]}" -- --set integrator.scheme='"bdf2"'
  stop_and_resume ranks-kill KILL 137 "${ranks[@]}" -- --set integrator.scheme='"crank-nicolson"'
  [ -f "$work/ranks-term/checkpoint.rank-1.bin" ] || fail "ranks: no checkpoint of rank 1"
  # Killed after rank 0 wrote a checkpoint and before rank 1 did: the step before, which
  # both hold, is continued to the same files.
  cp -r "$work/ranks-term-stopped" "$work/ranks-behind"
  mv "$work/ranks-behind/checkpoint.rank-1.previous.bin" "$work/ranks-behind/checkpoint.rank-1.bin"
  "${ranks[@]}" "$solvent" run --resume "$work/ranks-behind" --no-progress > "$work/out.txt" 2>&1 \
    || fail "resuming with rank 1 a checkpoint behind: exit $?"
  same "$work/ranks-term-reference" "$work/ranks-behind" "rank 1 a checkpoint behind"
  # Rank 1's checkpoint cut short: its damage is named, and every rank ends.
  cp -r "$work/ranks-term-stopped" "$work/ranks-cut"
  head -c 100 "$work/ranks-term-stopped/checkpoint.rank-1.bin" > "$work/ranks-cut/checkpoint.rank-1.bin"
  refused "$work/ranks-cut" "ranks-cut/checkpoint.rank-1.bin: a damaged checkpoint: 100 bytes where" "${ranks[@]}"
  # Another count of ranks than the one that wrote the checkpoints.
  refused "$work/ranks-term-stopped" "ranks-term-stopped/checkpoint.bin: the checkpoint of a run on 2 ranks (checkpoint.bin and checkpoint.rank-1.bin), and this run is on 1 rank (resume it on 2 ranks); rerun with --overwrite"
fi
echo "transport-3d: resumed to identical files; damaged checkpoints refused"
