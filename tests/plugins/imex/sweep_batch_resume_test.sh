#!/usr/bin/env bash
# A batched sweep ([sweep] batch = "imex-batched") stopped by SIGINT while its batch runs:
# exit 130, one checkpoint of every member's state (members/batch-checkpoint.bin), each
# member's record "interrupted"; `solvent run --resume` continues the batch from it (not from
# step 0) to the files of the uninterrupted batched sweep, byte for byte (sweep.csv but for
# the wall times), and removes the checkpoint. A damaged checkpoint and one of another sweep
# are refused with exit 4, naming the file and what is wrong, leaving the folder as it was.
# usage: sweep_batch_resume_test.sh SOLVENT SOURCE_DIR WORK_DIR
set -uo pipefail
solvent=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
source "$source/tests/support/sweep_csv.sh"  # same_csv
value() { sed -n "s/^ *$2 = //p" "$1" | head -1 | tr -d "'\""; }

# Two members, long enough (short steps) for the signal to land in the batch, few profiles.
cat > sweep.toml <<'TOML'
[run]
name = "batch-resume"
[model]
type = "angiogenesis-1d"
M = 100
[integrator]
type = "imex-trapezoid"
dt = 0.0005
steps = 6000
[linear_solver]
type = "banded"
[output]
every = 1500
[sweep]
mode = "grid"
batch = "imex-batched"
[sweep.model.parameters]
k1 = [0.5, 2.0]
TOML
sweep=(run sweep.toml)
"$solvent" "${sweep[@]}" --output reference > reference.log 2>&1 \
  || fail "the uninterrupted sweep: exit $? $(tail -3 reference.log)"

# SIGINT up to 0.1 s after the batch has begun (it takes about 0.2 s on its own): at its first
# step or later. A batch that ended before the signal came (a slow test machine) is tried
# again: it tests nothing, and is no failure of the product.
for attempt in 1 2 3; do
  rm -rf stopped
  "$solvent" "${sweep[@]}" --output stopped > stopped.log 2>&1 &
  pid=$!
  while kill -0 $pid 2>/dev/null && ! grep -q "advancing together" stopped.log; do sleep 0.005; done
  sleep "0.0$((RANDOM % 10))"
  kill -INT $pid 2>/dev/null
  wait $pid
  code=$?
  grep -q "stopped together at step" stopped.log && break
  [ $attempt = 3 ] && fail "the batch ended before SIGINT three times: $(cat stopped.log)"
done
[ "$code" = 130 ] || fail "the stopped sweep exited $code, not 130: $(tail -3 stopped.log)"
[ -f stopped/members/batch-checkpoint.bin ] || fail "no batch checkpoint: $(cat stopped.log)"
at=$(sed -n 's/.*stopped together at step \([0-9]*\).*/\1/p' stopped.log)
for id in 0000 0001; do
  [ "$(value stopped/members/$id/record.toml status)" = interrupted ] \
    || fail "member $id: not recorded as interrupted"
  grep -qF "interrupted by SIGINT after step $at (t = " stopped/members/$id/record.toml \
    && grep -qF "continue with: solvent run --resume stopped'" stopped/members/$id/record.toml \
    || fail "member $id: the record does not say where it stopped and how to go on"
done
"$solvent" status stopped/members/0001 > status.txt 2>&1
grep -qx "  resume: with its sweep: solvent run --resume stopped" status.txt \
  || fail "the member's status: $(cat status.txt)"
grep -q "members/batch-checkpoint.bin" stopped/record.toml \
  || fail "the sweep's record does not list the checkpoint (--overwrite would leave it)"
cp -a stopped damaged
cp -a stopped foreign

"$solvent" run --resume stopped > resumed.log 2>&1 || fail "the resume: exit $? $(tail -3 resumed.log)"
grep -q "sweep members 0, 1 advancing together by 'imex-batched' from their checkpoint at step $at" \
  resumed.log || fail "the batch did not continue from step $at: $(cat resumed.log)"
same_csv reference stopped "resumed after SIGINT at step $at"
for id in 0000 0001; do
  cmp reference/members/$id/observables.csv stopped/members/$id/observables.csv \
    || fail "member $id: observables.csv differs"
  diff -r reference/members/$id/profiles stopped/members/$id/profiles > /dev/null \
    || fail "member $id: profiles differ"
  [ "$(value stopped/members/$id/record.toml status)" = completed ] || fail "member $id: not completed"
done
[ ! -e stopped/members/batch-checkpoint.bin ] || fail "the checkpoint outlived the batch"

# One byte changed inside: the checksum finds it.
printf '\x55' | dd of=damaged/members/batch-checkpoint.bin bs=1 seek=100 conv=notrunc 2>/dev/null
cp damaged/record.toml damaged-record.toml
"$solvent" run --resume damaged > damaged.log 2>&1
code=$?
[ "$code" = 4 ] || fail "a damaged checkpoint: exit $code, not 4: $(cat damaged.log)"
grep -qF "damaged/members/batch-checkpoint.bin: a damaged checkpoint: its checksum does not match its contents; rerun with --overwrite" \
  damaged.log || fail "a damaged checkpoint: $(cat damaged.log)"
cmp damaged/record.toml damaged-record.toml || fail "the refused resume rewrote the record"

# Another sweep's checkpoint (its members' configurations differ: the digest in its writer),
# whole and checksummed.
/usr/bin/python3 - foreign/members/batch-checkpoint.bin <<'PY'
import struct, sys, zlib
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
name_length = struct.unpack_from("<I", data, 44)[0]
at = 48 + name_length - 2                      # a hex digit of the digest, before its ")"
data[at] = ord("0") if data[at] != ord("0") else ord("1")
data[-8:] = struct.pack("<Q", zlib.crc32(bytes(data[:-8])))   # the format's checksum
open(path, "wb").write(bytes(data))
PY
"$solvent" run --resume foreign > foreign.log 2>&1
code=$?
[ "$code" = 4 ] || fail "another sweep's checkpoint: exit $code, not 4: $(cat foreign.log)"
grep -qF "foreign/members/batch-checkpoint.bin: a checkpoint of imex-batched for sweep members 0, 1 (configurations " \
  foreign.log || fail "another sweep's checkpoint: $(cat foreign.log)"
grep -qF "and this sweep's batch of those members is imex-batched for sweep members 0, 1 (configurations " \
  foreign.log || fail "another sweep's checkpoint: $(cat foreign.log)"
echo "batched sweep stopped at step $at and resumed to the uninterrupted files; damaged and foreign checkpoints refused"
