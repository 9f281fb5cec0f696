#!/usr/bin/env bash
# Every multi-GPU measurement of one host on 1, 2, 4 and 8 GPUs (as many of those as the host
# has: it runs end to end on 2 or 4 GPUs too), carry [".devdeps"]:
#   bash scripts/gpu/eight-gpu.sh
# 1. the build and the multi-GPU tests (multi-gpu.sh check: the MPI tests, every split of the
#    host's GPUs for cg-cuda and bicgstab-cuda, compute-sanitizer on 2 ranks);
# 2. cg-cuda and bicgstab-cuda, Poisson, strong at 512^3 and 768^3 and weak at 256^3 a GPU
#    (scaling-benchmark, GPU peer halos), ms per iteration against one GPU;
# 3. matm-cuda in each coupling (the exact wavefront split along axis 1, and block) at 512^3
#    and 768^3 (multi-gpu.sh matm), and weak at 384^3 a GPU (multi-gpu.sh weak);
# 4. the every-node stencil at 512^3 and 768^3 where the stencil plugin has its continuous
#    mode, and the distributed sparse solve where scripts/gpu/sparse.sh exists.
# SIZES (default "512 768") and STRONG_SIZES override the sizes; STAGES (default "check krylov
# matm stencil sparse") picks the stages, so that a host whose whole run would pass one call's
# time limit can take it in several calls; results under $OUT, the tables in $OUT/eight-gpu.md.
SECONDS=0
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/eight-gpu-out}; mkdir -p "$OUT"; export OUT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
gpus=$(nvidia-smi -L | wc -l)
counts=""; for g in 1 2 4 8; do [ $g -le $gpus ] && counts="$counts $g"; done
report=$OUT/eight-gpu.md
echo "# $gpus GPUs: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" >> $report
stages=${STAGES:-check krylov matm stencil sparse}
want() { [[ " $stages " == *" $1 "* ]]; }

if want check; then
  OUT=$OUT/check bash scripts/gpu/multi-gpu.sh check 2>&1 | tee -a $report
  echo "== tests ($SECONDS s)"
fi

if want krylov; then
  ninja -C "$BUILD" scaling-benchmark > "$OUT/build-bench.log" 2>&1 || tail -20 "$OUT/build-bench.log"
  b=$BUILD/bin/scaling-benchmark
  cores=$(nproc)
  { echo; echo "| solver | problem | scaling | ranks | grid | split | halo | iterations | ms / iteration | halo KiB / product | ms / product | ms halo / product | residual |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"; } >> $report
  for solver in cg-cuda bicgstab-cuda; do
    for n in ${STRONG_SIZES:-512 768}; do for g in $counts; do
      t=$((cores / g))
      OMP_NUM_THREADS=$t timeout 300 mpirun --bind-to none -n $g -x OMP_NUM_THREADS $b \
        --solver $solver --problem poisson --n $n 2>>"$OUT/bench.err" | tee -a $report
    done; done
    for g in $counts; do
      t=$((cores / g))
      OMP_NUM_THREADS=$t timeout 300 mpirun --bind-to none -n $g -x OMP_NUM_THREADS $b \
        --solver $solver --n 256 --weak 1 2>>"$OUT/bench.err" | tee -a $report
    done
  done
  echo "== Krylov ($SECONDS s)"
fi

if want matm; then
  for n in ${SIZES:-512 768}; do
    OUT=$OUT/matm-$n SPLIT_CHECK=0 PROBLEMS=poisson SIZE=$n VARIANTS="pipeline:auto:x block:auto" \
      MATM_SET='output.format="none"' bash scripts/gpu/multi-gpu.sh matm 2>&1 | grep "^|" | tee -a $report
  done
  OUT=$OUT/weak WEAK=384 VARIANTS="x" bash scripts/gpu/multi-gpu.sh weak 2>&1 | grep "^|" | tee -a $report
  echo "== matm ($SECONDS s)"
fi

solvent=$BUILD/bin/solvent
if want stencil; then
  if $solvent describe angiogenesis-3d 2>/dev/null | grep -q continuous; then
    ninja -C "$BUILD" angiogenesis-3d explicit-stencil3d > /dev/null 2>&1
    { echo; echo "| grid | GPUs | steps | step s | whole run s | step time vs 1 GPU |"; echo "| --- | --- | --- | --- | --- | --- |"; } >> $report
    for n in ${SIZES:-512 768}; do
      base=""
      for g in $counts; do
        dir=/tmp/eight-stencil-$n-$g; rm -rf $dir
        timeout 300 mpirun --bind-to none -n $g $solvent run config/angiogenesis-3d-cuda.toml \
          --set model.mode='"continuous"' --set model.nx=$n --set model.ny=$n --set model.nz=$n \
          --set integrator.steps=200 --set 'output.format="none"' --output $dir > $OUT/stencil-$n-$g.log 2>&1 ||
          { echo "stencil $n on $g GPUs: exit $?; $(tail -1 $OUT/stencil-$n-$g.log)" | tee -a $report; continue; }
        steps=$(sed -n '/^\[seconds\]/,$p' $dir/record.toml | sed -n 's/^step = //p')
        wall=$(sed -n '/^\[seconds\]/,$p' $dir/record.toml | sed -n 's/^wall = //p')
        [ -z "$base" ] && base=$steps
        printf '| %s^3 | %s | 200 | %.3f | %.2f | %.2fx |\n' $n $g $steps $wall \
          $(python3 -c "print($base / $steps)") | tee -a $report
      done
    done
    echo "== stencil ($SECONDS s)"
  else
    echo "the stencil plugin has no continuous mode in this build: skipped" | tee -a $report
  fi
fi

if want sparse && [ -f scripts/gpu/sparse.sh ]; then
  OUT=$OUT/sparse bash scripts/gpu/sparse.sh 2>&1 | tail -30 | tee -a $report
  echo "== sparse ($SECONDS s)"
fi
echo "== eight-gpu.sh took $SECONDS s" | tee -a $report
