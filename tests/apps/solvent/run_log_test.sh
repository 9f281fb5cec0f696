#!/usr/bin/env bash
# A run's log: log.txt in its folder holds the whole run's messages, those from before the
# folder existed included, each with the UTC time and the rank, at info whatever stderr
# shows; -q leaves stderr the warnings alone and stdout no closing summary; --log-timestamps
# puts the time and rank on stderr too; --overwrite replaces log.txt (it is among the run's
# files); under mpirun, --log-per-rank writes each rank's log as log.rank-N.txt.
# usage: run_log_test.sh SOLVENT CONFIG WORK_DIR [MPIEXEC GRID_CONFIG]
set -uo pipefail
solvent=$1 config=$2 work=$3 mpiexec=${4:-} grid=${5:-}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; for f in out.txt err.txt run/log.txt; do echo "--- $f"; cat "$f"; done; exit 1; }
stamp='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z rank'
# A [plugins] path outside the config's folder: a warning said before the folder exists.
run() {
  "$solvent" run "$config" --output run --set model.M=50 --set integrator.steps=10 \
    --set integrator.dt=0.01 --set linear_solver.type=banded --no-progress \
    --set 'plugins.path=["/nonexistent-solvent-plugins"]' "$@" > out.txt 2> err.txt
}

run -q || fail "-q: exit $?"
[ -s out.txt ] && fail "-q: a closing summary on stdout"
grep -q '^\[info\]' err.txt && fail "-q: info on stderr"
grep -q '^\[warning\] --set: \[plugins\] path adds /nonexistent-solvent-plugins' err.txt \
  || fail "-q: the warning not on stderr"
head -1 run/log.txt | grep -Eq "^$stamp 0 \[warning\] --set: \[plugins\] path adds /nonexistent" \
  || fail "log.txt does not begin with the warning from before the folder existed"
grep -Eq "^$stamp 0 \[info\] operator converted for linear solver 'banded'" run/log.txt \
  || fail "log.txt lacks the info line that -q hid from stderr"
grep -q "'log.txt'" run/record.toml || fail "the record does not list log.txt"

run --overwrite || fail "the second run: exit $?"
grep -q '^run completed: model angiogenesis-1d' out.txt || fail "no closing summary without -q"
grep -q "^\[info\] operator converted" err.txt || fail "stderr: not '[info] message' by default"
[ "$(grep -c 'operator converted' run/log.txt)" -eq 1 ] || fail "--overwrite: log.txt not replaced"
ls run/log.rank-* > /dev/null 2>&1 && fail "log.rank-N.txt without --log-per-rank"

run --overwrite --log-timestamps || fail "--log-timestamps: exit $?"
grep -Eq "^$stamp 0 \[info\] operator converted" err.txt || fail "--log-timestamps: no time and rank"

if [ -n "$mpiexec" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  "$mpiexec" -n 2 --oversubscribe "$solvent" run "$grid" --output ranks --log-per-rank \
    > out.txt 2> err.txt || fail "2 ranks: exit $?"
  for r in 0 1; do
    grep -Eq "^$stamp $r \[info\] grid-equations-3d: blocks of a 1x2x1 process grid over 2 ranks" \
      "ranks/log.rank-$r.txt" || fail "log.rank-$r.txt: not rank $r's log"
  done
  grep -q ' rank 1 ' ranks/log.txt && fail "log.txt holds rank 1's lines"
  [ "$(grep -c 'process grid over 2 ranks' err.txt)" -eq 1 ] || fail "stderr: not rank 0 alone"
  grep -q "'log.rank-1.txt'" ranks/record.toml || fail "the record does not list log.rank-1.txt"
fi
echo "run logs: all checks passed"
