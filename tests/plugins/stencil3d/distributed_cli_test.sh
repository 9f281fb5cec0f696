#!/usr/bin/env bash
# explicit-stencil3d over MPI ranks writes what one process writes: the networks (.vtp)
# every 20 steps and the observables byte for byte, a checkpoint file a rank, and the fields, which
# each rank writes for its own block (fields_S.pvti and its pieces, or one fields_S.vtkhdf
# with output.format = "vtkhdf"), equal to one process's .vti bit for bit as Debian's VTK
# and h5py read them (read_fields.py; without them only the other files are compared), for
# 1 to 4 ranks and splits along one and two axes; series.pvd lists every file with
# the time each file holds. The run must branch,
# anastomose, fill every tip slot and cross between blocks, or it would prove little. With
# DEVICE cuda the ranks run the CUDA engine (one GPU a rank, shared where there are fewer)
# against the one-process CPU files; with DEVICE mixed rank 0 runs the CUDA engine and the
# others the CPU engine; exit 77 (skipped) where no GPU can be used. Each run names every
# rank's device (integrator.device = "cpu,cpu,..."), and the record says which each took.
#   distributed_cli_test.sh SOLVENT MPIEXEC CONFIG WORKDIR DEVICE [PYTHON READ_FIELDS HDF5]
# HDF5: 1 where Solvent was built with HDF5 (a 4-rank run then writes VTKHDF too).
set -u
solvent=$1 mpiexec=$2 config=$3 work=$4 device=$5 python=${6:-} readers=${7:-} hdf5=${8:-0}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
if [ "$device" != cpu ]; then
  "$solvent" run "$config" --set 'integrator.device="cuda"' --set integrator.steps=1 \
    --output "$work/probe" --no-progress > "$work/out.txt" 2>&1
  rc=$?
  [ "$rc" -eq 7 ] && { echo "no usable $device device: skipped"; exit 77; }
  [ "$rc" -eq 0 ] || fail "one step on $device: exit $rc"
fi
# A small segment store keeps the checkpoints small (the run needs a few hundred).
settings=(--set integrator.fields_every=20 --set integrator.max_segments=4000 --no-progress)
value() { sed -n "s/^ *$2 = '*\([^'.]*\).*/\1/p" "$1/record.toml" | head -1; }

one="$work/one"
"$solvent" run "$config" --output "$one" "${settings[@]}" > "$work/out.txt" 2>&1 ||
  fail "the one-process run: exit $?"
[ "$(value "$one" branches)" -gt 0 ] || fail "the run never branches"
[ "$(value "$one" anastomoses)" -gt 0 ] || fail "no tip ever fuses"
# Every slot taken: branches beyond the free slots were withdrawn, across ranks too.
[ "$(value "$one" sprouts)" = "$(sed -n 's/^max_tips = //p' "$config")" ] ||
  fail "the run leaves tip slots free"
files=$(cd "$one" && ls network_*.vtp checkpoint.bin observables.csv)
fields=$(cd "$one" && ls fields_*.vti)
[ "$(echo $files $fields | wc -w)" -eq 8 ] || fail "the one-process run wrote $(echo $files $fields)"
if [ -n "$readers" ]; then
  "$python" "$readers" series "$one/series.pvd" > "$work/series.txt" || fail "$(cat "$work/series.txt")"
  [ "$(wc -l < "$work/series.txt")" -eq 6 ] || fail "series.pvd: $(cat "$work/series.txt")"
fi

runs=("1 auto" "2 auto" "3 auto" "3 3x1x1" "4 auto" "4 2x2x1" "4 4x1x1" "2 1x2x1")
[ "$hdf5" = 1 ] && runs+=("4 1x2x2 vtkhdf")
for run in "${runs[@]}"; do
  set -- $run
  n=$1 split=$2 format=${3:-vtk} dir="$work/n$1-$2${3:+-$3}"
  # One entry a rank: "cuda,cpu,cpu,cpu" for mixed.
  devices=$([ "$device" = mixed ] && echo cuda || echo "$device")
  for ((r = 1; r < n; ++r)); do devices+=",$([ "$device" = mixed ] && echo cpu || echo "$device")"; done
  "$mpiexec" --oversubscribe -n "$n" "$solvent" run "$config" --output "$dir" \
    --set "model.split=\"$split\"" --set "integrator.device=\"$devices\"" "${settings[@]}" \
    --set "output.format=\"$format\"" \
    > "$work/out.txt" 2>&1 ||
    fail "$n ranks ($split, $devices): exit $?"
  if [ "$n" -gt 1 ]; then
    # The record names each rank's engine: cpu, or the GPU's name.
    each=$(sed -n "s/^ *device_each_rank = '\(.*\)'/\1/p" "$dir/record.toml" |
      sed -e 's/, /\n/g' | sed -e '/^cpu$/!s/.*/cuda/' | paste -sd, -)
    [ "$each" = "$devices" ] || fail "$n ranks: the record says devices '$each', not $devices"
  fi
  # The checkpoint is one file a rank, each of its own block (distributed_resume_test.sh
  # resumes them): one process's bytes on one rank only.
  for f in $files; do
    [ "$f" = checkpoint.bin ] && [ "$n" -gt 1 ] && continue
    cmp "$one/$f" "$dir/$f" || fail "$f of $n ranks ($split) differs from one process's"
  done
  [ "$(cd "$dir" && ls checkpoint*.bin | wc -l)" -eq "$n" ] ||
    fail "$n ranks ($split) wrote the checkpoint files $(cd "$dir" && ls checkpoint*.bin)"
  for f in $fields; do
    stem=${f%.vti}
    own=$(cd "$dir" && ls "$stem".* | grep -v _pieces)
    [ "$own" = "$stem.$([ "$format" = vtkhdf ] && echo vtkhdf || ([ "$n" -gt 1 ] && echo pvti || echo vti))" ] ||
      fail "$n ranks ($split, $format) wrote $own for $f"
    if [ -n "$readers" ]; then
      "$python" "$readers" compare "$dir/$own" "$one/$f" > "$work/compare.txt" ||
        fail "$own of $n ranks ($split): $(cat "$work/compare.txt")"
    fi
  done
  [ -z "$readers" ] || "$python" "$readers" series "$dir/series.pvd" > "$work/series.txt" ||
    fail "series.pvd of $n ranks: $(cat "$work/series.txt")"
  if [ "$n" -gt 1 ]; then
    crossings=$(value "$dir" segments_between_blocks)
    [ "${crossings:-0}" -gt 0 ] || fail "$n ranks ($split): no tip crossed between blocks"
    echo "$n ranks ($split, $device, $format): identical, $crossings segments between blocks"
  fi
done
# refused WHAT MESSAGE SETTING: two ranks with SETTING are refused as a configuration error
# (exit 2, MESSAGE), the run's folder in $work/WHAT.
refused() {
  "$mpiexec" --oversubscribe -n 2 "$solvent" run "$config" --output "$work/$1" \
    --set "$3" --no-progress > "$work/out.txt" 2>&1
  rc=$?
  [ $rc -eq 2 ] || fail "$1: exit $rc, expected 2"
  grep -qF "$2" "$work/out.txt" || fail "$1: not the expected message"
}
refused misfit 'explicit-stencil3d: device = "cpu,cpu,cpu": 3 entries for 2 ranks: give one device for every rank, or one for all (cpu, cuda or auto)' \
  'integrator.device="cpu,cpu,cpu"'
[ ! -e "$work/misfit" ] || fail "three devices for two ranks: the run's folder was made"
echo "every rank count and split wrote the one-process files"
