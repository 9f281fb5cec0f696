#!/usr/bin/env bash
# MATM and the hybrid stencil over MPI ranks on a GPU machine, carry [".devdeps"]:
#   bash scripts/gpu/ranks.sh check   build; the matm and stencil3d tests (CUDA and MPI);
#                                     matm-cuda and the CUDA stencil on 2 ranks against 1
#   bash scripts/gpu/ranks.sh bench   boundary-plane transfers (cpu-cpu, gpu-cpu, gpu-gpu,
#                                     T = a + b V); matm on 1, 2, 4, 8 CPU ranks at 193^3 (40 iterations) with
#                                     the pipeline's wait; fragments 1 to 64 on 4 ranks
#   bash scripts/gpu/ranks.sh hetero  matm-cuda with one GPU rank and two CPU ranks
#                                     (device = "cuda,cpu,cpu") at HETERO_SIZES^3 (default
#                                     "193 256"), 40 iterations, blocks even and by measured
#                                     speed, beside the GPU alone; the warnings naming a rank
#                                     given no block
#   bash scripts/gpu/ranks.sh empty   every -cuda solver of the grid (cg-cuda, bicgstab-cuda,
#                                     bicgstab-l-cuda, tfqmr-cuda with jacobi-cuda; matm-cuda)
#                                     on 3 ranks whose rank 1 is given no block (its speed
#                                     faked, balance = "measured"), against one process: the
#                                     warning, the record, the iterations and the residual
#                                     history; matm-cuda with block_z = 1 too; memcheck on
#                                     the emptied runs of cg-cuda and matm-cuda
# On a one-GPU machine both ranks of a GPU run share GPU 0: equality, not scaling. Results
# under $OUT.
SECONDS=0
mode=${1:-check}
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/ranks-out}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
targets="solvent grid-equations-3d steady matm matm-cuda angiogenesis-3d explicit-stencil3d
  scaling-benchmark plugins-matm-tests plugins-matm-cuda-tests plugins-stencil3d-tests
  plugins-stencil3d-cuda-tests sdk-conformance-distributed-tests cg bicgstab bicgstab-l tfqmr
  cg-cuda bicgstab-cuda bicgstab-l-cuda tfqmr-cuda jacobi jacobi-cuda test-fault-disk-full"
[ "$mode" = empty ] && targets="solvent grid-equations-3d steady cg-cuda bicgstab-cuda bicgstab-l-cuda
  tfqmr-cuda jacobi-cuda matm-cuda"
ninja -C "$BUILD" -k 0 $targets > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
mpirun --version | head -1 | tee -a "$OUT/device.txt"
solvent=$BUILD/bin/solvent
work=/tmp/ranks-work && rm -rf $work && mkdir -p $work
value() { sed -n "s/^ *$2 = //p" "$1/record.toml" | head -1 | tr -d "'"; }

if [ "$mode" = check ]; then
  (cd "$BUILD" && timeout 420 ctest -j4 -R "matm|stencil3d|conformance-distributed" --output-on-failure) > "$OUT/tests.log" 2>&1
  grep -E "tests passed|Failed|Skipped|\*\*\*" "$OUT/tests.log" | tee -a "$OUT/summary.txt"
  echo "== tests ($SECONDS s)"
  for problem in poisson convection-diffusion; do
    printf '[run]\nname = "x"\n[model]\ntype = "grid-equations-3d"\nn1 = 96\nn2 = 96\nn3 = 96\nproblem = "%s"\n[integrator]\ntype = "steady"\n[linear_solver]\ntype = "matm-cuda"\ntolerance = 1e-10\n' \
      $problem > $work/$problem.toml
    for n in 1 2; do
      mpirun --bind-to none -n $n $solvent run $work/$problem.toml --output $work/$problem-$n > $work/$problem-$n.log 2>&1 ||
        tail -5 $work/$problem-$n.log
    done
    echo "matm-cuda $problem 96^3: iterations 1 rank $(value $work/$problem-1 iterations), 2 ranks $(value $work/$problem-2 iterations); error_max $(value $work/$problem-1 error_max) / $(value $work/$problem-2 error_max)" | tee -a "$OUT/summary.txt"
    python3 tests/support/read_pvti.py compare $work/$problem-2/solution.pvti $work/$problem-1/solution.vti --rtol 1e-12 2>&1 | tail -1 | tee -a "$OUT/summary.txt"
  done
  cfg=tests/plugins/stencil3d/fast.toml
  # Against the CPU engine on as many ranks: each rank writes its own checkpoint file and
  # field piece (CPU over ranks equals one CPU process in plugins-stencil3d-distributed).
  for n in 1 2 4; do
    for device in cpu cuda; do
      mpirun --oversubscribe -n $n $solvent run $cfg --set "integrator.device=\"$device\"" \
        --output $work/st-$device-$n > $work/st-$device-$n.log 2>&1 || tail -5 $work/st-$device-$n.log
    done
    same=yes
    for f in $(cd $work/st-cpu-$n && find . -name 'checkpoint*.bin' -o -name 'fields_00000060*' -type f -o -name network_00000060.vtp); do
      cmp -s $work/st-cpu-$n/$f $work/st-cuda-$n/$f || same="no ($f differs)"
    done
    echo "explicit-stencil3d fast.toml, CUDA on $n ranks = CPU on $n, byte for byte: $same" | tee -a "$OUT/summary.txt"
  done
  echo "== equality ($SECONDS s)"
  # compute-sanitizer on both ranks: matm-cuda pipelined over 2 ranks (GPU beside GPU, and
  # GPU beside CPU), and the CUDA stencil beside a CPU rank.
  # 48^3 to 1e-8: under memcheck a GPU rank beside a CPU rank sweeps in fragments, each a
  # launch the tool slows, and 70^3 to 1e-10 did not end within the 200 s.
  sed -e 's/= 96/= 48/; s/1e-10/1e-8/' $work/poisson.toml > $work/small.toml
  for devices in cuda cuda,cpu; do
    timeout 200 mpirun --bind-to none -n 2 compute-sanitizer --tool memcheck --error-exitcode 9 $solvent run \
      $work/small.toml --set "linear_solver.device=\"$devices\"" --output $work/san-matm-$devices \
      > "$OUT/sanitizer-matm-${devices/,/-}.log" 2>&1
    echo "compute-sanitizer memcheck, matm-cuda on 2 ranks ($devices): exit $? $(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitizer-matm-${devices/,/-}.log") ranks with 0 errors" | tee -a "$OUT/summary.txt"
  done
  timeout 200 mpirun --bind-to none -n 2 compute-sanitizer --tool memcheck --error-exitcode 9 $solvent run $cfg \
    --set 'integrator.device="cuda,cpu"' --output $work/san-stencil > "$OUT/sanitizer-stencil.log" 2>&1
  echo "compute-sanitizer memcheck, stencil on 2 ranks (cuda,cpu): exit $? $(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitizer-stencil.log") ranks with 0 errors" | tee -a "$OUT/summary.txt"
  echo "== sanitizer ($SECONDS s)"
