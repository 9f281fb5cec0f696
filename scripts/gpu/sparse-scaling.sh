#!/usr/bin/env bash
# The car cabin's Helmholtz system solved over 1 to GPUS GPUs of one host, each rank its own
# GPU, in one device call (carry [".devdeps"]: it holds Scotch, which the GPU machines lack):
#   RESOLUTIONS="40 80" REPEATS=3 CPU=1 bash scripts/gpu/sparse-scaling.sh
# For each resolution and pair (bicgstab-l-cuda + jacobi-cuda, bicgstab-cuda + ilu0-cuda: block
# Jacobi per GPU) on 1, 2 (and 4) ranks to 1e-8: iterations, median solve seconds of REPEATS
# runs, time per iteration and its speed-up against one GPU, the true relative residual; then
# the CPU twin on the same partition (all the host's cores shared by the ranks) once. Over
# ranks each GPU run is made with the ghosts copied GPU to GPU and again staged through the
# host (SOLVENT_CUDA_HALO=host), the column "ghosts" says which. The rows
# are split by Scotch: the same partition for the GPU and the CPU runs of one rank count.
# One table in $OUT/sparse-scaling.md (also printed).
SECONDS=0
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/sparse-scaling-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
targets="solvent steady helmholtz bicgstab bicgstab-l jacobi ilu0 bicgstab-cuda bicgstab-l-cuda
  jacobi-cuda ilu0-cuda"
ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
grep -q "^SCOTCH_LIBRARY:FILEPATH=/" "$BUILD/CMakeCache.txt" || echo "warning: built without Scotch (rows split in order)"
gpus=$(nvidia-smi -L | wc -l)
cores=$(nproc)
echo "== built ($SECONDS s); $gpus GPUs, $cores cores"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
ranks="1 2"; [ "$gpus" -ge 4 ] && ranks="1 2 4"
work=/tmp/sparse-scaling && rm -rf $work && mkdir -p $work
value() { sed -n "s/^'\{0,1\}$2'\{0,1\} = //p" "$1/record.toml" | head -1 | tr -d "'"; }
solve() {  # solve DIR RANKS SOLVER PRECONDITIONER RESOLUTION THREADS [HALO]
  OMP_NUM_THREADS=$6 SOLVENT_CUDA_HALO=${7:-auto} timeout 300 mpirun --oversubscribe --bind-to none \
    -n "$2" -x OMP_NUM_THREADS -x SOLVENT_CUDA_HALO \
    "$BUILD/bin/solvent" run config/krylov-cabin-bicgstab-l.toml --set model.resolution="$5" \
    --set "linear_solver.type=\"$3\"" --set "linear_solver.$3.tolerance=1e-8" \
    --set "linear_solver.$3.max_iterations=4000" --set "preconditioner.type=\"$4\"" \
    --set 'output.format="none"' --output "$1" --overwrite --no-progress > "$1.log" 2>&1
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
table=$OUT/sparse-scaling.md
{
  echo "| cabin | unknowns | solver + preconditioner | ranks | device | ghosts | iterations | relative residual | solve s (median) | ms / iteration | per-iteration speed-up | edge cut |"
  echo "| --- | ---: | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$table"
for res in ${RESOLUTIONS:-40 80}; do
  for pair in "bicgstab-l-cuda jacobi-cuda" "bicgstab-cuda ilu0-cuda"; do
    set -- $pair
    base=""
    for n in $ranks; do
      halos="auto"; [ "$n" -gt 1 ] && halos="auto host"
      for halo in $halos; do
        times=""
        for r in $(seq ${REPEATS:-3}); do
          dir=$work/$res-$1-$n-$halo-$r
          solve "$dir" "$n" "$1" "$2" "$res" $((cores / n)) $halo
          rc=$?
          [ $rc -eq 0 ] || { echo "$1 + $2, cabin-$res, $n ranks: exit $rc"; tail -5 "$dir.log"; }
          times="$times $(value "$dir" solve)"
        done
        s=$(echo $times | tr ' ' '\n' | median)
        it=$(value "$dir" iterations)
        per=$(awk -v s="$s" -v i="$it" 'BEGIN { if (i > 0) printf "%.3f", 1000 * s / i }')
        [ -z "$base" ] && base=$per
        up=$(awk -v a="$base" -v b="$per" 'BEGIN { if (b > 0) printf "%.2fx", a / b }')
        ghosts=$([ "$n" = 1 ] && echo "—" || { [ $halo = host ] && echo "host-staged" || echo "GPU to GPU"; })
        echo "| $res | $(value "$dir" nodes) | $1 + $2 | $n | GPU | $ghosts | $it | $(value "$dir" relative_residual) | $s | $per | $up | $(value "$dir" edge_cut) |" | tee -a "$table"
      done
      # The CPU twin on the same partition, once (CPU=0: not).
      [ "${CPU:-1}" = 1 ] || continue
      cpu=${1%-cuda} pre=${2%-cuda} dir=$work/$res-$cpu-$n-cpu
      solve "$dir" "$n" "$cpu" "$pre" "$res" $((cores / n)) || tail -5 "$dir.log"
      s=$(value "$dir" solve) it=$(value "$dir" iterations)
      per=$(awk -v s="$s" -v i="$it" 'BEGIN { if (i > 0) printf "%.3f", 1000 * s / i }')
      echo "| $res | $(value "$dir" nodes) | $cpu + $pre | $n | CPU, $((cores / n)) threads a rank | MPI | $it | $(value "$dir" relative_residual) | $s | $per | | $(value "$dir" edge_cut) |" | tee -a "$table"
    done
  done
  echo "== cabin-$res ($SECONDS s)"
done
echo "== script took $SECONDS s"
