# Sourced by the shell tests that stop a run part way, after they set $work.
# rows DIR: the observables rows (header included) a run has written into DIR so far, in
# observables.csv or, while it runs or after it was killed, observables.csv.partial.
rows() { cat "$1"/observables.csv* 2>/dev/null | wc -l; }
# interrupt DIR SIGNAL AT COMMAND...: starts COMMAND (a run writing into DIR; its output goes
# to $work/out.txt), waits until it has written AT rows, sends SIGNAL and returns its exit code.
interrupt() {
  local dir=$1 signal=$2 at=$3
  shift 3
  "$@" > "$work/out.txt" 2>&1 &
  local pid=$!
  while kill -0 $pid 2>/dev/null && [ "$(rows "$dir")" -lt "$at" ]; do sleep 0.01; done
  kill -s "$signal" $pid 2>/dev/null
  { wait $pid; } 2>/dev/null
}
