#!/usr/bin/env bash
# matrix-file over MPI ranks reads its files once, on rank 0: traced with strace (when this
# machine has it), rank 0 reads the matrix and the right-hand side and rank 1 reads neither;
# a right-hand side from a file, dealt out with the rows, gives the solution of the same b
# made on one rank; and every way a file can be wrong (header, entry, index out of range,
# NaN, too few entries, not square, a vector of the wrong length, a missing file) ends both
# ranks of a run of two with one message, the one rank's run gives, at its line, and its
# exit code, within the run's time limit.
# usage: read_once_test.sh SOLVENT MPIEXEC PYTHON DATA_DIR WORK_DIR [STRACE]
strace=${6:-}
. "$(dirname "$0")/runs.sh" "$@"

# b read from a file over 2 ranks (each rank gets its rows' entries): the solution of b = A x
# for the ramp x, made by the model on one rank.
matrix=(--set model.matrix="\"$work/laplacian.mtx\"")
run 1 product-n1 "${matrix[@]}" --set linear_solver.type='"cg"' --set preconditioner.type='"jacobi"' \
  || fail "product-n1: exit $?"
run 2 rhs-file-n2 "${matrix[@]}" --set linear_solver.type='"cg"' --set preconditioner.type='"jacobi"' \
  --set model.rhs='"file"' --set model.rhs_file="\"$work/laplacian-rhs.mtx\"" \
  || fail "rhs-file-n2: exit $?"
agrees rhs-file-n2 product-n1 1e-9

# Who reads the files: strace names each read's file (-y); the configuration's check that a
# file opens, which every rank makes, opens it without reading it.
if [ -n "$strace" ]; then
  timeout 60 "$mpiexec" -n 2 --oversubscribe bash -c \
    'exec "$0" -f -qq -y -e trace=read -o "$1.$OMPI_COMM_WORLD_RANK" "${@:2}"' "$strace" \
    "$work/trace" "$solvent" run "$here/system.toml" --output "$work/traced" "${matrix[@]}" \
    --set model.rhs='"file"' --set model.rhs_file="\"$work/laplacian-rhs.mtx\"" \
    > "$work/out.txt" 2>&1 || fail "traced run: exit $?"
  for f in laplacian.mtx laplacian-rhs.mtx; do
    grep -q "^[0-9]* *read([0-9]*<$work/$f>" "$work/trace.0" || fail "rank 0 did not read $f"
    ! grep -q "<$work/$f>" "$work/trace.1" || fail "rank 1 read $f: $(grep "<$work/$f>" "$work/trace.1" | head -1)"
  done
else
  echo "strace not found: who reads the files was not checked"
fi

# Each malformed file over 2 ranks: exit 4 and exactly one rank's message, located. The
# message is the one rank's, and one of them is written out in full.
bad() {  # bad FILE EXPECTED_MESSAGE settings...
  local file=$1 expected=$2; shift 2
  run 1 "bad-n1" --set model.matrix="\"$file\"" "$@"; local rc1=$?
  cp "$work/out.txt" "$work/out-n1.txt"
  run 2 "bad-n2" --set model.matrix="\"$file\"" "$@"; local rc2=$?
  [ $rc1 -eq 4 ] || fail "$file on one rank: exit $rc1, expected 4"
  [ $rc2 -eq 4 ] || fail "$file over 2 ranks: exit $rc2, expected 4"
  [ "$(grep -c '^error: ' "$work/out.txt")" -eq 1 ] || fail "$file over 2 ranks: not one message"
  [ "$(grep '^error: ' "$work/out.txt")" = "$(grep '^error: ' "$work/out-n1.txt")" ] \
    || fail "$file over 2 ranks: not the one rank's message: $(grep '^error: ' "$work/out-n1.txt")"
  [ "$(grep '^error: ' "$work/out.txt")" = "error: $expected" ] \
    || fail "$file over 2 ranks: expected 'error: $expected'"
}
bad "$work/bad.mtx" "$work/bad.mtx:4: non-numeric entry 'x'"
bad "$data/bad-banner.mtx" \
  "$data/bad-banner.mtx:1: expected the banner '%%MatrixMarket matrix <format> <field> <symmetry>'"
bad "$data/bad-row.mtx" "$data/bad-row.mtx:4: row index 4 out of range 1..3"
bad "$data/bad-nan.mtx" "$data/bad-nan.mtx:4: entry (3, 5) is NaN"
bad "$data/bad-short.mtx" \
  "$data/bad-short.mtx:5: the file ends after 3 of the 4 entries declared on line 2"
bad "$work/rectangular.mtx" \
  "$work/rectangular.mtx: the matrix is 3 x 2; a linear system needs a square matrix"
bad "$work/laplacian.mtx" \
  "$work/short-rhs.mtx: the vector has 3 entries, the matrix $work/laplacian.mtx has 480 rows" \
  --set model.rhs='"file"' --set model.rhs_file="\"$work/short-rhs.mtx\""

# A missing file is the configuration's error (exit 2), said once by rank 0.
run 2 missing --set model.matrix="\"$work/missing.mtx\""; rc=$?
[ $rc -eq 2 ] || fail "a missing matrix over 2 ranks: exit $rc, expected 2"
[ "$(grep -c "^error: .*cannot open $work/missing.mtx: No such file or directory" "$work/out.txt")" -eq 1 ] \
  || fail "a missing matrix over 2 ranks: not one message"
exit 0
