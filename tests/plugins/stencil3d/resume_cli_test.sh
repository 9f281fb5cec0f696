#!/usr/bin/env bash
# `solvent run --resume DIR` continues a run from its checkpoint and ends with the same
# state, byte for byte, as the run that was never interrupted.
#   resume_cli_test.sh SOLVENT CONFIG WORKDIR
set -eu
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$solvent" run "$config" --output "$work/whole" --no-progress
"$solvent" run "$config" --set integrator.steps=25 --output "$work/part" --no-progress
# A write the killed run left half done (its temporary, NAME.tmp.PID) is not carried on.
echo "cut short" > "$work/part/network_00000030.vtp.tmp.4242"
"$solvent" run --resume "$work/part" --set integrator.steps=60 --no-progress
[ ! -e "$work/part/network_00000030.vtp.tmp.4242" ] || { echo "a stale temporary survived the resume"; exit 1; }
cmp "$work/whole/checkpoint.bin" "$work/part/checkpoint.bin"
cmp "$work/whole/fields_00000060.vti" "$work/part/fields_00000060.vti"
cmp "$work/whole/network_00000060.vtp" "$work/part/network_00000060.vtp"
# A checkpoint cut short: the resume names the damage (exit 4), it does not say there is none.
"$solvent" run "$config" --set integrator.steps=25 --output "$work/cut" --no-progress
head -c 10 "$work/cut/checkpoint.bin" > "$work/cut/checkpoint.short" && mv "$work/cut/checkpoint.short" "$work/cut/checkpoint.bin"
set +e
"$solvent" run --resume "$work/cut" --set integrator.steps=60 --no-progress > "$work/cut.out" 2>&1
rc=$?
set -e
[ $rc -eq 4 ] || { echo "a cut-short checkpoint: exit $rc, expected 4"; cat "$work/cut.out"; exit 1; }
grep -q "checkpoint.bin: a damaged checkpoint: 10 bytes, cut short before its" "$work/cut.out" ||
  { echo "a cut-short checkpoint: the damage is not named"; cat "$work/cut.out"; exit 1; }
echo "resumed run identical to the uninterrupted one; a cut-short checkpoint refused by name"
