#!/usr/bin/env bash
# `solvent run --resume DIR` continues a run from its checkpoint and ends with the same
# state, byte for byte, as the run that was never interrupted.
#   resume_cli_test.sh SOLVENT CONFIG WORKDIR
set -eu
solvent=$1 config=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$solvent" run "$config" --output "$work/whole" --no-progress
"$solvent" run "$config" --set integrator.steps=25 --output "$work/part" --no-progress
"$solvent" run --resume "$work/part" --set integrator.steps=60 --no-progress
cmp "$work/whole/checkpoint.bin" "$work/part/checkpoint.bin"
cmp "$work/whole/fields_00000060.vti" "$work/part/fields_00000060.vti"
cmp "$work/whole/network_00000060.vtp" "$work/part/network_00000060.vtp"
echo "resumed run identical to the uninterrupted one"
