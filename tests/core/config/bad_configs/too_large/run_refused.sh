#!/usr/bin/env bash
# usage: run_refused.sh SOLVENT WORK_DIR CONFIG.toml...
# Each configuration asks for more memory (or a larger grid) than its model can hold:
# `solvent run` must refuse it as a configuration error (exit 2) with exactly the messages of
# CONFIG.expected (a line ending in "..." matches by prefix: the rest names this machine's
# available memory), and leave no output folder behind.
set -u
solvent=$1 work=$2
shift 2
rm -rf "$work" && mkdir -p "$work"
failed=0
for config in "$@"; do
  name=$(basename "$config" .toml)
  out="$work/$name"
  "$solvent" run "$config" --output "$out" --no-progress >"$work/$name.stdout" 2>"$work/$name.stderr"
  rc=$?
  if [ "$rc" -ne 2 ]; then
    echo "FAIL $name: exit code $rc, expected 2"; cat "$work/$name.stderr"; failed=1
  fi
  mapfile -t expected <"${config%.toml}.expected"
  mapfile -t actual <"$work/$name.stderr"
  if [ "${#actual[@]}" -ne "${#expected[@]}" ]; then
    echo "FAIL $name: ${#actual[@]} lines of messages, expected ${#expected[@]}"; failed=1
  fi
  for i in "${!expected[@]}"; do
    e=${expected[$i]} a=${actual[$i]-}
    if [[ $e == *... ]]; then
      [[ $a == "${e%...}"* ]] && continue
    else
      [[ $a == "$e" ]] && continue
    fi
    printf 'FAIL %s, line %d:\n  actual:   %s\n  expected: %s\n' "$name" $((i + 1)) "$a" "$e"
    failed=1
  done
  if [ -e "$out" ]; then
    echo "FAIL $name: the refused run left $out behind"; failed=1
  fi
done
exit $failed
