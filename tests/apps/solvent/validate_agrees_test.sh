#!/usr/bin/env bash
# `solvent validate` refuses what `solvent run` refuses before its first step, with the same
# messages and exit code, and the run then leaves no folder: both go through one check
# (core/src/run/run_check.hpp). One case per refusal the check makes: a key the schema
# refuses, plugins that do not fit together, a dense conversion beyond max_conversion_mib,
# a missing input file; under mpirun also a plugin that runs on one rank only, a split
# that does not match the ranks (at the split's line) and a split the solver cannot follow.
# usage: validate_agrees_test.sh SOLVENT CONFIG_DIR WORK_DIR [MPIEXEC]
set -uo pipefail
solvent=$1 configs=$2 work=$3 mpiexec=${4:-}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
failures=0

# agree CODE MESSAGE [LAUNCHER...] -- ARGS...: validate and run (ARGS: FILE and --set) both
# exit CODE, both print the line MESSAGE and the same error lines, and the run writes nothing.
agree() {
  local code=$1 message=$2
  shift 2
  local launcher=()
  while [ "$1" != "--" ]; do launcher+=("$1"); shift; done
  shift
  "${launcher[@]}" "$solvent" validate "$@" > validate.txt 2>&1; local v=$?
  "${launcher[@]}" "$solvent" run "$@" --output "$work/run" --no-progress > run.txt 2>&1; local r=$?
  if [ $v -ne "$code" ] || [ $r -ne "$code" ] || ! grep -qxF -- "$message" validate.txt \
    || [ "$(grep '^error:' validate.txt)" != "$(grep '^error:' run.txt)" ] || [ -e "$work/run" ]; then
    printf 'FAIL: %s\n  expected exit %s and the line: %s\n  validate (exit %s):\n%s\n  run (exit %s):\n%s\n' \
      "$*" "$code" "$message" $v "$(cat validate.txt)" $r "$(cat run.txt)"
    failures=$((failures + 1))
  fi
  rm -rf "$work/run"
}

a1d=$configs/angiogenesis-1d-banded.toml
agree 2 "error: --set: [integrator] (integrator 'imex-trapezoid'): unknown key 'stpes'; did you mean 'steps'?" \
  -- "$a1d" --set integrator.stpes=3
agree 2 "error: --set: linear solver 'matm' cannot solve the complex csr system that integrator 'steady' builds for model 'helmholtz': it takes real stencil7, none of them complex" \
  -- "$configs/helmholtz-duct.toml" --set linear_solver.type=matm
agree 2 "error: --set: linear solver 'lapack' takes dense storage: the stencil7 system of 274625 unknowns would take 575400.5 MiB as a dense matrix, more than [linear_solver] max_conversion_mib = 2048; choose a solver that keeps it sparse, or raise the limit" \
  -- "$configs/matm-poisson.toml" --set linear_solver.type=lapack
agree 2 "error: --set: [model] (model 'matrix-file'): key 'matrix': cannot open $work/nothing-here.mtx: No such file or directory" \
  -- "$configs/matrix-file.toml" --set model.matrix=$work/nothing-here.mtx
# A shipped mesh not yet made: the message names the command that makes it. The config in a
# copy of the tree's layout (config/ beside meshes/), so that out/meshes is surely empty.
mkdir -p "$work/tree/config" "$work/tree/meshes" "$work/tree/scripts"
cp "$configs/helmholtz-gmsh-cabin.toml" "$work/tree/config/"
cp "$configs/../meshes/cabin.geo" "$work/tree/meshes/"
cp "$configs/../scripts/make-meshes" "$work/tree/scripts/"
agree 2 "error: $work/tree/config/helmholtz-gmsh-cabin.toml:10:8: [model] (model 'helmholtz'): key 'mesh': cannot open $work/tree/out/meshes/cabin-1.msh: No such file or directory (a shipped mesh: make it with \`$work/tree/scripts/make-meshes -o $work/tree/out/meshes cabin\`, which needs gmsh)" \
  -- "$work/tree/config/helmholtz-gmsh-cabin.toml"

if [ -n "$mpiexec" ]; then
  mpi=("$mpiexec" -n 2 --oversubscribe)
  agree 2 "error: $a1d:42:8: [linear_solver] plugin 'banded' runs on 1 rank only; this run has 2 (mpirun -n 2): run it without mpirun, or choose a distributed plugin (solvent plugins)" \
    "${mpi[@]}" -- "$a1d"
  agree 2 "error: --set: [model] (model 'grid-equations-3d'): the split 1×1×3 of the 65×65×65 node grid makes 3 blocks, but the run has 2 ranks" \
    "${mpi[@]}" -- "$configs/matm-poisson.toml" --set model.split='"1x1x3"'
  agree 2 "error: $configs/matm-poisson.toml:22:8: linear solver 'matm' cannot solve model 'grid-equations-3d' in its blocks: over ranks the triangular sweeps are pipelined along axis 1, which must not be split (the grid is split 2x1x1); split axes 2 and 3 (model.split = \"auto\" does), or run matm-cuda with a GPU per rank on one host, whose sweeps go from GPU to GPU" \
    "${mpi[@]}" -- "$configs/matm-poisson.toml" --set model.split='"2x1x1"'
fi

[ "$failures" -eq 0 ] && echo "validate and run: the same refusals, nothing written"
exit $((failures > 0))
