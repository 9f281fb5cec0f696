#!/usr/bin/env bash
# The continuous mode of angiogenesis-3d over MPI ranks with the CUDA engine (the layer
# around each rank's block copied GPU to GPU where the ranks share a host, else staged
# through host memory, while the interior is updated), in one
# device call on a machine with one GPU or more (carry [".devdeps"]):
#   bash scripts/gpu/stencil-ranks.sh
# Every rank takes GPU local_rank % GPUs, so ranks beyond the GPUs share them. It builds the
# CLI, the two plugins and the CUDA identity test, then checks:
#  - plugins-stencil3d-cuda (one process, CUDA against CPU) and the continuous test over ranks
#    with the CUDA engine on every rank and on rank 0 only
#    (plugins-stencil3d-distributed-continuous-{cuda,mixed}: 21^3 on 1 to 4 ranks, five
#    splits, every file against one CPU process's, resumes across rank counts, the verdict
#    of an unstable run) and its CPU variant;
#  - 96^3, 40 steps (many thread blocks a rank, blocks cut along one and two axes): the
#    CUDA engine on 1, 2 and 4 ranks and rank 0 on CUDA beside a CPU rank, every rank's
#    checkpoint file against the CPU engine's on as many ranks and the same blocks, byte for
#    byte (one rank also against one CUDA process; each rank writes its own file, and
#    CPU over ranks equals one CPU process in plugins-stencil3d-distributed-continuous);
#  - compute-sanitizer memcheck on 2 ranks (21^3, 20 steps);
#  - the time per step at SIZE^3 (default 384; each run also sets up and writes the whole
#    state, about 3 times longer at 512), one rank a GPU, on 1 and 2 GPUs (4 where there
#    are 4): the record's step seconds over STEPS steps (default 200), the median of
#    REPEATS runs (default 3), against one GPU, over ranks with the faces GPU to GPU and
#    host-staged (SOLVENT_CUDA_HALO=host). On one GPU the 2 ranks share it: that row
#    is not scaling. A run that would start after 5.5 minutes is skipped, so that the
#    script ends within 7.
# One PASS or FAIL line per check in $OUT/summary.txt, the table in $OUT/stencil-ranks.md,
# and at the end "stencil-ranks.sh: PASS" or "stencil-ranks.sh: FAIL (n checks)".
SECONDS=0
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/stencil-ranks-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
targets="solvent angiogenesis-3d explicit-stencil3d plugins-stencil3d-cuda-tests"
if ! timeout 420 ninja -C "$BUILD" $targets > "$OUT/build.log" 2>&1; then
  grep -E "error|FAILED" "$OUT/build.log" | head -40
  echo "stencil-ranks.sh: FAIL (build; $OUT/build.log)"
  exit 1
fi
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
gpus=$(nvidia-smi -L | wc -l)
mpi() {  # mpi SECONDS mpirun-arguments...
  local limit=$1
  shift
  timeout "$limit" mpirun --oversubscribe --bind-to none "$@"
}
failed=0
verdict() {  # verdict STATUS WHAT LOG: one PASS (status 0) or FAIL line, a failing log's end
  local word=PASS
  [ "$1" = 0 ] || { word=FAIL; failed=$((failed + 1)); }
  echo "$word: $2" | tee -a "$OUT/summary.txt"
  # A device call returns few files: the failing log's end goes to the output too.
  [ "$word" = PASS ] || [ -z "${3:-}" ] || tail -15 "$3"
}
solvent=$BUILD/bin/solvent
cfg=tests/plugins/stencil3d/fast.toml
work=/tmp/stencil-ranks-work && rm -rf $work && mkdir -p $work
continuous=(--set 'model.mode="continuous"' --no-progress)
value() { sed -n "s/^ *$2 = //p" "$1/record.toml" 2>/dev/null | head -1 | tr -d "'\""; }

