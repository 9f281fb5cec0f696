# Sourced by the shell tests that stop a run part way, after they set $work.
# rows DIR: the observables rows (header included) a run has written into DIR so far, in
# observables.csv or, while it runs or after it was killed, observables.csv.partial.
rows() { cat "$1"/observables.csv* 2>/dev/null | wc -l; }
# interrupt DIR SIGNAL AT COMMAND...: starts COMMAND (a run writing into DIR; its output goes
# to $work/out.txt), waits until it has written AT rows, sends SIGNAL and returns its exit code.
# Under mpirun (COMMAND mpirun, mpiexec or orterun) the signal goes to every rank: whether
# mpirun passes a signal on depends on how it was started (under flock it passes none).
interrupt() {
  local dir=$1 signal=$2 at=$3
  shift 3
  "$@" > "$work/out.txt" 2>&1 &
  local pid=$!
  while kill -0 $pid 2>/dev/null && [ "$(rows "$dir")" -lt "$at" ]; do sleep 0.01; done
  local targets=$pid
  case "$(basename "$1")" in mpirun | mpiexec | orterun) targets=$(pgrep -P $pid) ;; esac
  kill -s "$signal" $targets 2>/dev/null
  { wait $pid; } 2>/dev/null
}
