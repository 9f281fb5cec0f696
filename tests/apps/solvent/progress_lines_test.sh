#!/usr/bin/env bash
# Progress in a batch job's log (stderr not a terminal): --progress and --progress=lines
# write plain lines (step, t, rate, ETA), one every --progress-every seconds and the last,
# with no carriage return; --progress=bar redraws with carriage returns even there; off and
# --no-progress (the last given wins) write none; a sweep's lines count members done and failed.
# usage: progress_lines_test.sh SOLVENT CONFIG WORK_DIR
set -uo pipefail
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; cat -A log.txt; exit 1; }
n=0
run() {  # run STEPS ARGS...: a short run, its stderr in log.txt
  local steps=$1
  shift
  n=$((n + 1))
  "$solvent" run "$config" --output "run$n" --set model.M=50 --set integrator.steps="$steps" \
    --set integrator.dt=0.001 --set linear_solver.type=banded -q "$@" > /dev/null 2> log.txt \
    || fail "$*: exit $?"
}
line='  step [0-9]+/STEPS  t = [0-9.e-]+  [0-9.e+]+ steps/s  elapsed [0-9.]+ s  ETA ([0-9.]+ s|unknown)'
steps() { grep -c '^  step ' log.txt; }

# A run of under a second writes the last line alone.
run 10 --progress
grep -q $'\r' log.txt && fail "--progress: a carriage return in the log"
[ "$(steps)" = 1 ] && grep -Eqx "${line/STEPS/10}" log.txt \
  && grep -Eq '^  step 10/10  t = 0\.01  ' log.txt || fail "--progress: not one plain last line"

# Lines every millisecond: several, each whole, the last at step 400.
run 400 --progress=lines --progress-every 0.001
grep -q $'\r' log.txt && fail "--progress=lines: a carriage return in the log"
[ "$(steps)" -gt 1 ] || fail "--progress=lines --progress-every 0.001: not several lines"
[ "$(grep -Evxc "${line/STEPS/400}" log.txt)" = 0 ] || fail "--progress=lines: a line of another form"
tail -1 log.txt | grep -q '^  step 400/400  t = 0\.4  ' || fail "--progress=lines: not ending at step 400"

run 10 --progress=bar
grep -q $'\r  step 10/10  t = 0\.01  ' log.txt || fail "--progress=bar: not redrawn with carriage returns"
for off in --progress=off "--progress=lines --no-progress" --no-progress; do
  # shellcheck disable=SC2086
  run 10 $off
  [ -s log.txt ] && fail "$off: progress written"
done
"$solvent" run "$config" --progress=loud > /dev/null 2> log.txt
[ $? -eq 2 ] && grep -q "error: solvent run: --progress: loud not in {auto,bar,lines,off,on}" log.txt \
  || fail "--progress=loud: not refused"

# A sweep's lines: members done, and how many failed.
cat > sweep.toml <<EOT
[model]
type = "angiogenesis-1d"
M = 30
[integrator]
type = "imex-trapezoid"
dt = 0.01
steps = 3
[linear_solver]
type = "banded"
[sweep]
mode = "grid"
[sweep.model.parameters]
k1 = [0.5, 2.0]
EOT
"$solvent" run sweep.toml --output sweep --progress=lines -q > /dev/null 2> log.txt || fail "the sweep: exit $?"
grep -q $'\r' log.txt && fail "a sweep's lines: a carriage return"
grep -Eqx '  member 2/2  0 failed  [0-9.e+]+ members/s  elapsed [0-9.]+ s  ETA [0-9.]+ s' log.txt \
  || fail "a sweep's last line"
echo "progress lines: passed"