tests="plugins-stencil3d-cuda plugins-stencil3d-distributed-continuous-cuda
  plugins-stencil3d-distributed-continuous-mixed plugins-stencil3d-distributed-continuous"
(cd "$BUILD" && timeout 240 ctest -j4 -R "^($(echo $tests | tr ' ' '|'))\$" --output-on-failure) \
  > "$OUT/tests.log" 2>&1
for t in $tests; do
  # A test skipped for want of a device fails here: this machine has one.
  grep -qE "Test +#[0-9]+: $t \.+ +Passed" "$OUT/tests.log"
  verdict $? "$t ($(grep -oE "Test +#[0-9]+: $t \.+ *[*]*[A-Za-z ]+[0-9.]+ sec" "$OUT/tests.log" |
    sed 's/.*\.\. *//' | grep . || echo "not run"); tests.log)"
done
grep -qE "Failed|Skipped|Timeout" "$OUT/tests.log" && tail -40 "$OUT/tests.log"
echo "== tests ($SECONDS s)"

# The 96^3 runs: DEVICES is integrator.device, one entry a rank or one for all.
eq=(--set model.nx=96 --set model.ny=96 --set model.nz=96 --set integrator.dt=2e-5
  --set integrator.steps=40 --set 'output.format="none"')
equal_run() {  # equal_run NAME RANKS DEVICES [SPLIT]
  local dir=$work/eq-$1
  mpi 120 -n "$2" "$solvent" run $cfg "${continuous[@]}" "${eq[@]}" \
    --set "integrator.device=\"$3\"" --set "model.split=\"${4:-auto}\"" --output "$dir" \
    > "$OUT/eq-$1.log" 2>&1
}
same() {  # same NAME REFERENCE: every checkpoint file byte for byte, else how many bytes differ
  local f a b
  for f in $(cd "$work/eq-$2" 2>/dev/null && ls checkpoint*.bin); do
    a=$work/eq-$1/$f b=$work/eq-$2/$f
    [ -f "$a" ] || { echo "$f missing"; return 1; }
    cmp -s "$a" "$b" && continue
    echo "$f: $(cmp -l "$a" "$b" | wc -l) bytes differ, the first at $(cmp "$a" "$b" | grep -o 'byte [0-9]*')"
    return 1
  done
  [ -n "${f:-}" ] || { echo "no checkpoint in eq-$2"; return 1; }
  echo "identical"
}
equal_run cpu 1 cpu
verdict $? "96^3 reference: one CPU process ($(value $work/eq-cpu device); eq-cpu.log)" "$OUT/eq-cpu.log"
equal_run cuda-1 1 cuda
rc=$?
how=$(same cuda-1 cpu)
verdict $(( rc || $? )) "96^3, CUDA on 1 rank against one CPU process: exit $rc, $how (eq-cuda-1.log)" "$OUT/eq-cuda-1.log"
for run in "2 cuda auto" "2 cuda 1x1x2" "4 cuda 2x2x1" "4 cuda 1x2x2" "2 cuda,cpu 2x1x1"; do
  set -- $run
  name=$1-$(echo "$2" | tr , -)-$3
  equal_run "$name" "$1" "$2" "$3"
  rc=$?
  [ -d "$work/eq-cpu-$1-$3" ] || equal_run "cpu-$1-$3" "$1" cpu "$3" || rc=$?
  how=$(same "$name" "cpu-$1-$3")
  verdict $(( rc || $? )) "96^3, $1 ranks ($3, devices $(value $work/eq-$name device_each_rank)) against the CPU engine on $1 ranks ($3): exit $rc, $how (eq-$name.log)" "$OUT/eq-$name.log"
done
echo "== equality ($SECONDS s)"

# Beside the nvcc the build found where it is not on PATH.
sanitizer=$(command -v compute-sanitizer ||
  echo "$(dirname "$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt")")/compute-sanitizer")
