#!/usr/bin/env bash
# Runs over MPI ranks (mpirun -n 1, 2, 4): one resolved configuration, rank 0 alone writing
# and speaking, the rank-ordered sum known for every N; a plugin that runs on one rank only
# refused under -n 2, naming it; a failure on one rank, in setup or while computing, ends
# every rank within seconds with one message and that failure's exit code.
# usage: ranks_test.sh SOLVENT MPIEXEC PROBE_CONFIG SERIAL_CONFIG GRID_CONFIG WORK_DIR
set -uo pipefail
solvent=$1 mpiexec=$2 probe=$3 serial=$4 grid=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
# CI runs as root, which OpenMPI refuses unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { echo "FAIL: $*"; cat "$work/out.txt"; exit 1; }
ranks() { local n=$1; shift; timeout 60 "$mpiexec" -n "$n" --oversubscribe "$solvent" "$@" > "$work/out.txt" 2>&1; }

for n in 1 2 4; do
  ranks $n run "$probe" --output "$work/n$n" || fail "-n $n: exit $?"
  [ "$(grep -c '^run completed' "$work/out.txt")" -eq 1 ] || fail "-n $n: not one summary"
  # step 3: sum over ranks of (rank + 1) * 3 = 3 n (n + 1) / 2
  last=$(tail -n 1 "$work/n$n/observables.csv")
  [ "$last" = "3,3,$((3 * n * (n + 1) / 2)),$n" ] || fail "-n $n: last row '$last'"
  grep -q "^ranks = $n$" "$work/n$n/record.toml" || fail "-n $n: the record does not say $n ranks"
done

# `solvent plugins` says which plugins run over ranks (the refusal below points there).
"$solvent" plugins > "$work/out.txt" 2>&1 || fail "solvent plugins: exit $?"
grep -A2 "^integrator *rank-probe-steps" "$work/out.txt" | grep -q "runs on any number of ranks" \
  || fail "solvent plugins does not say that rank-probe-steps runs on any number of ranks"
grep -A2 "^integrator *imex-trapezoid" "$work/out.txt" | grep -q "ranks" \
  && fail "solvent plugins says something of ranks for a one-rank plugin"

# A plugin that knows nothing of ranks: refused before anything is written, once.
ranks 2 run "$serial" --output "$work/serial"; rc=$?
[ $rc -eq 2 ] || fail "a one-rank plugin under -n 2: exit $rc, expected 2"
[ "$(grep -c "\[integrator\] plugin 'imex-trapezoid' runs on 1 rank only; this run has 2" "$work/out.txt")" -eq 1 ] \
  || fail "a one-rank plugin under -n 2: not named exactly once"
[ ! -e "$work/serial" ] || fail "a refused run left an output folder"

# Bad input on rank 1 only, found in setup: rank 0 reports it once, every rank exits 4.
ranks 2 run "$probe" --set model.unreadable_on_rank=1 --output "$work/setup"; rc=$?
[ $rc -eq 4 ] || fail "bad input on rank 1: exit $rc, expected 4"
[ "$(grep -c "error: rank 1: rank-probe.dat:1: the input this rank reads is malformed" "$work/out.txt")" -eq 1 ] \
  || fail "bad input on rank 1: not reported exactly once"

# The same while the other ranks meet in a collective as the model is made (a partition of
# its rows), which rank 1 never joins: its status must not be taken for their collective's
# data (MPI_ERR_TRUNCATE, exit 1, the file unnamed), and they must not wait for it.
for n in 2 4; do
  start=$SECONDS
  ranks $n run "$probe" --set model.unreadable_on_rank=1 --set model.setup_collective=true \
    --output "$work/setup-collective"; rc=$?
  [ $rc -eq 4 ] || fail "-n $n, bad input on rank 1 while the others meet: exit $rc, expected 4"
  [ $((SECONDS - start)) -lt 30 ] || fail "-n $n, bad input on rank 1 while the others meet: $((SECONDS - start)) s"
  [ "$(grep -c "error: rank 1: rank-probe.dat:1: the input this rank reads is malformed" "$work/out.txt")" -eq 1 ] \
    || fail "-n $n, bad input on rank 1 while the others meet: not reported exactly once"
