#!/usr/bin/env bash
# matrix-file over MPI ranks (mpirun -n 1, 2, 4; complex rows dealt unevenly over 2-4): the
# rows split by Scotch, each rank its own; every Krylov solver with no or a split-independent
# preconditioner (Jacobi) ends with one rank's solution and, to rounding, its iteration
# count (within 10 %: the split reorders the sums, and BiCGSTAB amplifies that), block Jacobi
# (ilu0), PETSc's bjacobi/ILU, asm, hypre and gamg on one MPIAIJ matrix converge to it too;
# the iteration counts against the number of ranks are printed and must be those
# docs/krylov.md quotes; a malformed file ends every
# rank with one located message.
# usage: over_ranks_test.sh SOLVENT MPIEXEC PYTHON DATA_DIR WORK_DIR
. "$(dirname "$0")/runs.sh" "$@"
. "$(dirname "$0")/../../../support/krylov_ranks_table.sh"

echo "solver preconditioner ranks iterations"
for case in "cg jacobi 1 2 4" "bicgstab none 1 2" "bicgstab-l jacobi 1 4" "tfqmr jacobi 1 2"; do
  set -- $case
  for n in "${@:3}"; do
    name="$1-$2-n$n"
    run $n "$name" --set model.matrix="\"$work/laplacian.mtx\"" --set linear_solver.type="\"$1\"" \
      --set preconditioner.type="\"$2\"" || fail "$name: exit $?"
    echo "$1 $2 $n $(iterations "$name")"
    label=$1
    [ "$1" = bicgstab-l ] && label="bicgstab-l (l = 8, cycles)"
    quoted_iterations "Laplacian 480 | $label | $2" $n "$(iterations "$name")"
    [ "$(grep -c '^run completed' "$work/out.txt")" -eq 1 ] || fail "$name: not one summary"
    if [ $n -gt 1 ]; then
      grep -q "^partition = 'scotch'" "$work/$name/record.toml" || fail "$name: no partition recorded"
      grep -q "^edge_cut = " "$work/$name/record.toml" || fail "$name: no edge cut recorded"
      # The maths does not depend on the split: one rank's iterations, to rounding (the
      # split reorders the sums; BiCGSTAB's count moves by a few where CG's does not).
      close_to "$name" "$1-$2-n1"
      agrees "$name" "$1-$2-n1" 1e-9
    fi
  done
done

# The naive split, contiguous index ranges of the shuffled unknowns: the same solution, and
# a record that shows Scotch's edge cut to be the smaller by far.
run 2 contiguous-n2 --set model.matrix="\"$work/laplacian.mtx\"" --set linear_solver.type='"cg"' \
  --set preconditioner.type='"jacobi"' --set model.partition='"contiguous"' || fail "contiguous-n2: exit $?"
agrees contiguous-n2 cg-jacobi-n1 1e-9
cut() { sed -n "s/^edge_cut = '\(.*\)'/\1/p" "$work/$1/record.toml"; }
echo "edge cut over 2 ranks: scotch $(cut cg-jacobi-n2), contiguous $(cut contiguous-n2)"
grep -q "^partition = 'contiguous'" "$work/contiguous-n2/record.toml" || fail "contiguous-n2: partition not recorded"
[ $(( 4 * $(cut cg-jacobi-n2) )) -lt "$(cut contiguous-n2)" ] || fail "Scotch's edge cut is not a quarter of the ranges'"

# Block Jacobi (ILU(0) of each rank's diagonal block), restricted additive Schwarz (overlap
# 1 and 2 layers) and PETSc's on one MPIAIJ matrix: the preconditioner changes with the
# split, the solution does not; the overlap takes no more iterations than block Jacobi.
for n in 1 4; do
  for overlap in 0 1 2; do
    [ $n -eq 1 ] && [ $overlap -gt 0 ] && continue
    name="ilu0-overlap$overlap-n$n"
    run $n "$name" --set model.matrix="\"$work/laplacian.mtx\"" --set preconditioner.type='"ilu0"' \
      --set preconditioner.overlap=$overlap || fail "$name: exit $?"
    echo "bicgstab ilu0(overlap $overlap) $n $(iterations "$name")"
    if [ $overlap -eq 0 ]; then
      quoted_iterations "Laplacian 480 | bicgstab | ilu0 (block Jacobi)" $n "$(iterations "$name")"
    else
      quoted_iterations "Laplacian 480 | bicgstab | ilu0, overlap 1 / 2" $n "$(iterations "$name")" $overlap
    fi
    agrees "$name" "bicgstab-none-n1" 1e-9
    [ $overlap -eq 0 ] || [ "$(iterations "$name")" -le "$(iterations "ilu0-overlap0-n$n")" ] \
      || fail "$name: more iterations than block Jacobi"
  done
