#!/usr/bin/env bash
# The car cabin's Helmholtz system solved over 1 to GPUS GPUs of one host, each rank its own
# GPU, in one device call (carry [".devdeps"]: it holds Scotch, which the GPU machines lack):
#   RESOLUTIONS="40 80" REPEATS=3 CPU=1 bash scripts/gpu/sparse-scaling.sh
# For each resolution and pair (PAIRS, default bicgstab-l-cuda:jacobi-cuda and
# bicgstab-cuda:ilu0-cuda: block Jacobi per GPU) on 1, 2 (and 4) ranks to 1e-8: iterations,
# median solve seconds of REPEATS runs, time per iteration and its speed-up against one GPU,
# the true relative residual; then the CPU twin on the same partition (all the host's cores
# shared by the ranks) once. Over ranks each GPU run is made with the ghosts copied GPU to
# GPU and again staged through the host (SOLVENT_CUDA_HALO=host), the column "ghosts" says
# which. The rows are split by Scotch: the same partition for the GPU and the CPU runs of one
# rank count. One table in $OUT/sparse-scaling.md (also printed).
# Before and after a change, in the same call: make the earlier sources here first,
#   git archive -o .compare-base.tar REV        (git-ignored; carry it too)
# and every GPU row is measured with both builds, the runs of the two interleaved (column
# "build": head or base; the speed-up is against one GPU of the same build).
SECONDS=0
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/sparse-scaling-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
targets="solvent steady helmholtz bicgstab bicgstab-l jacobi ilu0 bicgstab-cuda bicgstab-l-cuda
  jacobi-cuda ilu0-cuda"
ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
builds="head"
if [ -f .compare-base.tar ]; then
  base=/tmp/sparse-scaling-base
  rm -rf $base && mkdir -p $base && tar -xf .compare-base.tar -C $base && cp -r .devdeps $base/
  (cd $base && BUILD=/tmp/build-base source scripts/gpu/configure.sh && ninja -C /tmp/build-base -k 0 $targets) \
    > "$OUT/build-base.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build-base.log" | head -30; exit 1; }
  builds="head base"
fi
build_of() { [ "$1" = base ] && echo /tmp/build-base || echo "$BUILD"; }
grep -q "^SCOTCH_LIBRARY:FILEPATH=/" "$BUILD/CMakeCache.txt" || echo "warning: built without Scotch (rows split in order)"
gpus=$(nvidia-smi -L | wc -l)
cores=$(nproc)
echo "== built ($SECONDS s); $gpus GPUs, $cores cores"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
ranks="1 2"; [ "$gpus" -ge 4 ] && ranks="1 2 4"
work=/tmp/sparse-scaling && rm -rf $work && mkdir -p $work
value() { sed -n "s/^'\{0,1\}$2'\{0,1\} = //p" "$1/record.toml" | head -1 | tr -d "'"; }
solve() {  # solve DIR RANKS SOLVER PRECONDITIONER RESOLUTION THREADS [HALO [BUILD]]
  local build=$(build_of "${8:-head}")
  OMP_NUM_THREADS=$6 SOLVENT_CUDA_HALO=${7:-auto} SOLVENT_PLUGIN_PATH=$build/lib/solvent \
    timeout 300 mpirun --oversubscribe --bind-to none \
    -n "$2" -x OMP_NUM_THREADS -x SOLVENT_CUDA_HALO -x SOLVENT_PLUGIN_PATH \
    "$build/bin/solvent" run config/krylov-cabin-bicgstab-l.toml --set model.resolution="$5" \
    --set "linear_solver.type=\"$3\"" --set "linear_solver.$3.tolerance=1e-8" \
    --set "linear_solver.$3.max_iterations=4000" --set "preconditioner.type=\"$4\"" \
    --set 'output.format="none"' --output "$1" --overwrite --no-progress > "$1.log" 2>&1
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
table=$OUT/sparse-scaling.md
{
  echo "| cabin | unknowns | solver + preconditioner | ranks | device | ghosts | build | iterations | relative residual | solve s (median) | ms / iteration | per-iteration speed-up | edge cut |"
  echo "| --- | ---: | --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$table"
for res in ${RESOLUTIONS:-40 80}; do
  for pair in ${PAIRS:-bicgstab-l-cuda:jacobi-cuda bicgstab-cuda:ilu0-cuda}; do
    set -- ${pair/:/ }
    declare -A base_per=()
    for n in $ranks; do
      halos="auto"; [ "$n" -gt 1 ] && halos="auto host"
      for halo in $halos; do
        declare -A times=()
        for r in $(seq ${REPEATS:-3}); do
          for b in $builds; do
            dir=$work/$res-$1-$n-$halo-$b-$r
            solve "$dir" "$n" "$1" "$2" "$res" $((cores / n)) $halo $b
            rc=$?
            [ $rc -eq 0 ] || { echo "$1 + $2, cabin-$res, $n ranks, $b: exit $rc"; tail -5 "$dir.log"; }
            times[$b]="${times[$b]:-} $(value "$dir" solve)"
          done
        done
        for b in $builds; do
          dir=$work/$res-$1-$n-$halo-$b-${REPEATS:-3}
          s=$(echo ${times[$b]} | tr ' ' '\n' | median)
          it=$(value "$dir" iterations)
          per=$(awk -v s="$s" -v i="$it" 'BEGIN { if (i > 0) printf "%.3f", 1000 * s / i }')
          [ -z "${base_per[$b]:-}" ] && base_per[$b]=$per
          up=$(awk -v a="${base_per[$b]}" -v b="$per" 'BEGIN { if (b > 0) printf "%.2fx", a / b }')
          ghosts=$([ "$n" = 1 ] && echo "—" || { [ $halo = host ] && echo "host-staged" || echo "GPU to GPU"; })
          echo "| $res | $(value "$dir" nodes) | $1 + $2 | $n | GPU | $ghosts | $b | $it | $(value "$dir" relative_residual) | $s | $per | $up | $(value "$dir" edge_cut) |" | tee -a "$table"
        done
        unset times
      done
      # The CPU twin on the same partition, once (CPU=0: not).
      [ "${CPU:-1}" = 1 ] || continue
      cpu=${1%-cuda} pre=${2%-cuda} dir=$work/$res-$cpu-$n-cpu
      solve "$dir" "$n" "$cpu" "$pre" "$res" $((cores / n)) || tail -5 "$dir.log"
      s=$(value "$dir" solve) it=$(value "$dir" iterations)
      per=$(awk -v s="$s" -v i="$it" 'BEGIN { if (i > 0) printf "%.3f", 1000 * s / i }')
      echo "| $res | $(value "$dir" nodes) | $cpu + $pre | $n | CPU, $((cores / n)) threads a rank | MPI | head | $it | $(value "$dir" relative_residual) | $s | $per | | $(value "$dir" edge_cut) |" | tee -a "$table"
    done
    unset base_per
  done
  echo "== cabin-$res ($SECONDS s)"
done
echo "== script took $SECONDS s"
