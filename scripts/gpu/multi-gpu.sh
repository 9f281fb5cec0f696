#!/usr/bin/env bash
# Several GPUs of one host (kinds nvidia-h100-x2/-x4, nvidia-h200-x2/-x4), carry [".devdeps"]:
#   bash scripts/gpu/multi-gpu.sh check   build; the MPI tests of the Krylov and MATM packages;
#                                         cg-cuda and bicgstab-cuda on every split of 1 to
#                                         GPUS ranks with GPU peer halos (a run still going
#                                         after 90 s has its stacks taken with cuda-gdb);
#                                         compute-sanitizer memcheck on 2 ranks
#   bash scripts/gpu/multi-gpu.sh matm    matm-cuda on every split of 1 to GPUS ranks at 64^3
#                                         (iterations and last residual against one GPU, GPU
#                                         peer and host-staged sweeps), then on 1 to GPUS GPUs
#                                         in each of VARIANTS (coupling:halo[:x], x: split
#                                         along axis 1, n x 1 x 1; default
#                                         "pipeline:auto pipeline:host block:auto"), Poisson
#                                         and convection-diffusion at SIZE^3 (default 384) to
#                                         1e-8: iterations, set-up, solve and whole-run
#                                         seconds, each against one GPU (MATM_SET: one
#                                         more --set for these runs)
#   bash scripts/gpu/multi-gpu.sh weak    matm-cuda weak scaling, WEAK^3 nodes per GPU (default
#                                         384), the grid stretched along the split axis (n x 1 x 1,
#                                         GPU to GPU) or axis 3 (1 x 1 x n, VARIANTS "x z"):
#                                         device ms per iteration against one GPU's
# Results under $OUT.
SECONDS=0
mode=${1:-check}
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/multi-gpu-out}; mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
gpus=$(nvidia-smi -L | wc -l)
targets="solvent grid-equations-3d steady cg-cuda bicgstab-cuda jacobi-cuda cg bicgstab jacobi
  matm matm-cuda plugins-matm-cuda-tests plugins-krylov-distributed-tests"
[ "$mode" = check ] && targets=""  # the tests need every plugin
ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "== built ($SECONDS s); $gpus GPUs"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | head -1 | tee "$OUT/device.txt"
solvent=$BUILD/bin/solvent
w=/tmp/multi-gpu && rm -rf $w && mkdir -p $w
value() { sed -n "s/^ *$2 = //p" "$1/record.toml" | head -1 | tr -d "'"; }
grid() {  # file solver problem n tolerance [preconditioner]
  printf '[run]\nname = "x"\n[model]\ntype = "grid-equations-3d"\nn1 = %s\nn2 = %s\nn3 = %s\nproblem = "%s"\n[integrator]\ntype = "steady"\n[linear_solver]\ntype = "%s"\ntolerance = %s\nmax_iterations = 20000\n' \
    $4 $4 $4 $3 $2 $5 > $1
  [ -n "${6:-}" ] && printf '[preconditioner]\ntype = "%s"\n' $6 >> $1
}

