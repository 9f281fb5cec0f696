#!/usr/bin/env bash
# The README's plugin table is exactly what `solvent plugins --markdown` prints for the
# plugins this build made (without nvcc the CUDA rows are not expected, nor the CUDA
# plugins that also run on the CPU, device "any", named *-cuda; without PETSc the petsc rows).
# usage: readme_plugin_table_test.sh SOLVENT README HAVE_CUDA [HAVE_PETSC]
# To refresh the table: scripts/update-plugin-table build/bin/solvent
set -euo pipefail
solvent=$1 readme=$2 have_cuda=$3 have_petsc=${4:-1}
expected=$(awk '/<!-- plugin-table:begin -->/{f=1;next} /<!-- plugin-table:end -->/{f=0} f' "$readme")
[ -n "$expected" ] || { echo "no table between the plugin-table markers in $readme"; exit 1; }
if [ "$have_cuda" != ON ]; then
  expected=$(grep -v -e '^| `[^`]*` | [a-z_]* | cuda |' -e '^| `[^`]*-cuda` |' <<<"$expected")
fi
if [ "$have_petsc" != 1 ]; then
  expected=$(grep -v '^| `petsc\(-pc\)\?\(-complex\)\?` |' <<<"$expected")
fi
actual=$("$solvent" plugins --markdown)
if ! diff <(echo "$expected") <(echo "$actual"); then
  echo "README.md's plugin table (<) differs from solvent plugins --markdown (>);"
  echo "refresh it with scripts/update-plugin-table $solvent"
  exit 1
fi
echo "README plugin table: $(grep -c '^| `' <<<"$actual") plugins, as solvent plugins lists them"