done

# A failure on rank 1 while rank 0 waits in a collective: all end, quickly, with exit 5.
start=$SECONDS
ranks 2 run "$probe" --set integrator.fail_rank=1 --output "$work/compute"; rc=$?
[ $rc -eq 5 ] || fail "a failure on rank 1 while computing: exit $rc, expected 5"
[ $((SECONDS - start)) -lt 30 ] || fail "a failure on rank 1 took $((SECONDS - start)) s to end the run"
[ "$(grep -c "error: rank 1: rank-probe-steps: the failure asked for on rank 1" "$work/out.txt")" -eq 1 ] \
  || fail "a failure on rank 1: not reported exactly once"
# Rank 1 stops answering while the others wait for it in a collective: the wait ends after
# SOLVENT_RANK_TIMEOUT seconds with the rank that waited and the operation named, and the
# record of the run says it failed. The limit holds for every wait of the run, those of the
# set-up included, where on a loaded machine one rank may reach a collective seconds after
# the other (each reads the plugin libraries alone): 10 s, well above such a lag and well
# below the minute rank 1 stalls for.
start=$SECONDS
SOLVENT_RANK_TIMEOUT=10 ranks 2 run "$probe" --set integrator.stall_rank=1 --output "$work/stall"; rc=$?
[ $rc -eq 1 ] || fail "rank 1 stalled: exit $rc, expected 1"
[ $((SECONDS - start)) -lt 30 ] || fail "rank 1 stalled: the run took $((SECONDS - start)) s to end"
[ "$(grep -c "error: rank 0: MPI_Allgather (sum over ranks) did not complete within 10 s: a rank is stuck" "$work/out.txt")" -eq 1 ] \
  || fail "rank 1 stalled: the waiting rank and its operation not named exactly once"
grep -q "status = 'failed'" "$work/stall/record.toml" || fail "rank 1 stalled: the record does not say failed"
SOLVENT_RANK_TIMEOUT=soon ranks 2 run "$probe" --output "$work/bad-timeout"; rc=$?
[ $rc -eq 2 ] || fail "SOLVENT_RANK_TIMEOUT=soon: exit $rc, expected 2"
grep -q "error: SOLVENT_RANK_TIMEOUT = 'soon': expected the seconds a rank may wait" "$work/out.txt" \
  || fail "SOLVENT_RANK_TIMEOUT=soon: no message"

# Each rank reads its own copy of the file (no shared file system) and rank 1's copy is
# broken: rank 0 names rank 1's file and line once, and every rank ends with exit 2, before
# the plugins are made (balance = "measured" takes the ranks through a collective there).
mkdir -p "$work/copies"
sed 's/^seed = 1$/seed = 1\nbalance = "measured"/' "$grid" > "$work/copies/grid-0.toml"
sed 's/^type = "steady"$/type = = "steady"/' "$work/copies/grid-0.toml" > "$work/copies/grid-1.toml"
start=$SECONDS
timeout 60 "$mpiexec" -n 2 --oversubscribe sh -c "exec \"$solvent\" run \"$work/copies/grid-\$OMPI_COMM_WORLD_RANK.toml\" --output \"$work/copies/out\"" > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "a broken copy on rank 1: exit $rc, expected 2"
[ $((SECONDS - start)) -lt 30 ] || fail "a broken copy on rank 1: the run took $((SECONDS - start)) s to end"
[ "$(grep -c "error: rank 1: .*grid-1.toml:17:8: TOML syntax error" "$work/out.txt")" -eq 1 ] \
  || fail "a broken copy on rank 1: its file and line not named exactly once"

# A sweep's copies: validate (no plugin collective to meet the others in) ends every rank
# as quickly when rank 1's copy is broken, and refuses copies whose members differ.
printf '[sweep]\n[sweep.linear_solver.bicgstab]\ntolerance = [1e-6, 1e-8]\n' \
  | cat "$grid" - > "$work/copies/sweep-0.toml"
