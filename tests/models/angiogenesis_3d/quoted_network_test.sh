#!/usr/bin/env bash
# docs/models/angiogenesis-3d.md quotes the network of config/angiogenesis-3d-cuda.toml after
# 6000 steps on 201^3 nodes (its counts, vessel length and furthest tip, the share of
# clipped move probabilities, the step limit at the start and at the end). The same run on
# the CPU engine, which gives the same network bit for bit (a few seconds), must give them.
# usage: quoted_network_test.sh SOLVENT CONFIG MODEL_DOC WORK_DIR
set -uo pipefail
solvent=$1 config=$2 doc=$3 work=$4
fail() { echo "FAIL: $*"; cat "$work.log"; exit 1; }
"$solvent" run "$config" --set integrator.device='"cpu"' --set integrator.fields_every=0 \
  --set integrator.checkpoint_every=0 --output "$work" --overwrite --no-progress > "$work.log" 2>&1 \
  || fail "the run: exit $?"
last() {  # the last row's value of a column of observables.csv
  awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } END { print $c }' \
    "$work/observables.csv"
}
. "$(dirname "$0")/../../support/quoted_text.sh"
[ "$(last step)" = 6000 ] || fail "the run ended at step $(last step)"
quoted "$doc" "$(last sprouts) sprouts, $(last branches) branchings, $(last anastomoses) anastomoses, vessel length $(printf %.1f "$(last vessel_length)"), furthest tip at x = $(printf %.3f "$(last furthest_x)")"
quoted "$doc" "(furthest tip at x = $(printf %.3f "$(last furthest_x)") after 6000)"  # Known limits
quoted "$doc" "$(awk -v s="$(last bad_probability_share)" 'BEGIN { printf "%.1f", 100 * s }') % of the coefficients at 201³ after 6000 steps"
quoted "$doc" "$(printf %.3f "$(last bad_probability_share)") (\`config/angiogenesis-3d-cuda.toml\`, run on the CPU)"
start=$(sed -n 's/.*(limit \([0-9.e+-]*\)), from step 0$/\1/p' "$work.log")
quoted "$doc" "the limit is $(printf %.2g "$start") (201³)"
end=$(sed -n 's/.*at step 6000 dt = [0-9.e+-]* exceeds the step limit \([0-9.e+-]*\) .*/\1/p' "$work.log")
quoted "$doc" "$(printf %.1e "$end" | sed 's/e-0/e-/') at 201³ after 6000"
echo "the 201^3 network as the model's page quotes it"