fi

if [ "$mode" = empty ]; then
  source tests/support/grid_runs.sh
  # emptied [PREFIX...] FILE DIR [SETTINGS...]: the file on 3 ranks, rank 1 given no block.
  emptied() {
    local prefix=()
    while [ "$1" != "$solvent" ]; do prefix+=("$1"); shift; done
    local file=$2 dir=$3; shift 3
    SOLVENT_TEST_RANK_SPEED="0:1000,1:1e-6,2:1000" timeout 300 mpirun --oversubscribe --bind-to none \
      -n 3 "${prefix[@]}" $solvent run $file --output $dir --set 'run.balance="measured"' \
      --no-progress "$@"
  }
  for solver in cg-cuda bicgstab-cuda bicgstab-l-cuda tfqmr-cuda matm-cuda; do
    pc='[preconditioner]
type = "jacobi-cuda"'
    [ $solver = matm-cuda ] && pc=
    grid_problem $work/$solver.toml $solver poisson 33 33 33 "$pc"
    one=$work/$solver-1 dir=$work/$solver-empty
    $solvent run $work/$solver.toml --output $one --no-progress > $one.log 2>&1 || tail -5 $one.log
    emptied $solvent $work/$solver.toml $dir > $dir.log 2>&1
    rc=$?
    same=no; cmp -s $one/residual_history.csv $dir/residual_history.csv && same=yes
    echo "$solver, 3 ranks sharing the GPU, rank 1 emptied: exit $rc; warnings $(grep -c 'is given no block' $dir.log); ranks_without_block $(value $dir ranks_without_block); blocks $(value $dir block_sizes_axis3); iterations $(value $dir iterations) (one process $(value $one iterations)); residual history bit for bit: $same; error_max $(value $dir error_max) ($(value $one error_max))" | tee -a "$OUT/summary.txt"
  done
  # One layer a sweep block: the emptied rank's hand-off slots once counted below zero.
  dir=$work/matm-cuda-empty-bz1
  emptied $solvent $work/matm-cuda.toml $dir --set linear_solver.block_z=1 > $dir.log 2>&1
  echo "matm-cuda block_z = 1, rank 1 emptied: exit $?; iterations $(value $dir iterations) (one process $(value $work/matm-cuda-1 iterations))" | tee -a "$OUT/summary.txt"
  for solver in cg-cuda matm-cuda; do
    emptied compute-sanitizer --tool memcheck --error-exitcode 9 $solvent $work/$solver.toml \
      $work/san-empty-$solver > "$OUT/sanitizer-empty-$solver.log" 2>&1
    echo "compute-sanitizer memcheck, $solver on 3 ranks with rank 1 emptied: exit $? $(grep -c 'ERROR SUMMARY: 0 errors' "$OUT/sanitizer-empty-$solver.log") ranks with 0 errors" | tee -a "$OUT/summary.txt"
  done
  echo "== empty ($SECONDS s)"
fi

