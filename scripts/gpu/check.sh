#!/usr/bin/env bash
# The GPU evidence in one device call: build everything, run every test labelled `cuda`
# (ctest -L cuda: the tests that skip themselves on machines without a GPU), then
# compute-sanitizer memcheck and racecheck over the same test programs. Results and logs go
# to $OUT. The per-area scripts beside this one run the benchmarks.
#
# On the device, with carry [".devdeps"]:   bash scripts/gpu/check.sh
set -uo pipefail
OUT=${OUT:-/tmp/gpu-check}
mkdir -p "$OUT"
source scripts/gpu/configure.sh || exit 1
set +e
start=$SECONDS
if ! ninja -C "$BUILD" > "$OUT/build.log" 2>&1; then
  grep -E "error|FAILED" "$OUT/build.log" | head -40
  exit 1
fi
echo "built in $((SECONDS - start)) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
(cd "$BUILD" && ctest -L cuda --output-on-failure --timeout ${TEST_TIMEOUT:-300}) > "$OUT/ctest-cuda.log" 2>&1
rc=$?
tail -n 15 "$OUT/ctest-cuda.log"
# The sanitizer over each cuda-labelled test program (ctest knows their commands), less the
# long cases (whole trajectories, sweeps over every block shape), which run 50-100x slower
# under it and exercise no kernel the short cases miss.
exclude=${SANITIZER_EXCLUDE:-validation*,and for every block shape*,*several block shapes*}
export SOLVENT_PLUGIN_PATH="$BUILD/lib/solvent"
# The doctest programs (named *-tests) only: a test run by a script would have the sanitizer
# instrument the shell and hand it doctest's options; the kernels it runs are these programs'.
for exe in $(cd "$BUILD" && ctest -L cuda --show-only=json-v1 | python3 -c '
import json, os, sys
for t in json.load(sys.stdin)["tests"]:
    if os.path.basename(t["command"][0]).endswith("-tests"):
        print(t["command"][0])' | sort -u); do
  name=$(basename "$exe")
  for tool in memcheck racecheck; do
    timeout ${SANITIZER_TIMEOUT:-120} compute-sanitizer --tool "$tool" --error-exitcode 9 "$exe" \
      --test-case-exclude="$exclude" \
      > "$OUT/sanitizer-$tool-$name.log" 2>&1
    echo "compute-sanitizer $tool $name: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' \
      "$OUT/sanitizer-$tool-$name.log" | tr '\n' ' ')"
  done
done
exit $rc
