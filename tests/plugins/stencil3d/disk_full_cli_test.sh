#!/usr/bin/env bash
# A full disk and an unwritable folder while two ranks write their fields together: every
# rank ends, exit 1, with one message naming the file; the record says "failed" with it; the
# fields written before stay whole (Debian's VTK and h5py read them, where PYTHON is given);
# nothing cut short is left under a final name. The full disk is injected by LD_PRELOAD into
# every rank's write(2), pwrite(2) and pwritev(2) to the file (what MPI-IO and HDF5 call).
#   disk_full_cli_test.sh SOLVENT MPIEXEC FAULT_LIBRARY CONFIG WORKDIR HDF5 [PYTHON READ_FIELDS]
set -u
solvent=$1 mpiexec=$2 fault=$3 config=$4 work=$5 hdf5=$6 python=${7:-} readers=${8:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; [ -f "$work/out.txt" ] && cat "$work/out.txt"; exit 1; }
settings=(--set integrator.fields_every=20 --set integrator.max_segments=4000 --no-progress)

# check DIR FILE EXT MESSAGE RC: the run in DIR failed writing FILE (exit RC), said once as
# MESSAGE (a pattern), and kept step 20's fields whole.
check() {
  local dir=$1 file=$2 ext=$3 message=$4 rc=$5
  [ "$rc" -eq 1 ] || fail "$file: exit $rc, expected 1"
  [ "$(grep -c '^error: ' "$work/out.txt")" -eq 1 ] || fail "$file: not one message"
  grep -q "^error: .*$message" "$work/out.txt" || fail "$file: the message is not $message"
  grep -q "status = 'failed'" "$dir/record.toml" || fail "$file: the record does not say failed"
  [ ! -e "$dir/$file" ] || fail "$file: kept under its final name"
  [ -z "$(find "$dir" -name '*.partial' -o -name '*.tmp.*')" ] || fail "$file: a temporary was left"
  [ -e "$dir/fields_00000020.$ext" ] || fail "$file: step 20's fields were not kept"
  if [ -n "$readers" ]; then
    "$python" "$readers" time "$dir/fields_00000020.$ext" > "$work/time.txt" ||
      fail "step 20's fields are not whole: $(cat "$work/time.txt")"
  fi
}

if [ "$hdf5" = 1 ]; then
  # The disk fills while both ranks write fields_00000040.vtkhdf through MPI-IO.
  dir="$work/vtkhdf-full"
  "$mpiexec" --oversubscribe -n 2 -x LD_PRELOAD="$fault" -x SOLVENT_FAULT_MATCH=fields_00000040 \
    -x SOLVENT_FAULT_AFTER=4096 "$solvent" run "$config" --output "$dir" "${settings[@]}" \
    --set 'output.format="vtkhdf"' > "$work/out.txt" 2>&1
  check "$dir" fields_00000040.vtkhdf vtkhdf "cannot write $dir/fields_00000040.vtkhdf: " $?
  echo "a full disk during a collective VTKHDF write: one message, exit 1, step 20 kept"
fi

# The disk fills while rank 1 writes its piece of fields_00000040.pvti.
dir="$work/pieces-full"
"$mpiexec" --oversubscribe -n 2 -x LD_PRELOAD="$fault" -x SOLVENT_FAULT_MATCH=fields_00000040_pieces/piece_0001 \
  "$solvent" run "$config" --output "$dir" "${settings[@]}" > "$work/out.txt" 2>&1
check "$dir" fields_00000040.pvti pvti \
  "rank 1: cannot write $dir/fields_00000040_pieces/piece_0001.vti.tmp.[0-9.]*: No space left on device$" $?
echo "a full disk during a piece's write: one message naming the rank and the file, exit 1"
