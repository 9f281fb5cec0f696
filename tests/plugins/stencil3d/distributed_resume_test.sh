#!/usr/bin/env bash
# `solvent run --resume DIR` over MPI ranks: a run checkpointed at step 25 on 2 or 4 ranks
# and continued on as many ends with the files of the uninterrupted one-process run (the
# network byte for byte, the fields as Debian's VTK reads them (read_fields.py, where PYTHON
# is given), series.pvd with the first run's entries before the resumed run's) and with the
# checkpoint files of the uninterrupted run on those ranks, byte for byte: each rank wrote
# and read back its own. A checkpoint resumed on another count of ranks is refused (exit 4),
# naming the files and both counts: 4 ranks' on one process, one process's on 3 ranks.
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
for ranks in 2 4; do
  part="$work/part-$ranks"
  run "$ranks" "$config" --output "$work/whole-$ranks" || fail "uninterrupted on $ranks ranks: exit $?"
  run "$ranks" "$config" --set integrator.steps=25 --output "$part" ||
    fail "the first 25 steps on $ranks ranks: exit $?"
  cp -r "$part" "$part-stopped"
  before=$(times "$part")
  run "$ranks" --resume "$part" --set integrator.steps=60 || fail "resumed on $ranks ranks: exit $?"
  cmp "$work/whole/network_00000060.vtp" "$part/network_00000060.vtp" ||
    fail "network_00000060.vtp: resumed on $ranks ranks"
  for ((r = 0; r < ranks; ++r)); do
    f=checkpoint$([ $r -gt 0 ] && echo ".rank-$r").bin
    cmp "$work/whole-$ranks/$f" "$part/$f" || fail "$f: resumed on $ranks ranks"
  done
  if [ -n "$readers" ]; then
    "$python" "$readers" compare "$part/fields_00000060.pvti" "$work/whole/fields_00000060.vti" \
      > "$work/c.txt" || fail "fields_00000060.pvti: resumed on $ranks ranks: $(cat "$work/c.txt")"
  fi
  [ "$(times "$part")" = "$(printf '%s\n%s' "$before" "$(times "$work/whole")")" ] ||
    fail "series.pvd: resumed on $ranks ranks: $(times "$part")"
  echo "checkpointed and resumed on $ranks ranks: identical"
done

# refused RANKS DIR MESSAGE: resuming DIR on RANKS ranks exits 4 with MESSAGE.
refused() {
  run "$1" --resume "$2" --set integrator.steps=60
  local rc=$?
  [ $rc -eq 4 ] || fail "resuming $2 on $1 ranks: exit $rc, expected 4"
  grep -qF "$3" "$work/out.txt" || fail "resuming $2 on $1 ranks: not the message '$3'"
}
refused 0 "$work/part-4-stopped" "$work/part-4-stopped/checkpoint.bin: the checkpoint of a run on 4 ranks (checkpoint.bin and checkpoint.rank-1.bin to checkpoint.rank-3.bin), and this run is on 1 rank (resume it on 4 ranks); rerun with --overwrite"
run 0 "$config" --set integrator.steps=25 --output "$work/part-0" || fail "25 steps: exit $?"
refused 3 "$work/part-0" "$work/part-0/checkpoint.bin: the checkpoint of a run on 1 rank (checkpoint.bin), and this run is on 3 ranks (resume it on 1 rank); rerun with --overwrite"
echo "resumed on as many ranks to identical files; other counts of ranks refused by name"
