#!/usr/bin/env bash
# The helmholtz model on the GPU machine's CPUs (16 cores), in one call: the CPU tests of
# the Helmholtz and Matrix Market areas, then mesh-generation and assembly times of the
# built-in cavities at 0.25 to 3.7 million unknowns (taken from the run record's facts),
# with 50 BiCGSTAB iterations each for the per-iteration cost of the CPU solver; and the
# sizes docs/models/helmholtz.md's table quotes of those meshes, too large for the test
# suite (models-helmholtz checks the rows up to 1.6 million tetrahedra), compared with the
# page (a FAIL line names the row).
#
# On the device, with carry [".devdeps"]:   bash scripts/gpu/helmholtz.sh
set -uo pipefail
OUT=${OUT:-/tmp/helmholtz-out}
mkdir -p "$OUT"
source scripts/gpu/configure.sh || exit 1
set +e
# Every plugin the selected tests load (ctest does not build them; without them the tests that
# need them failed here for want of a plugin).
targets="solvent steady cg bicgstab bicgstab-l tfqmr jacobi ilu0 lapack helmholtz matrix-file
  grid-equations-3d models-helmholtz-tests core-matrix-market-tests models-matrix-file-tests
  models-helmholtz-runs-tests"
# -k 0: a failing target of another area must not hide what did build.
ninja -k 0 -C "$BUILD" $targets > "$OUT/build.log" 2>&1 || grep -E "FAILED|error" "$OUT/build.log" | head -20
(cd "$BUILD" && ctest -R "helmholtz|matrix-market|matrix-file" --output-on-failure) > "$OUT/tests.log" 2>&1
tail -8 "$OUT/tests.log"

export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
fact() { grep -m1 "^'\?$2'\? = " "$1/record.toml" | sed "s/.* = //; s/'//g"; }
table=$OUT/helmholtz-assembly.md
{
  echo "| mesh | resolution | unknowns | non-zeros | tetrahedra | mesh s | assembly s | 50 BiCGSTAB iterations s |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$table"
# The page writes a count with its thousands apart: 1350960 -> 1 350 960.
spaced() { echo "$1" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\| \)/\1 \2\3/; ta'; }
source tests/support/quoted_text.sh
failed=0
# The box runs the cylinder's config, whose boundary lists are the defaults the page's
# counts are for (Dirichlet inlet, impedance outlet).
for case in "cabin 40" "cabin 60" "cabin 80" "cabin 100" "cylinder 80" "cylinder 100" "box 128"; do
  set -- $case
  dir=/tmp/helmholtz-$1-$2
  config=config/helmholtz-$1.toml mesh=() label="$1 $2"
  [ "$1" = box ] && config=config/helmholtz-cylinder.toml mesh=(--set model.mesh=builtin:box) \
    label="box $2 (1 m cube)"
  "$BUILD/bin/solvent" run "$config" "${mesh[@]}" --set model.resolution=$2 \
    --set linear_solver.max_iterations=50 --output "$dir" --overwrite --no-progress > "$dir.log" 2>&1
  solve=$(grep -m1 "^solve = " "$dir/record.toml" | sed 's/.* = //')
  echo "| $1 | $2 | $(fact "$dir" nodes) | $(fact "$dir" nonzeros) | $(fact "$dir" tetrahedra) |" \
       "$(fact "$dir" mesh_seconds) | $(fact "$dir" assembly_seconds) | $solve |" >> "$table"
  row="| $label | $(spaced "$(fact "$dir" nodes)") | $(spaced "$(fact "$dir" nonzeros)") | $(spaced "$(fact "$dir" tetrahedra)") |"
  (fail() { echo "FAIL: $*"; exit 1; }; quoted docs/models/helmholtz.md "$row" &&
    echo "PASS: docs/models/helmholtz.md says: $row") || failed=$((failed + 1))
done
cat "$table"
nproc; lscpu | grep -m1 "Model name"
exit $((failed > 0))
