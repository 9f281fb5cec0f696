#!/usr/bin/env bash
# Every kind of field file the core writes, read by readers that are not Solvent's (Debian's
# VTK: vtkXMLImageDataReader, vtkXMLPImageDataReader, vtkHDFReader; and h5py), holds the
# solver's solution bit for bit, on 1, 2 and 4 ranks with uneven blocks (13x11x9 nodes).
# The reference is the one-rank solution as 17-digit text (format = "vtk-ascii"), which reads
# back to the solver's doubles; raw binary .vti, the .pvti of pieces and the one .vtkhdf file
# written by all ranks together must equal it, float32 output to the reference's rounding.
# An output file that cannot be created during the collective write ends every rank with one
# message naming it, exit 1.
# usage: field_readers_test.sh SOLVENT MPIEXEC CONFIG PYTHON READ_FIELDS WORK_DIR
set -uo pipefail
solvent=$1 mpiexec=$2 config=$3 python=$4 read_fields=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
fail() { echo "FAIL: $*"; cat "$work/out.txt"; exit 1; }
ranks() { local n=$1; shift; SOLVENT_RANK_TIMEOUT=30 timeout -k 5 60 "$mpiexec" -n "$n" --oversubscribe "$solvent" run "$config" "$@" > "$work/out.txt" 2>&1; }
compare() { "$python" "$read_fields" compare "$@" >> "$work/log.txt" 2>&1 || { cat "$work/log.txt"; fail "compare $*"; }; }

ranks 1 --output "$work/reference" --set 'output.format="vtk-ascii"' || fail "reference: exit $?"
ref=$work/reference/solution.vti
for n in 1 2 4; do
  ranks $n --output "$work/vtk-$n" || fail "-n $n vtk: exit $?"
  ranks $n --output "$work/hdf-$n" --set 'output.format="vtkhdf"' || fail "-n $n vtkhdf: exit $?"
  [ "$(find "$work/hdf-$n" -name '*.vt*' | wc -l)" -eq 1 ] || fail "-n $n vtkhdf: not one field file"
  grep -q "'solution.vtkhdf'" "$work/hdf-$n/record.toml" || fail "-n $n: the record does not list solution.vtkhdf"
  compare "$work/hdf-$n/solution.vtkhdf" "$ref"
done
compare "$work/vtk-1/solution.vti" "$ref"
compare "$work/vtk-2/solution.pvti" "$ref"
compare "$work/vtk-4/solution.pvti" "$ref"
# Blocks cut along every axis (7+6, 6+5, 5+4 nodes): the same field.
ranks 4 --output "$work/hdf-2x2x1" --set 'output.format="vtkhdf"' --set 'model.split="2x2x1"' || fail "2x2x1: exit $?"
ranks 4 --output "$work/vtk-2x2x1" --set 'model.split="2x2x1"' || fail "2x2x1 vtk: exit $?"
compare "$work/hdf-2x2x1/solution.vtkhdf" "$work/vtk-2x2x1/solution.pvti"
ranks 2 --output "$work/hdf-f32" --set 'output.format="vtkhdf"' --set 'output.precision="float32"' || fail "float32: exit $?"
compare "$work/hdf-f32/solution.vtkhdf" "$ref" --float32

# The file cannot be created (a folder holds its name): every rank fails, one message naming
# the file, exit 1; the record says failed.
mkdir -p "$work/hdf-2/solution.vtkhdf.partial/x"
ranks 2 --overwrite --output "$work/hdf-2" --set 'output.format="vtkhdf"'; rc=$?
[ $rc -eq 1 ] || fail "an uncreatable solution.vtkhdf: exit $rc, expected 1"
[ "$(grep -c '^error: ' "$work/out.txt")" -eq 1 ] && grep -Eq "^error: (rank [0-9]+: )?cannot write .*/solution.vtkhdf: cannot create solution.vtkhdf.partial: Is a directory" "$work/out.txt" \
  || fail "an uncreatable solution.vtkhdf: not one message naming the file"
grep -q "^status = 'failed'" "$work/hdf-2/record.toml" || fail "uncreatable: the record does not say failed"
[ ! -e "$work/hdf-2/solution.vtkhdf" ] || fail "uncreatable: a solution.vtkhdf was left"
echo "field files: .vti, .pvti (2, 4 ranks) and .vtkhdf (1, 2, 4 ranks, VTK and h5py) equal the solver's solution"
