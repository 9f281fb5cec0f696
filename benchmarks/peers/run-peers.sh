#!/usr/bin/env bash
# The comparison of docs/benchmarks.md, "Peers", on one core: peers-benchmark (Solvent's
# Krylov solvers and MATM against PETSc's, the preconditioner search) and imex-1d-bench's rows
# for De Luca et al.'s Table 6 (gepp-cpu, lapack, banded, PETSc GMRES + BoomerAMG, PETSc LU
# with MUMPS) at M = 100, 200, 400, 800.
#
#   benchmarks/peers/run-peers.sh [--full] [BUILD_DIR]     (default build dir: build)
#
# Default: about three minutes. --full: also the 128^3 grids and the preconditioner search on
# cabin-40 (about ten minutes). Exits non-zero when either program's checks fail.
set -euo pipefail
full=0
if [ "${1:-}" = --full ]; then full=1; shift; fi
build=$(cd "${1:-build}" && pwd)
# One core: one OpenMP thread (Solvent's kernels, hypre) and one OpenBLAS thread (lapack),
# fixed when the libraries start, hence here and not in the programs.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
peers=(--sections krylov,multigrid)
if [ $full = 1 ]; then peers=(--sections krylov,multigrid,search --grid 64,128); fi
lscpu | grep -v '^Flags' | sed -n '1,16p'  # sed reads to the end: no SIGPIPE under pipefail
"$build/bin/peers-benchmark" "${peers[@]}"
# imex-1d-bench writes its CSV into the working directory.
cd "$(mktemp -d)"
"$build/bin/imex-1d-bench" --levels 100,200,400,800 --budget-s 1 \
  --only gepp-cpu,banded,petsc-gmres-boomeramg,petsc-lu-mumps