log=$OUT/sanitizer-2.log
mpi 150 -n 2 "$sanitizer" --tool memcheck --error-exitcode 9 "$solvent" run $cfg \
  "${continuous[@]}" --set 'integrator.device="cuda"' --set integrator.steps=20 \
  --output $work/sanitizer > "$log" 2>&1
rc=$?
clean=$(grep -c "ERROR SUMMARY: 0 errors" "$log")
[ $rc -eq 0 ] && [ "$clean" -eq 2 ]
verdict $? "compute-sanitizer memcheck, continuous 21^3 on 2 ranks (exit $rc, $clean of 2 ranks with 0 errors; sanitizer-2.log)" "$log"
echo "== sanitizer ($SECONDS s)"

# Timing: the modules loaded before the first step, so that it costs what the others do.
export CUDA_MODULE_LOADING=EAGER
size=${SIZE:-384} steps=${STEPS:-200} repeats=${REPEATS:-3}
big=(--set "model.nx=$size" --set "model.ny=$size" --set "model.nz=$size" --set integrator.dt=1e-6
  --set "integrator.steps=$steps" --set integrator.threads=8 --set 'output.format="none"'
  --set 'integrator.device="cuda"')
table=$OUT/stencil-ranks.md
{
  echo "$size^3, $steps steps, dt 1e-6, output off, median of $repeats runs; $(head -2 "$OUT/device.txt" | tail -1 | cut -d, -f2 | sed 's/^ //'), $gpus on this machine"
  echo
  echo "| ranks | GPUs | blocks | faces | s / step (median) | step s of each run | speed-up over 1 GPU |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
} > "$table"
base=""
# Over ranks with the faces GPU to GPU (auto) and staged through the host, for comparison.
cases="1:auto 2:auto 2:host"
[ "$gpus" -ge 4 ] && cases="$cases 4:auto 4:host"
for case in $cases; do
  n=${case%:*} halo=${case#*:}
  times=""
  for r in $(seq "$repeats"); do
    if [ $SECONDS -gt 330 ]; then echo "timing $n ranks, run $r: skipped, $SECONDS s used"; break; fi
    dir=$work/t-$n-$halo-$r
    if SOLVENT_CUDA_HALO=$halo mpi 90 -x SOLVENT_CUDA_HALO -n $n "$solvent" run $cfg "${continuous[@]}" \
      "${big[@]}" --output "$dir" > "$OUT/t-$n-$halo-$r.log" 2>&1; then
      times="$times $(sed -n '/^\[seconds\]/,$p' "$dir/record.toml" | sed -n 's/^step = //p' | head -1)"
    else
      verdict 1 "timing run $r on $n ranks: exit $? (t-$n-$halo-$r.log)" "$OUT/t-$n-$halo-$r.log"
    fi
  done
  [ -n "$times" ] || continue
  per=$(echo $times | tr ' ' '\n' | sort -g | awk -v s="$steps" '{ t[NR] = $1 } END { printf "%.6f", t[int((NR + 1) / 2)] / s }')
  [ -n "$base" ] || base=$per
  blocks=$(value $work/t-$n-$halo-1 decomposition | cut -d' ' -f1)
  used=$((n < gpus ? n : gpus))
  faces=$([ "$n" = 1 ] && echo "—" || { [ "$halo" = host ] && echo host-staged || echo "GPU to GPU"; })
  printf '| %s | %s | %s | %s | %s | %s | %.2fx |\n' $n $used "${blocks:-1x1x1}" "$faces" $per "$(echo $times | tr ' ' ',')" \
    "$(awk -v b=$base -v p=$per 'BEGIN { print b / p }')" >> "$table"
done
cat "$table" | tee -a "$OUT/summary.txt"
echo "== script took $SECONDS s"
result="stencil-ranks.sh: PASS"
[ $failed -eq 0 ] || result="stencil-ranks.sh: FAIL ($failed checks)"
echo "$result" | tee -a "$OUT/summary.txt"
[ $failed -eq 0 ]
