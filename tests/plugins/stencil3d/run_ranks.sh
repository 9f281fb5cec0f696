# Sourced by the tests over ranks. run RANKS ARGS...: `solvent run ARGS... SETTINGS...` on
# RANKS ranks (0: one plain process, without mpirun), its output in $work/out.txt; the
# caller sets solvent, mpiexec, work and the array settings.
run() {
  local n=$1
  shift
  if [ "$n" -eq 0 ]; then
    "$solvent" run "$@" "${settings[@]}" > "$work/out.txt" 2>&1
  else
    "$mpiexec" --oversubscribe -n "$n" "$solvent" run "$@" "${settings[@]}" > "$work/out.txt" 2>&1
  fi
}