if [ "$mode" = check ]; then
  # The tests on the CPU side by side (on the 4-GPU host the nine took 300 s one after
  # another, of a 600 s call), unbound so that concurrent mpiruns do not pin their ranks onto
  # the same cores; the CUDA ones after, alone with the GPUs.
  (cd "$BUILD" && OMPI_MCA_hwloc_base_binding_policy=none timeout 300 ctest -L mpi -LE cuda \
    -R "krylov|matm|ranks" -j 4 --output-on-failure
    timeout 300 ctest -L mpi -L cuda -R "krylov|matm|ranks" --output-on-failure) > "$OUT/tests.log" 2>&1
  grep -E "tests passed|Failed|\*\*\*" "$OUT/tests.log" | head -12
  echo "== tests ($SECONDS s)"
  splits="1x1x1 1x1x2 1x2x1"
  [ $gpus -ge 3 ] && splits="$splits 1x1x3 1x3x1"
  [ $gpus -ge 4 ] && splits="$splits 1x1x4 1x4x1 1x2x2 4x1x1"
  for solver in cg-cuda bicgstab-cuda; do for split in $splits; do
    n=$(( $(echo $split | tr x '*') ))
    grid $w/$solver.toml $solver poisson 64 1e-8 jacobi-cuda
    sed -i "s/^problem/split = \"$split\"\nproblem/" $w/$solver.toml
    log=$OUT/$solver-$split.log; dir=$w/$solver-$split
    mpirun --bind-to none -n $n $solvent run $w/$solver.toml --output $dir > $log 2>&1 &
    mp=$!
    for i in $(seq 90); do kill -0 $mp 2>/dev/null || break; sleep 1; done
    if kill -0 $mp 2>/dev/null; then
      echo "$solver $split: STILL RUNNING after 90 s (stacks in $log)"
      for pid in $(pgrep -f "^$solvent run $w/$solver.toml"); do
        echo "=== pid $pid" >> $log; timeout 60 cuda-gdb -batch -p $pid -ex "thread apply all bt 25" >> $log 2>&1
      done
      kill -9 $mp; pkill -9 -f "^$solvent run"; sleep 2
    else
      wait $mp; rc=$?
      echo "$solver $split: exit $rc, $(value $dir iterations) iterations, residual history $(md5sum < $dir/residual_history.csv | cut -c1-8) $(grep -h error: $log | head -1)"
    fi
  done; done | tee "$OUT/splits.txt"
  echo "== splits ($SECONDS s)"
  grid $w/small.toml cg-cuda poisson 24 1e-10 jacobi-cuda
  for halo in auto host; do
    SOLVENT_CUDA_HALO=$halo timeout 200 mpirun --bind-to none -n 2 -x SOLVENT_CUDA_HALO compute-sanitizer --tool memcheck \
      --error-exitcode 9 $solvent run $w/small.toml --output $w/sanitizer-$halo > "$OUT/sanitizer-$halo.log" 2>&1
    echo "compute-sanitizer memcheck, 2 ranks, cg-cuda, halo $halo: exit $?, $(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitizer-$halo.log") ranks with 0 errors"
  done | tee -a "$OUT/splits.txt"
  grid $w/small-matm.toml matm-cuda convection-diffusion 48 1e-8
  for coupling in pipeline block; do
    timeout 200 mpirun --bind-to none -n 2 compute-sanitizer --tool memcheck --error-exitcode 9 $solvent run $w/small-matm.toml \
      --set "linear_solver.coupling=\"$coupling\"" --output $w/sanitizer-matm-$coupling > "$OUT/sanitizer-matm-$coupling.log" 2>&1
    echo "compute-sanitizer memcheck, 2 ranks, matm-cuda, coupling $coupling: exit $?, $(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitizer-matm-$coupling.log") ranks with 0 errors"
  done | tee -a "$OUT/splits.txt"
  echo "== sanitizer ($SECONDS s)"
fi