sed 's/^\[sweep\]$/[sweep/' "$work/copies/sweep-0.toml" > "$work/copies/sweep-1.toml"
copies() {
  start=$SECONDS
  timeout 60 "$mpiexec" -n 2 --oversubscribe sh -c "exec \"$solvent\" $1 \"$work/copies/sweep-\$OMPI_COMM_WORLD_RANK.toml\"" > "$work/out.txt" 2>&1; rc=$?
  [ $rc -eq 2 ] || fail "$2: exit $rc, expected 2"
  [ $((SECONDS - start)) -lt 30 ] || fail "$2: the run took $((SECONDS - start)) s to end"
}
copies validate "validate, a broken sweep copy on rank 1"
[ "$(grep -c "error: rank 1: .*sweep-1.toml:.*TOML syntax error" "$work/out.txt")" -eq 1 ] \
  || fail "validate, a broken sweep copy on rank 1: its file and line not named exactly once"
sed 's/1e-8/1e-9/' "$work/copies/sweep-0.toml" > "$work/copies/sweep-1.toml"
for command in validate run; do
  copies $command "$command, sweep copies whose members differ"
  [ "$(grep -c "error: rank 1 resolved another configuration than rank 0" "$work/out.txt")" -eq 1 ] \
    || fail "$command, sweep copies whose members differ: not refused exactly once"
done

# One rank held to one core by mpirun's default binding, its thread count not chosen: one
# warning naming it, and the record says which cores it had; unbound, no warning.
if [ "$(nproc --all)" -gt 1 ]; then
  env -u OMP_NUM_THREADS timeout 60 "$mpiexec" -n 1 --bind-to core "$solvent" run "$probe" \
    --output "$work/bound" > "$work/out.txt" 2>&1 || fail "a rank bound to one core: exit $?"
  [ "$(grep -c "warning\] rank 0 may run on 1 of the host's $(nproc --all) cores only" "$work/out.txt")" -eq 1 ] \
    || fail "a rank bound to one core: not warned exactly once"
  grep -q "^cores_allowed = 1$" "$work/bound/record.toml" || fail "the record does not say 1 core allowed"
  env -u OMP_NUM_THREADS timeout 60 "$mpiexec" -n 1 --bind-to none "$solvent" run "$probe" \
    --output "$work/unbound" > "$work/out.txt" 2>&1 || fail "an unbound rank: exit $?"
  grep -q "may run on 1 of" "$work/out.txt" && fail "an unbound rank was warned"
fi
# Two unbound ranks on this host divide its cores between them, and say so; a thread count
# that was chosen stays.
cores=$(nproc)
if [ "$cores" -gt 1 ]; then
  env -u OMP_NUM_THREADS timeout 60 "$mpiexec" -n 2 --oversubscribe --bind-to none "$solvent" run \
    "$probe" --output "$work/shared" > "$work/out.txt" 2>&1 || fail "two unbound ranks: exit $?"
  half=$((cores / 2))
  # The command divides them before OpenMP starts (it starts itself again), not the core.
  said="info\] ranks sharing a host divide its cores, OpenMP threads rank 0: $half (set before OpenMP started), rank 1: $half (set before OpenMP started) "
  [ "$(grep -c "$said" "$work/out.txt")" -eq 1 ] \
    || fail "two unbound ranks: their threads ($half each, set at start) not said exactly once"
  [ "$(grep -o ", $half threads on $cores of" "$work/shared/record.toml" | wc -l)" -eq 2 ] \
    || fail "two unbound ranks: the record does not give each $half threads"
  OMP_NUM_THREADS=2 timeout 60 "$mpiexec" -n 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS \
    "$solvent" run "$probe" --output "$work/chosen" > "$work/out.txt" 2>&1 || fail "two ranks, 2 threads: exit $?"
  grep -q "divide its cores" "$work/out.txt" && fail "a chosen thread count was divided"
  [ "$(grep -o ", 2 threads on $cores of" "$work/chosen/record.toml" | wc -l)" -eq 2 ] \
    || fail "two ranks, 2 threads chosen: the record does not give each 2"
fi

echo "ranks: 1, 2, 4 agree; one-rank plugins refused; a failing, stalled or misconfigured rank ends the run once"
