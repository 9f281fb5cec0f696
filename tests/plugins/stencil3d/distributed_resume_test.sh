#!/usr/bin/env bash
# `solvent run --resume DIR` over MPI ranks: a run checkpointed at step 25 on 2 ranks and
# continued on 2 ranks ends with the files of the uninterrupted one-process run, byte for
# byte; so does one checkpointed on 4 ranks and continued on 1 process, and one
# checkpointed by 1 process and continued on 3 ranks (the checkpoint is the whole state,
# whatever the ranks that wrote it). The fields, which each rank writes for its block, are
# compared as Debian's VTK reads them (read_fields.py, where PYTHON is given), and
# series.pvd keeps the first run's entries (its last step's) before the resumed run's.
#   distributed_resume_test.sh SOLVENT MPIEXEC CONFIG WORKDIR [PYTHON READ_FIELDS]
set -u
solvent=$1 mpiexec=$2 config=$3 work=$4 python=${5:-} readers=${6:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
settings=(--set integrator.max_segments=4000 --no-progress)
source "$(dirname "$0")/run_ranks.sh"

# series.pvd's times and parts, one line each.
times() { sed -n 's/.*timestep="\([^"]*\)" part="\([0-9]\)".*/\1 \2/p' "$1/series.pvd"; }

run 0 "$config" --output "$work/whole" || fail "the uninterrupted run: exit $?"
for ranks in "2 2" "4 0" "0 3"; do
  set -- $ranks
  first=$1 then=$2 part="$work/part-$1-$2"
  run "$first" "$config" --set integrator.steps=25 --output "$part" ||
    fail "the first 25 steps on $first ranks: exit $?"
  before=$(times "$part")
  run "$then" --resume "$part" --set integrator.steps=60 ||
    fail "resumed on $then ranks: exit $?"
  for f in checkpoint.bin network_00000060.vtp; do
    cmp "$work/whole/$f" "$part/$f" || fail "$f: checkpointed on $first, resumed on $then ranks"
  done
  fields=$(cd "$part" && ls fields_00000060.*)
  [ "$fields" = "fields_00000060.$([ "$then" -gt 1 ] && echo pvti || echo vti)" ] ||
    fail "resumed on $then ranks: $fields"
  if [ -n "$readers" ]; then
    "$python" "$readers" compare "$part/$fields" "$work/whole/fields_00000060.vti" > "$work/c.txt" ||
      fail "$fields: checkpointed on $first, resumed on $then ranks: $(cat "$work/c.txt")"
  fi
  [ "$(times "$part")" = "$(printf '%s\n%s' "$before" "$(times "$work/whole")")" ] ||
    fail "series.pvd: checkpointed on $first, resumed on $then ranks: $(times "$part")"
  echo "checkpointed on $first, resumed on $then ranks (0: one process without mpirun): identical"
done
