# Sourced by the shell tests that solve grid-equations-3d over MPI ranks, after they set
# $work: the environment mpirun needs in CI (as root, one thread a rank on a small
# machine), how a test fails, how it reads the record, and the problem file they share.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
# value DIR KEY: the first KEY = ... of DIR's record, without quotes.
value() { sed -n "s/^ *$2 = //p" "$1/record.toml" | head -1 | tr -d "'"; }
# grid_problem FILE SOLVER PROBLEM N1 N2 N3 [TOML]: a steady solve to 1e-10, TOML appended.
grid_problem() {
  cat > "$1" <<TOML
[run]
name = "grid-$2-$3"
[model]
type = "grid-equations-3d"
n1 = $4
n2 = $5
n3 = $6
problem = "$3"
[integrator]
type = "steady"
[linear_solver]
type = "$2"
tolerance = 1e-10
${7:-}
TOML
}
