#!/usr/bin/env bash
# The continuous mode (n, f and c at every node) over MPI ranks, on the CPU: each rank updates
# its block and exchanges the layer around it every step, and the run writes what one
# process writes — the observables byte for byte (and the checkpoint on one rank), the fields (each rank
# its block) equal bit for bit as Debian's VTK reads them (read_fields.py, where PYTHON is
# given) — for 1 to 4 ranks and splits along one and two axes. A run checkpointed on 2 or 4
# ranks and resumed on as many ends as the uninterrupted one, its checkpoint files included. A forced unstable dt stops every rank count with exit 6 and the message
# of one process (each rank checks its block; the ranks agree on the first bad value).
# DEVICE cpu runs the CPU engine on every rank; cuda the CUDA engine (the layer around each
# block staged through host memory; ranks share the GPUs there are) and mixed rank 0 on
# CUDA, the others on the CPU, against the same one-process CPU files; exit 77 (skipped)
# where no GPU can be used.
#   distributed_continuous_test.sh SOLVENT MPIEXEC CONFIG WORKDIR DEVICE [PYTHON READ_FIELDS]
set -u
solvent=$1 mpiexec=$2 config=$3 work=$4 device=$5 python=${6:-} readers=${7:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
settings=(--set 'model.mode="continuous"' --set integrator.fields_every=20 --no-progress)
source "$(dirname "$0")/run_ranks.sh"
if [ "$device" != cpu ]; then
  run 0 "$config" --set 'integrator.device="cuda"' --set integrator.steps=1 --output "$work/probe"
  rc=$?
  [ "$rc" -eq 7 ] && { echo "no usable GPU: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "one step on the GPU: exit $rc"
fi
# on RANKS: the integrator.device setting of a run on RANKS ranks (0: one process, the CPU).
on() {
  local list=$([ "$1" -gt 0 ] && [ "$device" != cpu ] && echo cuda || echo cpu) r
  for ((r = 1; r < $1; ++r)); do list+=",$([ "$device" = cuda ] && echo cuda || echo cpu)"; done
  echo "integrator.device=\"$list\""
}
# same DIR WHAT [REFERENCE]: DIR holds the one-process run's observables and fields, and
# REFERENCE's checkpoint files (the latest of each rank), where given.
same() {
  local f
  cmp "$work/one/observables.csv" "$1/observables.csv" || fail "observables.csv: $2"
  if [ -n "${3:-}" ]; then
    for f in $(cd "$3" && ls checkpoint*.bin | grep -v previous); do
      cmp "$3/$f" "$1/$f" || fail "$f: $2"
    done
  fi
  [ -z "$readers" ] && return
  for f in $(cd "$work/one" && ls fields_*.vti); do
    local own
    own=$(cd "$1" && ls "${f%.vti}".* | grep -v _pieces)
    "$python" "$readers" compare "$1/$own" "$work/one/$f" > "$work/compare.txt" ||
      fail "$own: $2: $(cat "$work/compare.txt")"
  done
}

run 0 "$config" --output "$work/one" --set "$(on 0)" || fail "the one-process run: exit $?"
[ "$(cd "$work/one" && ls fields_*.vti | wc -l)" -eq 3 ] || fail "the one-process run's fields"
# 21 nodes an axis: blocks of 11 and 10 nodes, or 7 each; the layer moves along x (rows cut
# across), y and z, and where two axes are split it brings the edges the field pieces share.
for split in "1 auto" "2 2x1x1" "3 auto" "4 2x2x1" "4 1x2x2"; do
  set -- $split
  dir="$work/n$1-$2"
  run "$1" "$config" --output "$dir" --set "model.split=\"$2\"" --set "$(on "$1")" ||
    fail "$1 ranks ($2, $(on "$1")): exit $?"
  # One rank writes one process's checkpoint; more, a file each of their own blocks.
  same "$dir" "$1 ranks ($2, $(on "$1"))" "$([ "$1" = 1 ] && echo "$work/one")"
  echo "$1 ranks ($2, $(on "$1")): identical to one process"
done

# Checkpointed at step 25 on RANKS ranks (SPLIT) and resumed to 60 on as many, one device for
# all (a resume keeps the run's integrator.device): the checkpoint files of the uninterrupted
# run on those ranks (another count of ranks is refused, distributed_resume_test.sh).
all="integrator.device=\"$([ "$device" = cpu ] && echo cpu || echo cuda)\""
for ranks in "2 2x1x1" "4 1x2x2"; do
  set -- $ranks
  part="$work/part-$1-$2"
  run "$1" "$config" --set integrator.steps=25 --output "$part" --set "$all" \
    --set "model.split=\"$2\"" || fail "the first 25 steps on $1 ranks: exit $?"
  run "$1" --resume "$part" --set integrator.steps=60 --set "$all" ||
    fail "resumed on $1 ranks: exit $?"
  same "$part" "checkpointed and resumed on $1 ranks ($2)" "$work/n$1-$2"
  echo "checkpointed and resumed on $1 ranks ($2): identical"
done

# Forced past its step limit, the fields leave their ranges at the parent vessel by step 3.
unstable=(--set model.parameters.n_width=0.001 --set integrator.dt=0.1
  --set integrator.force_dt=true --set integrator.steps=3)
expected=""
for n in 0 2 4; do
  run "$n" "$config" --output "$work/unstable-$n" "${unstable[@]}" --set "$(on "$n")"
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
