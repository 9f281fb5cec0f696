#!/usr/bin/env bash
# petsc-pc and petsc-pc-complex in whole runs:
# - `solvent plugins` lists petsc, petsc-complex, petsc-pc and petsc-pc-complex, and `solvent
#   describe` gives each the PC types of its own build's registry (hypre in the real one only);
# - grid-equations-3d Poisson (25^3, a seven-point operator the plugin assembles): bicgstab,
#   tfqmr, bicgstab-l and cg with petsc-pc (hypre's BoomerAMG, ilu, asm) converge to their
#   tolerance (the true residual, recorded) in fewer iterations than with jacobi;
# - helmholtz (builtin:cabin at 10 cells per metre, complex CSR): bicgstab with petsc-pc-complex
#   (ilu) converges, in fewer iterations than with jacobi;
# - `solvent validate`: pc_type = "hypre" with petsc-pc-complex, and an unknown pc_type, are
#   configuration errors (exit 2) located at the value, with their exact messages;
# - the package's README quotes these iterations (its table, the cabin) and this PETSc's
#   version in the message.
# usage: pc_run_test.sh SOLVENT CABIN_CONFIG WORK_DIR README
set -u
solvent=$1 cabin=$2 work=$3 readme=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
source "$(dirname "$0")/../../support/quoted_text.sh"
value() { sed -n "s/^ *$2 = //p" "$1/record.toml" | head -1; }

"$solvent" plugins > "$work/out.txt" 2>&1 || fail "solvent plugins: exit $?"
for name in petsc petsc-complex petsc-pc petsc-pc-complex; do
  grep -Eq "^(linear_solver|preconditioner) +$name " "$work/out.txt" || fail "plugins does not list $name"
done

# describe: the PC types of each build's registry (hypre in the real one only) and the
# factorisation packages (MUMPS in both).
describe_line() {  # describe_line PLUGIN KEY: the description of KEY (the line after it)
  "$solvent" describe "$1" > "$work/out.txt" 2>&1 || fail "describe $1: exit $?"
  grep -A1 "^  $2 " "$work/out.txt" | tail -1
}
for name in petsc petsc-pc; do
  describe_line $name pc_type | grep -q "this PETSc offers: .* hypre, " || fail "describe $name: no hypre"
done
for name in petsc-complex petsc-pc-complex; do
  pcs=$(describe_line $name pc_type)
  case "$pcs" in *"this PETSc offers: "*" ilu, "*) ;; *) fail "describe $name: $pcs" ;; esac
  case "$pcs" in *hypre*) fail "describe $name offers hypre: $pcs" ;; esac
done
for name in petsc petsc-complex petsc-pc petsc-pc-complex; do
  describe_line $name factor_solver_type | grep -q "lu: .*mumps" || fail "describe $name: no MUMPS"
done

cat > "$work/poisson.toml" <<'TOML'
[model]
type = "grid-equations-3d"
n1 = 25
n2 = 25
n3 = 25
problem = "poisson"
[integrator]
type = "steady"
[linear_solver]
type = "bicgstab"
tolerance = 1e-8
max_iterations = 2000
[preconditioner]
type = "jacobi"
TOML

# run DIR ARGS...: a converged run whose recorded true residual meets the tolerance.
run() {
  local dir=$1
  shift
  "$solvent" run "$@" --output "$dir" --no-progress > "$work/out.txt" 2>&1 || fail "$dir: exit $?"
  [ "$(value "$dir" converged)" = true ] || fail "$dir did not converge"
  # The solver's tolerance is among its facts, as a string.
  awk -v r="$(value "$dir" relative_residual)" -v t="$(value "$dir" tolerance | tr -d "'")" \
    'BEGIN { exit !(r > 0 && r <= t) }' || fail "$dir: true residual $(value "$dir" relative_residual)"
}

