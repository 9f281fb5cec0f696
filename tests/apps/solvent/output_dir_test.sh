#!/usr/bin/env bash
# Output directories: Solvent writes only into a new, empty or Solvent-marked directory, never
# over the configuration it reads, and --overwrite removes exactly the files the earlier run
# listed in its record. usage: output_dir_test.sh SOLVENT CONFIG WORK_DIR
set -uo pipefail
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
run() { "$solvent" run "$config" --set model.M=20 --set integrator.steps=3 "$@" > "$work/out.txt" 2>&1; }
fail() { echo "FAIL: $*"; cat "$work/out.txt"; exit 1; }

# A folder of the user's: refused with exit 2, untouched.
mkdir "$work/mine" && echo "my notes" > "$work/mine/notes.txt"
run --output "$work/mine"; rc=$?
[ $rc -eq 2 ] || fail "a foreign folder: exit $rc, expected 2"
grep -q "holds files Solvent did not write (it has no .solvent-output marker)" "$work/out.txt" \
  || fail "a foreign folder: no message"
[ "$(ls -A "$work/mine")" = "notes.txt" ] || fail "a foreign folder was written into"

# A new folder: marked, and the record lists what was written.
run --output "$work/run" || fail "a new folder: exit $?"
[ -f "$work/run/.solvent-output" ] || fail "no marker in a new output folder"
grep -q "'profiles/step_00000003.csv'" "$work/run/record.toml" || fail "the record lists no files"

# --overwrite removes what the run wrote, not the user's file beside it.
echo "x,y" > "$work/run/profiles/my_plot.csv"
run --output "$work/run" --overwrite --set integrator.steps=2 || fail "--overwrite: exit $?"
[ -f "$work/run/profiles/my_plot.csv" ] || fail "--overwrite removed a file the run never wrote"
[ ! -e "$work/run/profiles/step_00000003.csv" ] || fail "--overwrite left the replaced run's step 3"

# The resolved config must not replace the configuration being read.
"$solvent" run "$work/run/config.toml" --output "$work/run" --overwrite > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "reading the output folder's config.toml: exit $rc, expected 2"
grep -q "would replace the configuration it reads" "$work/out.txt" || fail "no message for it"
echo "output folders: foreign refused, new marked, overwrite exact, input config kept"