if [ "$mode" = bench ]; then
  b=$BUILD/bin/scaling-benchmark
  # MATM_ONLY=1: the matm runs alone.
  [ -n "${MATM_ONLY:-}" ] || for pair in cpu-cpu gpu-cpu gpu-gpu; do
    OMP_NUM_THREADS=1 timeout 120 mpirun --bind-to none -n 2 $b --transfer $pair 2>&1 | grep -v "^$" | tee -a "$OUT/transfer.md"
  done
  echo "== transfer ($SECONDS s)"
  printf '[run]\nname = "x"\n[model]\ntype = "grid-equations-3d"\nn1 = 193\nn2 = 193\nn3 = 193\nproblem = "poisson"\n[integrator]\ntype = "steady"\n[linear_solver]\ntype = "matm"\ntolerance = 1e-30\nmax_iterations = 40\n' > $work/matm.toml
  echo "| ranks | threads a rank | split | fragments | solve s | s / iteration | sweep s | sweep wait s |" > "$OUT/matm-ranks.md"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |" >> "$OUT/matm-ranks.md"
  for run in "1 0" "2 0" "4 0" "8 0" "4 1" "4 4" "4 16" "4 64"; do
    set -- $run
    n=$1 fragments=$2 threads=$((16 / $1)) dir=$work/matm-$1-$2
    # Each rank its own cores: two ranks' threads on the same cores spin against each other.
    OMP_NUM_THREADS=$threads mpirun --map-by slot:PE=$threads --bind-to core -n $n -x OMP_NUM_THREADS \
      $solvent run $work/matm.toml --output $dir --set linear_solver.fragments=$fragments --set linear_solver.threads=$threads \
      > $dir.log 2>&1
    solve=$(value $dir solve)
    echo "| $n | $threads | $(value $dir decomposition | cut -d' ' -f1) | $(value $dir fragments) | $solve | $(python3 -c "print(f'{$solve/$(value $dir iterations):.4f}')") | $(value $dir sweep_seconds) | $(value $dir sweep_wait_seconds) |" >> "$OUT/matm-ranks.md"
  done
  cat "$OUT/matm-ranks.md"
  echo "== matm ranks ($SECONDS s)"
fi

if [ "$mode" = hetero ]; then
  # The GPU rank gets two cores, each CPU rank half of the rest (7 on 16 cores), bound by
  # taskset per rank: mpirun's --map-by slot:PE=n gives every rank the same count.
  cores=$(nproc) threads=$(( ($(nproc) - 2) / 2 ))
  cat > $work/bind.sh <<SH
#!/usr/bin/env bash
case \$OMPI_COMM_WORLD_RANK in
  0) set -- 0-1 "\$@" ;;
  1) set -- 2-$((1 + threads)) "\$@" ;;
  *) set -- $((2 + threads))-$((1 + 2 * threads)) "\$@" ;;
esac
exec taskset -c "\$@"
SH
  echo "| grid | ranks | devices | balance | speeds (nodes/s) | block sizes | iterations | solve s | s / iteration |" > "$OUT/hetero.md"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |" >> "$OUT/hetero.md"
  row() {
    local dir=$1 solve
    solve=$(value $dir solve)
    echo "| $n³ | $2 | $(value $dir device_each_rank) | $3 | $(value $dir measured_speed_each_rank) | $(sed -n 's/^ *block_sizes_axis[0-9] = //p' $dir/record.toml | tr -d "'") | $(value $dir iterations) | $solve | $(python3 -c "print(f'{$solve/$(value $dir iterations):.4f}')") |" >> "$OUT/hetero.md"
  }
  for n in ${HETERO_SIZES:-193 256}; do
    printf '[run]\nname = "x"\n[model]\ntype = "grid-equations-3d"\nn1 = %s\nn2 = %s\nn3 = %s\nproblem = "poisson"\n[integrator]\ntype = "steady"\n[linear_solver]\ntype = "matm-cuda"\ntolerance = 1e-30\nmax_iterations = 40\n' $n $n $n > $work/hetero.toml
    $solvent run $work/hetero.toml --output $work/hetero-$n-gpu > $work/hetero-$n-gpu.log 2>&1 || tail -5 $work/hetero-$n-gpu.log
    row $work/hetero-$n-gpu 1 -
    for balance in even measured; do
      dir=$work/hetero-$n-$balance
      mpirun --bind-to none -n 3 bash $work/bind.sh $solvent run $work/hetero.toml --output $dir \
        --set 'linear_solver.device="cuda,cpu,cpu"' --set linear_solver.threads=$threads \
        --set "run.balance=\"$balance\"" > $dir.log 2>&1 || tail -5 $dir.log
      row $dir 3 $balance
      grep -h "no block" $dir.log | sed "s/^/$n³ $balance: /" >> "$OUT/hetero-warnings.txt"
      # Where every CPU rank is given no block, the GPU's sweeps and sums are one GPU's.
      cmp -s $work/hetero-$n-gpu/residual_history.csv $dir/residual_history.csv &&
        echo "$n³ $balance: the GPU alone's residual history, bit for bit" >> "$OUT/hetero-warnings.txt"
    done
  done
  echo "cores $cores, CPU ranks $threads threads each" >> "$OUT/hetero.md"
  cat "$OUT/hetero.md" "$OUT/hetero-warnings.txt" 2>/dev/null
  echo "== hetero ($SECONDS s)"
fi
