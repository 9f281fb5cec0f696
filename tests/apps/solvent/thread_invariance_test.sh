#!/usr/bin/env bash
# The shipped Helmholtz duct (BiCGSTAB with Jacobi) on 1, 2 and 4 OpenMP threads: the same
# iteration count and the same bits in solution.csv, and the record says how many threads ran.
# usage: thread_invariance_test.sh SOLVENT CONFIG WORK_DIR
set -euo pipefail
solvent=$1 config=$2 work=$3
rm -rf "$work"
for t in 1 2 4; do
  OMP_NUM_THREADS=$t "$solvent" run "$config" --set model.resolution=16 \
    --output "$work/threads-$t" > /dev/null
  grep -q "^threads = $t$" "$work/threads-$t/record.toml" \
    || { echo "record.toml of the $t-thread run does not say threads = $t"; exit 1; }
done
for t in 2 4; do
  cmp "$work/threads-1/solution.csv" "$work/threads-$t/solution.csv" \
    || { echo "solution.csv differs between 1 and $t threads"; exit 1; }
  a=$(grep "^iterations" "$work/threads-1/record.toml")
  b=$(grep "^iterations" "$work/threads-$t/record.toml")
  [ "$a" = "$b" ] || { echo "iterations differ: 1 thread '$a', $t threads '$b'"; exit 1; }
done
echo "1, 2 and 4 threads: $(grep '^iterations' "$work/threads-1/record.toml"), identical solutions"
