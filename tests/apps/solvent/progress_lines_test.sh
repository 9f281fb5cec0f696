#!/usr/bin/env bash
# --progress when stderr is not a terminal (a batch job's log): plain lines, at most one
# every 10 s plus the last, and no carriage return. A run of under a second writes one.
# usage: progress_lines_test.sh SOLVENT CONFIG WORK_DIR
set -euo pipefail
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$solvent" run "$config" --progress --output "$work/run" --set model.M=50 \
  --set integrator.steps=10 --set integrator.dt=0.01 --set linear_solver.type=banded \
  > /dev/null 2> "$work/log.txt"
if grep -q $'\r' "$work/log.txt"; then echo "FAIL: a carriage return in the log"; exit 1; fi
lines=$(grep -c '^  step ' "$work/log.txt" || true)
if [ "$lines" != 1 ] || ! grep -Eq '^  step 10/10  t = 0\.1  elapsed [0-9.]+ s  ETA 0\.0 s$' "$work/log.txt"; then
  echo "FAIL: expected one line '  step 10/10  t = 0.1  elapsed ... s  ETA 0.0 s', got:"
  cat "$work/log.txt"; exit 1
fi
echo "progress lines: passed"