if [ "$mode" = matm ]; then
  # SPLIT_CHECK=0: the scaling table only.
  if [ "${SPLIT_CHECK:-1}" = 1 ]; then
    splits="1x1x1 1x1x2 1x2x1 2x1x1"
    [ $gpus -ge 4 ] && splits="$splits 1x1x4 1x2x2 1x4x1 4x1x1 2x1x2"
    for problem in poisson convection-diffusion; do
      grid $w/split-$problem.toml matm-cuda $problem 64 1e-8
      for split in $splits; do for halo in ${SPLIT_HALOS:-auto host}; do
        n=$(( $(echo $split | tr x '*') ))
        [ $n = 1 ] && [ $halo = host ] && continue
        dir=$w/split-$problem-$split-$halo
        SOLVENT_CUDA_HALO=$halo timeout 120 mpirun --bind-to none -n $n -x SOLVENT_CUDA_HALO $solvent run $w/split-$problem.toml \
          --set "model.split=\"$split\"" --output $dir > $OUT/split-$problem-$split-$halo.log 2>&1
        echo "matm-cuda $problem $split halo $halo: exit $?, $(value $dir iterations) iterations, last residual $(tail -1 $dir/residual_history.csv | cut -d, -f2), $(value $dir sweep_handoff)"
      done; done
    done | tee "$OUT/matm-splits.txt"
    echo "== matm splits ($SECONDS s)"
  fi
  size=${SIZE:-384}
  echo "| problem | GPUs | coupling | iterations | set-up s | solve s | whole run s | solve vs 1 GPU |" > "$OUT/matm.md"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |" >> "$OUT/matm.md"
  for problem in ${PROBLEMS:-poisson convection-diffusion}; do
    grid $w/$problem.toml matm-cuda $problem $size 1e-8
    base=""
    for n in $(seq 1 $gpus); do for variant in ${VARIANTS:-pipeline:auto pipeline:host block:auto}; do
      IFS=: read -r coupling halo cut <<< "$variant"
      # cut "x": the grid split along axis 1 (n x 1 x 1), which only GPU-to-GPU sweeps take.
      split=auto; [ "$cut" = x ] && split=${n}x1x1
      [ $n = 3 ] && continue
      # One GPU once, the baseline, whatever the variant.
      if [ $n = 1 ]; then [ -n "$base" ] && continue; split=auto; fi
      dir=$w/$problem-$n-$coupling-$halo-$split
      SOLVENT_CUDA_HALO=$halo timeout 300 mpirun --bind-to none -n $n -x SOLVENT_CUDA_HALO $solvent run $w/$problem.toml \
        --set "linear_solver.coupling=\"$coupling\"" --set "model.split=\"$split\"" ${MATM_SET:+--set "$MATM_SET"} --output $dir \
        > $OUT/matm-$problem-$n-$coupling-$halo-$split.log 2>&1 ||
        { echo "$problem $n $coupling $halo $split: exit $?"; tail -3 $OUT/matm-$problem-$n-$coupling-$halo-$split.log; continue; }
      solve=$(sed -n '/^\[seconds\]/,$p' $dir/record.toml | sed -n 's/^solve = //p')
      # Everything before the first iteration: the plugins, the model (it assembles), a
      # calibration, the operator and right-hand side, the core's wiring, the solver's split
      # and upload.
      setup=$(sed -n '/^\[seconds\]/,$p' $dir/record.toml | awk -F' = ' '/^(plugins|model|calibration|assembly|setup|solver_setup) =/ {s += $2} END {print s}')
      wall=$(sed -n '/^\[seconds\]/,$p' $dir/record.toml | sed -n 's/^wall = //p')
      [ -z "$base" ] && base=$solve
      echo "  $problem $n $coupling $halo phases: $(sed -n '/^\[seconds\]/,/^$/p' $dir/record.toml | sed 1d | tr '\n' ' ')"
      echo "  $problem $n $coupling $halo device ms an iteration by phase: $(value $dir device_ms_per_iteration_by_phase_each_rank)$(
        [ $n = 1 ] && value $dir device_ms_per_iteration_by_phase)"
      echo "  $problem $n $coupling $halo solve s by part: $(value $dir solve_seconds_by_part)"
      [ $n -gt 1 ] && [ $coupling = pipeline ] && coupling="pipeline, $(value $dir sweep_handoff), split $split"
      printf '| %s %s^3 | %s | %s | %s | %.2f | %.2f | %.2f | %.2fx |\n' $problem $size $n "$coupling" \
        "$(value $dir iterations)" $setup $solve $wall $(python3 -c "print($base/$solve)") | tee -a "$OUT/matm.md"
    done; done
  done
  echo "== matm ($SECONDS s)"
fi

if [ "$mode" = weak ]; then
  size=${WEAK:-384}
  echo "| problem | GPUs | split | grid | iterations | device ms/iteration | efficiency per iteration | solve s |" > "$OUT/weak.md"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |" >> "$OUT/weak.md"
  for problem in ${PROBLEMS:-poisson}; do
    base=""
    for n in $(seq 1 $gpus); do for cut in ${VARIANTS:-x z}; do
      [ $n = 3 ] && continue
      if [ $n = 1 ]; then [ -n "$base" ] && continue; split=1x1x1; dims="$size $size $size"
      elif [ $cut = x ]; then split=${n}x1x1; dims="$((size * n)) $size $size"
      else split=1x1x$n; dims="$size $size $((size * n))"; fi
      read -r a b c <<< "$dims"
      grid $w/weak.toml matm-cuda $problem $a 1e-8
      sed -i "s/^n2 = .*/n2 = $b/; s/^n3 = .*/n3 = $c/" $w/weak.toml
      dir=$w/weak-$problem-$n-$split
      timeout 300 mpirun --bind-to none -n $n $solvent run $w/weak.toml --set "model.split=\"$split\"" \
        --set 'output.format="none"' --output $dir > $OUT/weak-$problem-$n-$split.log 2>&1 ||
        { echo "weak $problem $n $split: exit $?"; tail -3 $OUT/weak-$problem-$n-$split.log; continue; }
      ms=$(sed -n 's/.*: \([0-9.]*\) ms per iteration on the device.*/\1/p' $OUT/weak-$problem-$n-$split.log | head -1)
      [ -z "$base" ] && base=$ms
      solve=$(sed -n '/^\[seconds\]/,$p' $dir/record.toml | sed -n 's/^solve = //p')
      printf '| %s | %s | %s | %sx%sx%s | %s | %s | %.0f %% | %.2f |\n' $problem $n $split $a $b $c \
        "$(value $dir iterations)" $ms $(python3 -c "print(100 * $base / $ms)") $solve | tee -a "$OUT/weak.md"
    done; done
  done
  echo "== weak ($SECONDS s)"
fi
