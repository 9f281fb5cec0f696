#!/usr/bin/env bash
# petsc over MPI ranks: grid-equations-3d (a seven-point operator each rank assembles in its
# block) with cg + jacobi (Poisson) and bcgs + jacobi (convection-diffusion) on 1, 2 and 4
# ranks: each rank inserts its own rows of one MPIAIJ matrix; the iterations and the error
# against the exact solution repeat the one-rank run to rounding (PETSc's reductions are not
# Solvent's exact line sums, so not bit for bit).
# petsc-pc over the same ranks, as the preconditioner of Solvent's bicgstab (Poisson): with
# pc_type jacobi the same iterations as Solvent's jacobi, and the same error, on every split;
# with hypre's BoomerAMG (whose coarsening depends on the split) converged in at most two
# iterations more than on one rank, far fewer than with jacobi, and the same error. The
# package's README quotes Solvent's jacobi's iterations and hypre's, the same on every split.
# usage: distributed_test.sh SOLVENT MPIEXEC WORK_DIR README
set -u
solvent=$1 mpiexec=$2 work=$3 readme=$4
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../../support/grid_runs.sh"
source "$(dirname "$0")/../../support/quoted_text.sh"

for case in "cg poisson" "bcgs convection-diffusion"; do
  set -- $case
  ksp=$1 problem=$2
  grid_problem "$work/$ksp.toml" petsc "$problem" 13 11 9 "ksp_type = \"$ksp\"
pc_type = \"jacobi\""
  for run in "1 auto" "2 auto" "4 auto" "2 2x1x1"; do
    set -- $run
    n=$1 split=$2 dir="$work/$ksp-n$1-$2"
    "$mpiexec" --oversubscribe -n "$n" "$solvent" run "$work/$ksp.toml" --output "$dir" \
      --set "model.split=\"$split\"" --no-progress > "$work/out.txt" 2>&1 ||
      fail "$ksp on $n ranks ($split): exit $?"
    [ "$(value "$dir" converged)" = true ] || fail "$ksp on $n ranks ($split) did not converge"
  done
  one="$work/$ksp-n1-auto"
  iterations=$(value "$one" iterations)
  [ "$iterations" -gt 3 ] || fail "$ksp: $iterations iterations, too few to compare"
  for dir in "$work/$ksp"-n[24]-*; do
    what="$ksp, $(basename "$dir") against one rank"
    python3 - "$iterations" "$(value "$dir" iterations)" "$(value "$one" error_l2)" \
      "$(value "$dir" error_l2)" "$(value "$one" error_max)" "$(value "$dir" error_max)" \
      "$(value "$dir" relative_residual)" <<'PY' || fail "$what"
import sys
i1, i2 = int(sys.argv[1]), int(sys.argv[2])
l1, l2, m1, m2, r = map(float, sys.argv[3:])
problems = []
if abs(i1 - i2) > 1: problems.append(f"{i2} iterations, not {i1}")
if abs(l1 - l2) > 1e-6 * abs(l1): problems.append(f"error_l2 {l2} against {l1}")
if abs(m1 - m2) > 1e-6 * abs(m1): problems.append(f"error_max {m2} against {m1}")
if not r <= 1e-9: problems.append(f"true residual {r}")
print("; ".join(problems) if problems else f"iterations {i2} (one rank {i1}), error_l2 {l2:.12e} ({l1:.12e})")
sys.exit(1 if problems else 0)
PY
  done
done
echo "petsc over 2 and 4 ranks repeats one rank to rounding"

grid_problem "$work/pc.toml" bicgstab poisson 13 11 9 $'[preconditioner]\ntype = "jacobi"'
hypre=()
for run in "1 auto" "2 auto" "4 auto" "2 2x1x1"; do
  set -- $run
  for pc in solvent-jacobi jacobi hypre; do
    dir="$work/pc-$pc-n$1-$2" args=()
    [ $pc != solvent-jacobi ] && args=(--set 'preconditioner.type="petsc-pc"'
                                       --set "preconditioner.pc_type=\"$pc\"")
    "$mpiexec" --oversubscribe -n "$1" "$solvent" run "$work/pc.toml" --output "$dir" \
      --set "model.split=\"$2\"" "${args[@]}" --no-progress > "$work/out.txt" 2>&1 ||
      fail "bicgstab + $pc on $1 ranks ($2): exit $?"
    [ "$(value "$dir" converged)" = true ] || fail "bicgstab + $pc on $1 ranks ($2) did not converge"
  done
  one="$work/pc-solvent-jacobi-n1-auto"
  python3 - "$(value "$one" iterations)" "$(value "$one" error_l2)" \
    "$(value "$work/pc-jacobi-n$1-$2" iterations)" "$(value "$work/pc-jacobi-n$1-$2" error_l2)" \
    "$(value "$work/pc-hypre-n1-auto" iterations)" \
    "$(value "$work/pc-hypre-n$1-$2" iterations)" "$(value "$work/pc-hypre-n$1-$2" error_l2)" \
    <<'PY' || fail "bicgstab + petsc-pc on $1 ranks ($2)"
import sys
ij, lj, ipj, lpj, ih1, ih, lh = sys.argv[1:]
ij, ipj, ih1, ih = map(int, (ij, ipj, ih1, ih))
lj, lpj, lh = map(float, (lj, lpj, lh))
problems = []
if abs(ipj - ij) > 1: problems.append(f"petsc-pc jacobi: {ipj} iterations, Solvent's jacobi {ij}")
if abs(lpj - lj) > 1e-6 * lj: problems.append(f"petsc-pc jacobi: error_l2 {lpj} against {lj}")
if ih > ih1 + 2 or 2 * ih >= ij: problems.append(f"hypre: {ih} iterations (one rank {ih1}, jacobi {ij})")
if abs(lh - lj) > 1e-6 * lj: problems.append(f"hypre: error_l2 {lh} against {lj}")
print("; ".join(problems) if problems else
      f"jacobi {ij} iterations, petsc-pc jacobi {ipj}, hypre {ih}; error_l2 {lh:.12e} ({lj:.12e})")
sys.exit(1 if problems else 0)
PY
  hypre+=("$(value "$work/pc-hypre-n$1-$2" iterations)")
done
splits=$(printf '%s\n' "${hypre[@]}" | sort -u)
[ "$(echo "$splits" | wc -l)" = 1 ] || fail "hypre's iterations differ by split: ${hypre[*]}"
quoted "$readme" "takes the iterations of Solvent's \`jacobi\` ($(value "$work/pc-solvent-jacobi-n1-auto" iterations)) and \`\"hypre\"\` $splits on every split"
echo "petsc-pc over 2 and 4 ranks: jacobi as Solvent's, hypre converged as on one rank"
