#!/usr/bin/env bash
# `make run` builds only the Makefile's RUN_TARGETS before it runs CONFIG: every plugin the
# main experiment loads (as its record names them) must be one of them, or a fresh
# `make run` fails with an unknown plugin.
# usage: make_run_targets_test.sh SOLVENT SOURCE_DIR WORK_DIR
set -euo pipefail
solvent=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
make_var() { make -s --no-print-directory -C "$src" -pn run 2>/dev/null | sed -n "s/^$1 ?\{0,1\}= //p" | head -n 1; }
targets=$(make_var RUN_TARGETS) config=$(make_var CONFIG)
[ -n "$targets" ] && [ -n "$config" ] || { echo "no RUN_TARGETS or CONFIG in $src/Makefile"; exit 1; }
echo "RUN_TARGETS = $targets; CONFIG = $config"
grep -qw solvent <<<"$targets" || { echo "RUN_TARGETS lacks the command"; exit 1; }
"$solvent" run "$src/$config" --set model.M=20 --set integrator.steps=2 --no-progress \
  --output "$work/run" > "$work/run.log" 2>&1 || { cat "$work/run.log"; exit 1; }
used=$(sed -n "s|^ *path = '.*/libsolvent-\(.*\)\.so'$|\1|p" "$work/run/record.toml")
[ -n "$used" ] || { echo "the record names no plugin"; exit 1; }
for p in $used; do
  grep -qw -- "$p" <<<"$targets" || { echo "$config loads plugin $p, which RUN_TARGETS does not build"; exit 1; }
  echo "plugin $p: built by make run"
done
