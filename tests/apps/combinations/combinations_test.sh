#!/usr/bin/env bash
# solvent-combinations finds no disagreement with the reference and no unexpected failure, and
# prints byte for byte the block between the combinations markers of docs/combinations.md.
# Without PETSc (HAVE_PETSC 0) the rows of petsc, petsc-complex, petsc-pc and
# petsc-pc-complex are not expected.
# usage: combinations_test.sh SOLVENT_COMBINATIONS SOURCE_DIR WORK_DIR [HAVE_PETSC]
# To refresh the doc: scripts/update-combinations build/bin/solvent-combinations
set -euo pipefail
exe=$1 source=$2 work=$3 have_petsc=${4:-1}
doc=$source/docs/combinations.md
mkdir -p "$work"
awk '/<!-- combinations:begin -->/{f=1;next} /<!-- combinations:end -->/{f=0} f' "$doc" \
  > "$work/expected.md"
[ -s "$work/expected.md" ] || { echo "no table between the combinations markers in $doc"; exit 1; }
if [ "$have_petsc" != 1 ]; then
  grep -v ' | petsc\(-pc\)\?\(-complex\)\? | ' "$work/expected.md" > "$work/expected-no-petsc.md"
  mv "$work/expected-no-petsc.md" "$work/expected.md"
fi
if ! "$exe" "$source" "$work/runs" > "$work/actual.md"; then
  cat "$work/actual.md"
  echo "solvent-combinations: a combination disagrees or fails unexpectedly (FAILED lines above)"
  exit 1
fi
if ! diff "$work/expected.md" "$work/actual.md"; then
  echo "docs/combinations.md's table (<) differs from solvent-combinations (>);"
  echo "refresh it with scripts/update-combinations $exe"
  exit 1
fi
echo "docs/combinations.md: $(grep -c '^| ' "$work/actual.md") table lines, as solvent-combinations prints them"
