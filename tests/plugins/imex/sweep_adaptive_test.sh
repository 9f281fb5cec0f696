#!/usr/bin/env bash
# A [sweep] of imex-ark23 members (tolerances and a growth rate) whose runs take different
# numbers of steps: it runs, each member's files are those of its single run, a sweep killed
# after two members resumes to the uninterrupted sweep.csv, and [sweep] batch =
# "imex-batched" runs the adaptive members one by one, saying why, with the same results.
# Also the shipped config/angiogenesis-1d-adaptive.toml (on M = 100): its profiles are those
# of the requested times, each state reached by a step that landed on its time exactly.
# usage: sweep_adaptive_test.sh SOLVENT WORK_DIR SOURCE_DIR
set -uo pipefail
solvent=$1 work=$2 source=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; [ -f out.txt ] && cat out.txt; exit 1; }
cat > sweep.toml <<'TOML'
[run]
name = "sweep-adaptive"
seed = 7
[model]
type = "angiogenesis-1d"
M = 40
[integrator]
type = "imex-ark23"
dt = 0.05
steps = 4
[linear_solver]
type = "banded"
[output]
every = 10
[sweep]
mode = "grid"
[sweep.integrator]
rtol = [1e-3, 1e-5, 1e-7]
[sweep.model.parameters]
k1 = [0.5, 2.0]
TOML
source "$(dirname "$0")/../../support/sweep_csv.sh"  # without_wall, same_csv
column() { awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$1"; }

"$solvent" run sweep.toml --output reference > out.txt 2>&1 || fail "the sweep: exit $?"
[ "$(column reference/sweep.csv status | sort -u)" = ok ] || fail "a member did not complete"
[ "$(column reference/sweep.csv steps | sort -u | wc -l)" -ge 3 ] \
  || fail "the members took the same numbers of steps: $(column reference/sweep.csv steps | tr '\n' ' ')"
[ "$(column reference/sweep.csv t | sort -u)" = 0.2 ] || fail "the members' end times"
# Member 5 (rtol 1e-7, k1 2) as a run of its own.
"$solvent" run sweep.toml --member 5 --output single > out.txt 2>&1 || fail "member 5 alone: exit $?"
cmp reference/members/0005/observables.csv single/observables.csv || fail "member 5's observables"

"$solvent" run sweep.toml --output killed > out.txt 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null && [ "$({ wc -l < killed/sweep.csv; } 2>/dev/null || echo 0)" -lt 3 ]; do
  sleep 0.02
done
kill -KILL $pid; wait $pid 2>/dev/null
"$solvent" run --resume killed > out.txt 2>&1 || fail "resume: exit $?"
grep -Eq "continuing the sweep in killed: [1-4] of 6 members still to run" out.txt \
  || fail "the resume does not say what is left"
same_csv reference killed "resumed against uninterrupted"

"$solvent" run sweep.toml --output batched --set 'sweep.batch="imex-batched"' > out.txt 2>&1 \
  || fail "the sweep with batch: exit $?"
grep -q "run one by one: their integrator 'imex-ark23' is not one the batch takes the steps of (imex-trapezoid)" \
  out.txt || fail "no reason for running the adaptive members one by one"
grep -q "advanced together" out.txt && fail "adaptive members were batched"
same_csv reference batched "batch requested against none"

"$solvent" run "$source/config/angiogenesis-1d-adaptive.toml" --set model.M=100 --output shipped \
  --no-progress > out.txt 2>&1 || fail "config/angiogenesis-1d-adaptive.toml: exit $?"
# The t of every profile's row in observables.csv.
times=$(for f in shipped/profiles/step_*.csv; do
  step=$((10#$(basename "$f" .csv | sed 's/step_//')))
  awk -F, -v s=$step 'NR > 1 && $1 == s { print $2 }' shipped/observables.csv
done | tr '\n' ' ')
[ "$times" = "0 0.10000000000000001 0.20000000000000001 0.29999999999999999 0.40000000000000002 0.5 0.59999999999999998 0.70000000000000007 0.80000000000000004 0.90000000000000002 1 " ] \
  || fail "the profiles' times: $times"

echo "adaptive sweep: members of different step counts ran, resumed and were kept out of the batch"
