#!/usr/bin/env bash
# `solvent run` with a forced unstable dt exits 6 (diverged) with a message naming the step
# and the criterion, instead of writing a state that is no solution.
#   unstable_cli_test.sh SOLVENT CONFIG WORKDIR
set -u
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$solvent" run "$config" --set integrator.dt=0.5 --set integrator.force_dt=true \
  --output "$work/run" --no-progress > "$work/log" 2>&1
rc=$?
cat "$work/log"
[ "$rc" -eq 6 ] || { echo "exit $rc, expected 6"; exit 1; }
grep -q "at step 1 (t = 0.5)" "$work/log" || { echo "no step in the message"; exit 1; }
grep -q "criterion: 0 <= P0..P6 <= 1 at every tip" "$work/log" || { echo "no criterion"; exit 1; }
echo "forced unstable dt stopped with exit 6"