declare -A label=([bicgstab-l]="bicgstab-l (ℓ-step cycles)")
for method in bicgstab tfqmr bicgstab-l cg; do
  run "$work/$method-jacobi" "$work/poisson.toml" --set "linear_solver.type=\"$method\""
  jacobi=$(value "$work/$method-jacobi" iterations)
  line="$method: jacobi $jacobi" row="| ${label[$method]:-$method} | $jacobi |"
  for pc in hypre ilu asm; do
    dir="$work/$method-$pc"
    run "$dir" "$work/poisson.toml" --set "linear_solver.type=\"$method\"" \
      --set 'preconditioner.type="petsc-pc"' --set "preconditioner.pc_type=\"$pc\""
    iterations=$(value "$dir" iterations)
    [ "$iterations" -lt "$jacobi" ] || fail "$method with $pc: $iterations iterations, jacobi $jacobi"
    line+=", $pc $iterations" row+=" $iterations |"
  done
  quoted "$readme" "$row"
  echo "$line iterations"
done

run "$work/cabin-jacobi" "$cabin" --set model.resolution=10
run "$work/cabin-ilu" "$cabin" --set model.resolution=10 \
  --set 'preconditioner.type="petsc-pc-complex"' --set 'preconditioner.pc_type="ilu"'
jacobi=$(value "$work/cabin-jacobi" iterations) ilu=$(value "$work/cabin-ilu" iterations)
[ "$ilu" -lt "$jacobi" ] || fail "helmholtz: petsc-pc-complex ilu $ilu iterations, jacobi $jacobi"
quoted "$readme" "\`bicgstab\` takes $jacobi iterations with \`jacobi\` and $ilu with \`petsc-pc-complex\`'s \`ilu\`"
echo "helmholtz (complex) bicgstab: jacobi $jacobi, petsc-pc-complex ilu $ilu iterations"

# The messages of `solvent validate`: exit 2, the error located at the value (file:line:col),
# in exactly these words up to the list of the types this PETSc offers, which must hold ilu.
version=$(value "$work/cabin-ilu" petsc_version | tr -d "'")
validate() {  # validate FILE EXPECTED_START
  "$solvent" validate "$1" > "$work/out.txt" 2>&1
  local code=$?
  [ "$code" = 2 ] || fail "validate $1: exit $code, not 2"
  local got
  got=$(grep -m1 '^error: ' "$work/out.txt")
  [ "${got#"$2; it offers: "}" != "$got" ] || fail "validate $1: expected '$2; it offers: ...'"
  case "${got#*; it offers: }, " in *" ilu, "*) ;; *) fail "validate $1: ilu not offered" ;; esac
  echo "validate $(basename "$1"): $2"
}
{ sed '/^\[preconditioner\]/,$d' "$work/poisson.toml"
  printf '[preconditioner]\ntype = "petsc-pc-complex"\npc_type = "hypre"\n'; } > "$work/hypre.toml"
line=$(grep -n '^pc_type' "$work/hypre.toml" | cut -d: -f1)
validate "$work/hypre.toml" "error: $work/hypre.toml:$line:11: [preconditioner] (preconditioner \
'petsc-pc-complex'): pc_type 'hypre' is not available: this PETSc ($version, complex scalars) is \
built without hypre (BoomerAMG is in the real plugins, petsc and petsc-pc)"
grep -q " hypre," "$work/out.txt" && fail "the complex build offers hypre"
quoted "$readme" "pc_type 'hypre' is not available: this PETSc ($version, complex scalars) is built without hypre"
sed 's/^pc_type = "hypre"$/pc_type = "boomeramg"/; s/petsc-pc-complex/petsc-pc/' "$work/hypre.toml" \
  > "$work/unknown.toml"
validate "$work/unknown.toml" "error: $work/unknown.toml:$line:11: [preconditioner] (preconditioner \
'petsc-pc'): pc_type 'boomeramg' is not a PC type of this PETSc ($version)"
echo "petsc-pc and petsc-pc-complex in whole runs: as expected"
