#!/usr/bin/env bash
# config/krylov-cabin-bicgstab-l.toml solved to its tolerance (about 10 s on two cores):
# it converges in the number of cycles its comment and docs/krylov.md quote.
# usage: krylov_cabin_test.sh SOLVENT CONFIG KRYLOV_DOC WORK_DIR
set -uo pipefail
solvent=$1 config=$2 doc=$3 work=$4
fail() { echo "FAIL: $*"; cat "$work.log"; exit 1; }
. "$(dirname "$0")/../../support/quoted_text.sh"
"$solvent" run "$config" --output "$work" --overwrite --no-progress > "$work.log" 2>&1 \
  || fail "the run: exit $?"
grep -q "^converged = true$" "$work/record.toml" || fail "the solve did not converge"
cycles=$(sed -n 's/^iterations = //p' "$work/record.toml")
quoted "$config" "at most 1000 cycles ($cycles here,"
quoted "$doc" "cabin-40 in $cycles cycles instead of"
echo "krylov cabin: converged in $cycles cycles, as its comment and docs/krylov.md say"