done
if "$solvent" plugins 2>/dev/null | grep -q "^linear_solver *petsc "; then
  run 2 petsc-n2 --set model.matrix="\"$work/laplacian.mtx\"" --set linear_solver.type='"petsc"' \
    --set linear_solver.pc_type='"bjacobi"' --set preconditioner.type='"none"' || fail "petsc-n2: exit $?"
  echo "petsc bjacobi/ilu 2 $(iterations petsc-n2)"
  quoted_iterations "Laplacian 480 | petsc (gmres, bjacobi) | —" 2 "$(iterations petsc-n2)"
  agrees petsc-n2 bicgstab-none-n1 1e-8
  # PETSc's additive Schwarz as Solvent's preconditioner, built from the same MPIAIJ matrix.
  run 2 petsc-pc-n2 --set model.matrix="\"$work/laplacian.mtx\"" --set preconditioner.type='"petsc-pc"' \
    --set preconditioner.pc_type='"asm"' || fail "petsc-pc-n2: exit $?"
  echo "bicgstab petsc-pc(asm) 2 $(iterations petsc-pc-n2)"
  quoted_iterations "Laplacian 480 | bicgstab | petsc-pc asm" 2 "$(iterations petsc-pc-n2)"
  agrees petsc-pc-n2 bicgstab-none-n1 1e-9
  # hypre's BoomerAMG and PETSc's GAMG on the same MPIAIJ matrix, 1 to 4 ranks: the solution
  # of one rank without preconditioner; multigrid takes under a fifth of its iterations, and
  # more subdomains (coarsening per rank) add at most two.
  for pc in hypre gamg; do
    for n in 1 2 3 4; do
      name="petsc-pc-$pc-n$n"
      run $n "$name" --set model.matrix="\"$work/laplacian.mtx\"" --set preconditioner.type='"petsc-pc"' \
        --set preconditioner.pc_type="\"$pc\"" || fail "$name: exit $?"
      echo "bicgstab petsc-pc($pc) $n $(iterations "$name")"
      label="petsc-pc gamg"
      [ $pc = hypre ] && label="petsc-pc hypre (BoomerAMG)"
      quoted_iterations "Laplacian 480 | bicgstab | $label" $n "$(iterations "$name")"
      agrees "$name" bicgstab-none-n1 1e-9
      [ $(( 5 * $(iterations "$name") )) -lt "$(iterations bicgstab-none-n1)" ] \
        || fail "$name: $(iterations "$name") iterations, not under a fifth of $(iterations bicgstab-none-n1)"
      [ "$(iterations "$name")" -le $(( $(iterations "petsc-pc-$pc-n1") + 2 )) ] \
        || fail "$name: $(iterations "$name") iterations, one rank $(iterations "petsc-pc-$pc-n1")"
    done
    # PETSc's own KSP (GMRES) with it over 2 ranks.
    run 2 "petsc-$pc-n2" --set model.matrix="\"$work/laplacian.mtx\"" --set linear_solver.type='"petsc"' \
      --set linear_solver.pc_type="\"$pc\"" --set preconditioner.type='"none"' || fail "petsc-$pc-n2: exit $?"
    echo "petsc $pc 2 $(iterations "petsc-$pc-n2")"
    quoted_iterations "Laplacian 480 | petsc (gmres) | hypre / gamg (its \`pc_type\`)" 2 \
      "$(iterations "petsc-$pc-n2")" "$([ $pc = hypre ] && echo 1 || echo 2)"
    agrees "petsc-$pc-n2" bicgstab-none-n1 1e-8
  done
fi

# Complex values, 81 rows over 2, 3 and 4 ranks (uneven counts), split by Scotch and in
# ranges: one rank's solution and, to rounding, its iterations.
for n in 1 2 3 4; do
  for split in scotch contiguous; do
    [ $n -eq 1 ] && [ $split = contiguous ] && continue
    name="complex-$split-n$n"
    run $n "$name" --set model.matrix="\"$data/helmholtz-duct.mtx\"" \
      --set preconditioner.type='"jacobi"' --set model.partition="\"$split\"" \
      || fail "$name: exit $?"
    echo "bicgstab jacobi (complex, $split) $n $(iterations "$name")"
    [ $n -eq 1 ] && continue
    agrees "$name" complex-scotch-n1 1e-9
    close_to "$name" complex-scotch-n1
  done
done

# A malformed file: rank 0 reads it; one message, located, exit 4.
run 2 bad --set model.matrix="\"$work/bad.mtx\""; rc=$?
[ $rc -eq 4 ] || fail "a malformed matrix over 2 ranks: exit $rc, expected 4"
[ "$(grep -c "^error: $work/bad.mtx:4: " "$work/out.txt")" -eq 1 ] \
  || fail "a malformed matrix over 2 ranks: not one located message"
exit 0
