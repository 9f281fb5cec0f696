# What the tests over ranks share (sourced): the arguments, a fresh work folder holding
# make_matrices.py's files, and the runs and comparisons.
# usage: . runs.sh SOLVENT MPIEXEC PYTHON DATA_DIR WORK_DIR
set -uo pipefail
solvent=$1 mpiexec=$2 python=$3 data=$4 work=$5
here=$(dirname "${BASH_SOURCE[0]}")
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
fail() { echo "FAIL: $*"; cat "$work/out.txt"; exit 1; }
"$python" "$here/make_matrices.py" "$work" || fail "make_matrices.py"
run() {  # run N NAME settings...
  local n=$1 name=$2; shift 2
  timeout 60 "$mpiexec" -n "$n" --oversubscribe "$solvent" run "$here/system.toml" \
    --output "$work/$name" "$@" > "$work/out.txt" 2>&1
}
iterations() { sed -n 's/^iterations = //p' "$work/$1/record.toml"; }
# The largest |x_n - x_1| over the largest |x_1|, from two solution.csv (real or complex).
difference() {
  "$python" - "$work/$1/solution.csv" "$work/$2/solution.csv" <<'PY'
import csv, sys
def read(p):
    rows = list(csv.reader(open(p)))[1:]
    return [complex(float(r[1]), float(r[2]) if len(r) > 2 else 0.0) for r in rows]
a, b = read(sys.argv[1]), read(sys.argv[2])
assert len(a) == len(b), (len(a), len(b))
print(max(abs(x - y) for x, y in zip(a, b)) / max(abs(y) for y in b))
PY
}
close_to() {  # close_to NAME REFERENCE: iterations within 10 % (and 2) of the reference's
  local a b; a=$(iterations "$1") b=$(iterations "$2")
  [ $(( (a - b) * (a - b) )) -le $(( (b / 10 > 2 ? b / 10 : 2) ** 2 )) ] \
    || fail "$1: $a iterations, one rank $b"
}
agrees() {  # agrees NAME REFERENCE TOLERANCE
  local d; d=$(difference "$1" "$2") || fail "$1: no solution to compare"
  "$python" -c "import sys; sys.exit(0 if $d <= $3 else 1)" || fail "$1: differs from $2 by $d"
}
