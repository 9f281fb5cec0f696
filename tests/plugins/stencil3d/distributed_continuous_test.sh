#!/usr/bin/env bash
# The continuous mode (n, f and c at every node) over MPI ranks, on the CPU: each rank updates
# its block and exchanges the layer around it every step, and the run writes what one
# process writes — the checkpoint and the observables byte for byte, the fields (each rank
# its block) equal bit for bit as Debian's VTK reads them (read_fields.py, where PYTHON is
# given) — for 1 to 4 ranks and splits along one and two axes. A run checkpointed on some ranks and resumed on others ends as the
# uninterrupted one. A forced unstable dt stops every rank count with exit 6 and the message
# of one process (each rank checks its block; the ranks agree on the first bad value).
#   distributed_continuous_test.sh SOLVENT MPIEXEC CONFIG WORKDIR [PYTHON READ_FIELDS]
set -u
solvent=$1 mpiexec=$2 config=$3 work=$4 python=${5:-} readers=${6:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
settings=(--set 'model.mode="continuous"' --set integrator.fields_every=20 --no-progress)
source "$(dirname "$0")/run_ranks.sh"
# same DIR WHAT: DIR holds the one-process run's files.
same() {
  local f
  for f in checkpoint.bin observables.csv; do
    cmp "$work/one/$f" "$1/$f" || fail "$f: $2"
  done
  [ -z "$readers" ] && return
  for f in $(cd "$work/one" && ls fields_*.vti); do
    local own
    own=$(cd "$1" && ls "${f%.vti}".* | grep -v _pieces)
    "$python" "$readers" compare "$1/$own" "$work/one/$f" > "$work/compare.txt" ||
      fail "$own: $2: $(cat "$work/compare.txt")"
  done
}

run 0 "$config" --output "$work/one" || fail "the one-process run: exit $?"
[ "$(cd "$work/one" && ls fields_*.vti | wc -l)" -eq 3 ] || fail "the one-process run's fields"
# 21 nodes an axis: blocks of 11 and 10 nodes, or 7 each; the layer moves along x (rows cut
# across), y and z, and where two axes are split it brings the edges the field pieces share.
for split in "1 auto" "2 2x1x1" "3 auto" "4 2x2x1" "4 1x2x2"; do
  set -- $split
  dir="$work/n$1-$2"
  run "$1" "$config" --output "$dir" --set "model.split=\"$2\"" ||
    fail "$1 ranks ($2): exit $?"
  same "$dir" "$1 ranks ($2)"
  echo "$1 ranks ($2): identical to one process"
done

# Checkpointed at step 25 on FIRST ranks, resumed to 60 on THEN (0: one process).
for ranks in "2 3" "3 0" "0 4"; do
  set -- $ranks
  part="$work/part-$1-$2"
  run "$1" "$config" --set integrator.steps=25 --output "$part" ||
    fail "the first 25 steps on $1 ranks: exit $?"
  run "$2" --resume "$part" --set integrator.steps=60 || fail "resumed on $2 ranks: exit $?"
  same "$part" "checkpointed on $1 ranks, resumed on $2"
  echo "checkpointed on $1, resumed on $2 ranks: identical"
done

# Forced past its step limit, the fields leave their ranges at the parent vessel by step 3.
unstable=(--set model.parameters.n_width=0.001 --set integrator.dt=0.1
  --set integrator.force_dt=true --set integrator.steps=3)
expected=""
for n in 0 2 4; do
  run "$n" "$config" --output "$work/unstable-$n" "${unstable[@]}"
  rc=$?
  [ $rc -eq 6 ] || fail "unstable on $n ranks: exit $rc, expected 6"
  message=$(grep -o 'explicit-stencil3d: at step .*' "$work/out.txt" | head -1)
  case "$message" in
  "explicit-stencil3d: at step 3 (t = 0.3) "*" at node ("*") is outside its range ["*) ;;
  *) fail "unstable on $n ranks: '$message'" ;;
  esac
  [ -z "$expected" ] && expected=$message
  [ "$message" = "$expected" ] || fail "unstable on $n ranks: '$message', one process: '$expected'"
done
echo "every rank count and split wrote the one-process files"
