#!/usr/bin/env bash
# MATM inside time stepping on one GPU, in one device call (carry [".devdeps"]):
#   LAYERS=50 N=256 bash scripts/gpu/transport.sh
# Builds the solvent command, transport-3d, implicit-stencil7 and the solvers, then runs
# config/transport-basin.toml (BDF2 in the basin, dt = 1e-3) for LAYERS layers (default 50;
# the paper's setting is 1000: about LAYERS x iterations x the time of one iteration, so
# give the command its 600 s or run the solvers one by one with SOLVERS) on an N^3 grid
# (default 256) with each solver, every one warm-started from the previous layer:
#   matm-cuda (variational), matm-cuda-given (parameters = "given" with the omega the
#   variational run ended with and TAU_FACTOR (default 0.5) times its last tau: the last tau
#   itself, fixed, diverged at 256^3 on an H200), bicgstab-cuda + jacobi-cuda,
#   cg-cuda + jacobi-cuda (the symmetric case
#   only: CG is not run on the convective default unless VELOCITY=none), and PETSc's
#   BiCGSTAB + GAMG on the CPU where the build has PETSc.
# One line each: iterations per layer (mean, max), solve and layer seconds per layer, the
# final error_max. Results under $OUT: build.log, <solver>/ (record.toml, observables.csv:
# every layer's iterations and solve seconds), summary.txt. At N = 256 and LAYERS = 10 or
# 1000, the settings docs/models/transport-3d.md reports, each solver's iterations per layer
# (and the given parameters) are checked against that document's tables: a line
# "quoted: ..." each.
SECONDS=0
LAYERS=${LAYERS:-50}
N=${N:-256}
VELOCITY=${VELOCITY:-rotating}
source scripts/gpu/configure.sh || exit 1
OUT=${OUT:-/tmp/transport-out}
mkdir -p "$OUT"
ninja -C "$BUILD" -k 0 solvent transport-3d implicit-stencil7 matm-cuda bicgstab-cuda cg-cuda \
  jacobi-cuda > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
ninja -C "$BUILD" petsc >> "$OUT/build.log" 2>&1 || echo "(no petsc plugin in this build)"
echo "== built ($SECONDS s)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/device.txt"
export SOLVENT_PLUGIN_PATH=$BUILD/lib/solvent
given="--set linear_solver.initial_guess=\"given\""
declare -A settings=(
  [matm-cuda]="--set linear_solver.type=\"matm-cuda\""
  [bicgstab-cuda-jacobi]="--set linear_solver.type=\"bicgstab-cuda\" --set preconditioner.type=\"jacobi-cuda\" $given"
  [cg-cuda-jacobi]="--set linear_solver.type=\"cg-cuda\" --set preconditioner.type=\"jacobi-cuda\" $given"
  [petsc-gamg]="--set linear_solver.type=\"petsc\" --set linear_solver.ksp_type=\"bcgs\" --set linear_solver.pc_type=\"gamg\" $given"
)
# Run $1's record, fact $2 (the record writes key = 'value'); last: the variational run's.
fact_of() { sed -n "s/^$2 = '\(.*\)'/\1/p" "$OUT/$1/record.toml" | head -1; }
last() { fact_of matm-cuda "$1"; }
solvers=${SOLVERS:-"matm-cuda matm-cuda-given bicgstab-cuda-jacobi cg-cuda-jacobi petsc-gamg"}
printf '%-22s %8s %8s %12s %12s %12s\n' solver its/layer max solve_s/layer layer_s/layer error_max \
  | tee "$OUT/summary.txt"
for s in $solvers; do
  [ "$s" = cg-cuda-jacobi ] && [ "$VELOCITY" != none ] && continue
  [ "$s" = petsc-gamg ] && [ ! -e "$BUILD/lib/solvent/libsolvent-petsc.so" ] && continue
  if [ "$s" = matm-cuda-given ]; then
    [ -n "$(last omega)" ] || { echo "matm-cuda-given: no variational matm-cuda run to take omega and tau from"; continue; }
    settings[$s]="--set linear_solver.type=\"matm-cuda\" --set linear_solver.parameters=\"given\" --set linear_solver.omega=$(last omega) --set linear_solver.tau=$(awk "BEGIN{print ${TAU_FACTOR:-0.5} * $(last tau)}")"
  fi
  eval "$BUILD/bin/solvent run config/transport-basin.toml --output $OUT/$s \
    --set model.n1=$N --set model.n2=$N --set model.n3=$N --set model.velocity=\\\"$VELOCITY\\\" \
    --set integrator.steps=$LAYERS ${settings[$s]}" > "$OUT/$s.log" 2>&1 \
    || { echo "$s: exit $?"; tail -5 "$OUT/$s.log"; continue; }
  err=$(tail -1 "$OUT/$s/observables.csv" | cut -d, -f3)
  printf '%-22s %8s %8s %12s %12s %12s\n' "$s" "$(fact_of "$s" iterations_per_layer_mean)" \
    "$(fact_of "$s" iterations_per_layer_max)" "$(fact_of "$s" solve_seconds_per_layer_mean)" \
    "$(fact_of "$s" layer_seconds_per_layer_mean)" "$err" | tee -a "$OUT/summary.txt"
done
if [ "$N" = 256 ] && { [ "$LAYERS" = 10 ] || [ "$LAYERS" = 1000 ]; }; then
  source tests/support/quoted_text.sh
  fail() { echo "quoted: FAIL, $*" | tee -a "$OUT/summary.txt"; return 1; }
  velocity="rotating, Pe 10"; [ "$VELOCITY" = none ] && velocity=none
  declare -A labels=([matm-cuda]=matm-cuda [bicgstab-cuda-jacobi]="bicgstab-cuda + jacobi-cuda"
    [cg-cuda-jacobi]="cg-cuda + jacobi-cuda")
  # The document gives the given-parameter run with the flow only.
  [ "$VELOCITY" != none ] && [ -f "$OUT/matm-cuda-given/record.toml" ] && labels[matm-cuda-given]="matm-cuda, given omega $(
    printf %.2f "$(last omega)"), tau $(awk "BEGIN{printf \"%.0f\", ${TAU_FACTOR:-0.5} * $(last tau)}")"
  for s in "${!labels[@]}"; do
    [ -f "$OUT/$s/record.toml" ] || continue
    row="| $velocity | ${labels[$s]} | $(fact_of "$s" iterations_per_layer_mean), $(fact_of "$s" iterations_per_layer_max) |"
    quoted docs/models/transport-3d.md "$row" && echo "quoted: PASS, $row" | tee -a "$OUT/summary.txt"
  done
  # The prose under the table: the variational run's last tau, and the given-parameter
  # run's iterations against the variational run's.
  if [ -n "${labels[matm-cuda-given]:-}" ]; then
    prose="the variational run's last tau ($(printf %.0f "$(last tau)")) held fixed diverged on the first layer, half of it converges in $(awk "BEGIN{printf \"%.1f\", $(fact_of matm-cuda-given iterations_per_layer_mean) / $(fact_of matm-cuda iterations_per_layer_mean)}") times the iterations"
    quoted docs/models/transport-3d.md "$prose" && echo "quoted: PASS, $prose" | tee -a "$OUT/summary.txt"
  fi
fi
echo "== script took $SECONDS s"
