#!/usr/bin/env bash
# Paths in a configuration (input files, [output] directory) are relative to the configuration
# file's folder, wherever the command is started; a path given by --set or --output is
# relative to the working directory; the run's
# config.toml holds them absolute, so the run folder reruns from anywhere; a file that
# cannot be opened is refused at its key's line with the system's reason, exit 2.
# The shipped configurations write under the repository's out/, wherever they are started.
# usage: config_paths_test.sh SOLVENT MATRIX WORK_DIR CONFIG_DIR
#        (MATRIX: a small Matrix Market file; CONFIG_DIR: the shipped configurations)
set -uo pipefail
solvent=$1 matrix=$2 work=$3 configs=$4
rm -rf "$work" && mkdir -p "$work/project/data" "$work/elsewhere" || exit 1
fail() { echo "FAIL: $*"; cat "$work/out.txt"; exit 1; }
cp "$matrix" "$work/project/data/A.mtx"
cat > "$work/project/experiment.toml" <<'TOML'
[model]
type = "matrix-file"
matrix = "data/A.mtx"
rhs = "product"
[integrator]
type = "steady"
[linear_solver]
type = "bicgstab"
TOML

cd "$work/elsewhere" || exit 1
"$solvent" run ../project/experiment.toml --output run1 > "$work/out.txt" 2>&1 \
  || fail "a path relative to the configuration, run from another folder: exit $?"
grep -qxF "matrix = '$work/project/data/A.mtx'" run1/config.toml \
  || fail "config.toml does not hold the matrix's absolute path"
# The run folder's configuration reruns from anywhere.
(cd / && "$solvent" run "$work/elsewhere/run1/config.toml" --output "$work/elsewhere/run2" \
  > "$work/out.txt" 2>&1) || fail "rerunning config.toml from / : exit $?"
# --set: relative to the working directory.
"$solvent" validate ../project/experiment.toml --set model.matrix=../project/data/A.mtx \
  > "$work/out.txt" 2>&1 || fail "--set relative to the working directory: exit $?"
"$solvent" validate ../project/experiment.toml --set model.matrix=data/A.mtx > "$work/out.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -qxF "error: --set: [model] (model 'matrix-file'): key 'matrix': cannot open $work/elsewhere/data/A.mtx: No such file or directory" "$work/out.txt" \
  || fail "--set of a missing file: exit $rc"
# A missing file in the configuration: its line, the reason, exit 2, nothing written.
sed -i 's|data/A.mtx|data/B.mtx|' ../project/experiment.toml
"$solvent" run ../project/experiment.toml --output run3 > "$work/out.txt" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -qxF "error: ../project/experiment.toml:3:10: [model] (model 'matrix-file'): key 'matrix': cannot open $work/project/data/B.mtx: No such file or directory" "$work/out.txt" \
  && [ ! -e run3 ] || fail "a missing file: exit $rc"
# [output] directory: beside the configuration; from --set, in the working directory.
printf '[output]\ndirectory = "results/run4"\n' >> ../project/experiment.toml
sed -i 's|data/B.mtx|data/A.mtx|' ../project/experiment.toml
"$solvent" run ../project/experiment.toml --no-progress > "$work/out.txt" 2>&1 \
  && [ -f "$work/project/results/run4/record.toml" ] && [ ! -e results ] \
  && grep -qxF "directory = '$work/project/results/run4'" "$work/project/results/run4/config.toml" \
  && grep -q "; results in $work/project/results/run4\$" "$work/out.txt" \
  || fail "[output] directory relative to the configuration"
"$solvent" run ../project/experiment.toml --set output.directory=results/run5 --no-progress \
  > "$work/out.txt" 2>&1 && [ -f results/run5/record.toml ] \
  || fail "--set output.directory relative to the working directory"
# Every shipped configuration that names its output folder names one in out/ of the repository.
for f in "$configs"/*.toml; do
  d=$(sed -n 's/^directory = "\(.*\)".*/\1/p' "$f")
  [ -z "$d" ] || [[ "$d" == ../out/* ]] || fail "$f: [output] directory = \"$d\" is not under ../out/"
done
echo "config paths: relative to the file, --set to the working directory, recorded absolute"
