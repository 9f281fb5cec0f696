#!/usr/bin/env bash
# A plugin that runs on a CUDA GPU only, on a machine where no CUDA device can be used (here:
# CUDA_VISIBLE_DEVICES hides every device from the driver), is refused by `solvent validate`
# as by `solvent run` before anything is made: one line at its type line naming the solver,
# why no device can be used and its CPU counterpart, exit 7 (no GPU), no folder written; with
# a fallback configured both go ahead.
# usage: gpu_only_validate_test.sh SOLVENT CONFIG_DIR WORK_DIR
set -uo pipefail
solvent=$1 configs=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export CUDA_VISIBLE_DEVICES=
config=$configs/matm-poisson.toml
small=(--set model.n1=9 --set model.n2=9 --set model.n3=9 --set linear_solver.type=cg-cuda)
failures=0
fail() { echo "FAIL: $*"; cat out.txt; failures=$((failures + 1)); }

for command in validate run; do
  extra=()  # validate writes nothing and shows no progress: it takes neither option
  [ "$command" = run ] && extra=(--output run --no-progress)
  "$solvent" "$command" "$config" "${small[@]}" "${extra[@]}" > out.txt 2>&1; rc=$?
  line=$(grep '^error:' out.txt)
  [ $rc -eq 7 ] && [ "$(grep -c '^error:' out.txt)" -eq 1 ] && [ ! -e run ] \
    && [[ "$line" == "error: --set: linear solver 'cg-cuda' runs on a CUDA GPU only, and this machine has none: "* ]] \
    && [[ "$line" == *"; use its CPU counterpart 'cg' (--set linear_solver.type=cg), or keep it with [linear_solver] fallback = \"cg\"" ]] \
    || fail "$command without a usable GPU: exit $rc"
done
"$solvent" validate "$config" "${small[@]}" --set linear_solver.fallback=cg > out.txt 2>&1 \
  || fail "validate with a fallback: exit $?"
"$solvent" run "$config" "${small[@]}" --set linear_solver.fallback=cg --output fell \
  --no-progress > out.txt 2>&1 && grep -q "falling back to linear solver 'cg'" out.txt \
  || fail "run with a fallback: exit $?"
[ "$failures" -eq 0 ] && echo "a GPU-only solver without a GPU: refused by validate as by run"
exit $((failures > 0))
