#!/usr/bin/env bash
# scripts/plot-profiles on a short real run: it must write a PNG, and refuse a directory
# without 1D profiles with a clear message. Skipped (77) where gnuplot is not installed.
# Arguments: the solvent command, the source tree.
set -euo pipefail
solvent="$1"
src="$2"
command -v gnuplot >/dev/null || { echo "gnuplot not installed: plot-profiles cannot run here"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$solvent" run "$src/config/angiogenesis-1d-banded.toml" --set model.M=50 --set integrator.steps=20 \
  --set output.every=5 --output "$work/run" --no-progress > /dev/null
"$src/scripts/plot-profiles" "$work/run" "$work/profiles.png" --curves 3
[[ "$(head -c 8 "$work/profiles.png" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]] \
  || { echo "not a PNG: $work/profiles.png"; exit 1; }
mkdir -p "$work/empty"
if message=$("$src/scripts/plot-profiles" "$work/empty" 2>&1); then
  echo "plot-profiles accepted a directory without profiles"; exit 1
fi
[[ "$message" == *"no profiles in $work/empty/profiles"* ]] || { echo "unexpected message: $message"; exit 1; }
echo "plot-profiles: PNG written, empty directory refused"
