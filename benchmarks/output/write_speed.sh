#!/usr/bin/env bash
# The core's field writer against dd on the same disk: dd writes N^3 x 8 bytes (the float64
# field) with conv=fdatasync, as every output file is forced to the disk before its rename;
# then field-write-benchmark on 1 rank (every format and precision) and one VTKHDF file
# written collectively by 2 and 4 ranks (--bind-to none: each rank may use every core).
#   write_speed.sh BUILD_DIR OUT_DIR N [REPEAT]
set -euo pipefail
build=$1 out=$2 n=$3 repeat=${4:-3}
bench=$build/bin/field-write-benchmark
mkdir -p "$out"
bytes=$((n * n * n * 8))
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1), disk of $out: $(df -h --output=source,fstype "$out" | tail -1)"
best=
for ((r = 0; r < repeat; ++r)); do
  start=$(date +%s.%N)
  dd if=/dev/zero of="$out/dd.bin" bs=1M count=$((bytes / 1048576)) conv=fdatasync status=none
  s=$(echo "$(date +%s.%N) $start" | awk '{printf "%.3f", $1 - $2}')
  rm -f "$out/dd.bin"
  best=$(echo "$s ${best:-$s}" | awk '{print ($1 < $2) ? $1 : $2}')
done
echo "dd: $((bytes / 1048576)) MiB with conv=fdatasync in $best s (best of $repeat): $(awk -v b=$bytes -v s=$best 'BEGIN{printf "%.0f", b/s/1e6}') MB/s"
echo
mpi=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
"$bench" "$out/fields" --n "$n" --repeat "$repeat"
for p in 2 4; do
  echo
  "${mpi[@]}" -n $p "$bench" "$out/fields" --n "$n" --repeat "$repeat" --formats vtkhdf \
    --precisions float64
done
