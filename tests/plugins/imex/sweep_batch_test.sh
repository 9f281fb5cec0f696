#!/usr/bin/env bash
# [sweep] batch = "imex-batched": the six members of config/sweep-angiogenesis-1d.toml
# advanced as one batch write the same member folders as the sweep's member processes —
# sweep.csv equal but for the wall times, every member's observables and profiles equal byte
# for byte; a batch integrator that does not exist is refused before anything runs (exit 2);
# members whose [integrator] sets a key the batch integrator lacks run one by one, as without
# batch, and say why.
# usage: sweep_batch_test.sh SOLVENT SOURCE_DIR WORK_DIR
set -uo pipefail
solvent=$1 source=$2 work=$3
file=$source/config/sweep-angiogenesis-1d.toml
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
without_wall() { python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
w = rows[0].index("wall_s")
for r in rows: print(",".join(r[:w] + r[w + 1:]))' "$1"; }

"$solvent" run "$file" --output "$work/processes" > "$work/processes.log" 2>&1 \
  || fail "the sweep without batch failed: $(tail -3 "$work/processes.log")"
"$solvent" run "$file" --output "$work/batched" --set 'sweep.batch="imex-batched"' \
  > "$work/batched.log" 2>&1 || fail "the batched sweep failed: $(tail -3 "$work/batched.log")"
grep -q "sweep members 0, 1, 2, 3, 4, 5 advanced together by 'imex-batched'" "$work/batched.log" \
  || fail "no batch in the log: $(cat "$work/batched.log")"
diff <(without_wall "$work/processes/sweep.csv") <(without_wall "$work/batched/sweep.csv") \
  || fail "sweep.csv differs"
for m in "$work"/processes/members/????; do
  id=$(basename "$m")
  cmp "$m/observables.csv" "$work/batched/members/$id/observables.csv" || fail "member $id observables"
  diff -r "$m/profiles" "$work/batched/members/$id/profiles" > /dev/null || fail "member $id profiles"
  grep -Eq "status = ['\"]completed" "$work/batched/members/$id/record.toml" || fail "member $id record"
done

"$solvent" run "$file" --output "$work/unknown" --set 'sweep.batch="imex-nonesuch"' \
  > "$work/unknown.log" 2>&1
code=$?
[ "$code" = 2 ] || fail "an unknown batch integrator exited $code, not 2"
grep -q "imex-nonesuch" "$work/unknown.log" || fail "the refusal does not name it: $(cat "$work/unknown.log")"
[ ! -e "$work/unknown/members" ] || fail "members ran under an unknown batch integrator"

"$solvent" run "$file" --output "$work/rannacher" --set 'sweep.batch="imex-batched"' \
  --set integrator.rannacher_steps=2 > "$work/rannacher.log" 2>&1 \
  || fail "the sweep with rannacher_steps failed: $(tail -3 "$work/rannacher.log")"
grep -q "run one by one: \[integrator\] rannacher_steps has no counterpart" "$work/rannacher.log" \
  || fail "no reason for running one by one: $(cat "$work/rannacher.log")"
grep -q "advanced together" "$work/rannacher.log" && fail "members with rannacher_steps were batched"
echo "batched sweep: 6 members equal to their processes' folders; refusals as expected"
