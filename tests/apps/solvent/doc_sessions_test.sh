#!/usr/bin/env bash
# The command sessions the documents show are what the commands print now. A session is a
# block between <!-- session:begin --> and <!-- session:end --> (code fences inside it are
# skipped): a line "$ COMMAND" is run, the lines after it up to the next "$ " are what it
# must print (stdout and stderr together). The commands run in order in one shell, so
# "$ echo $?" shows the exit code of the command before, in a scratch folder laid out like a
# source checkout after `make test` (config/, meshes/, tests/ and build/, the tested build),
# and `ls` lists in columns as on an 80-column terminal.
# Figures a run cannot repeat are masked on both sides before comparing: seconds
# ("0.455 s"), and numbers below 1e-12 (round-off, which follows the BLAS kernels the CPU
# picks); and in a "one of a|b|c" list of plugins, the optional ones (CUDA, PETSc), which
# the build may or may not have made. The build folder's absolute path is written
# /path/to/solvent/build in a session.
# usage: doc_sessions_test.sh SOLVENT SOURCE_DIR WORK DOC...
set -euo pipefail
solvent=$1 src=$2 work=$3
shift 3
build=$(cd "$(dirname "$solvent")/.." && pwd -P)
[ "$build/bin/solvent" -ef "$solvent" ] || { echo "$solvent is not BUILD/bin/solvent"; exit 1; }

normalise() {
  sed -E -e "s#$build#/path/to/solvent/build#g" \
    -e 's/\b[0-9]+(\.[0-9]+)? s\b/N s/g' \
    -e 's/\b[0-9](\.[0-9]+)?e-(1[3-9]|[2-9][0-9]|[0-9]{3})\b/ROUNDOFF/g' \
    -e '/ one of /{:a;s/([ |])(cusolver|petsc[a-z-]*|[a-z0-9-]+-cuda)\|/\1/;ta;s/\|(cusolver|petsc[a-z-]*|[a-z0-9-]+-cuda)\b//g}'
}

status=0 sessions=0 commands=0
for doc in "$@"; do
  rm -rf "$work" && mkdir -p "$work/run/build"
  for d in config meshes tests; do ln -s "$src/$d" "$work/run/$d"; done
  ln -s "$build/bin" "$build/lib" "$work/run/build/"
  # session N command M: the command in cmd.N.M, what the document shows in want.N.M
  awk -v dir="$work" '
    /<!-- session:begin -->/ { s++; c = 0; inside = 1; next }
    /<!-- session:end -->/ { inside = 0; next }
    !inside || /^```/ { next }
    /^\$ / { c++; print substr($0, 3) > (dir "/cmd." s "." c); printf "" > (dir "/want." s "." c); next }
    c { print > (dir "/want." s "." c) }
  ' "$src/$doc"
  script=$work/session.sh before=$commands
  echo 'ls() { COLUMNS=80 command ls -C --tabsize=0 "$@"; }' > "$script"
  for cmd in $(cd "$work" && ls cmd.* 2>/dev/null | sort -t. -k2,2n -k3,3n); do
    n=${cmd#cmd.}
    { echo "{"; cat "$work/$cmd"; echo "} > $work/got.$n 2>&1"; } >> "$script"
    commands=$((commands + 1))
  done
  [ "$commands" -gt "$before" ] || { echo "$doc: no session between session markers"; status=1; continue; }
  sessions=$((sessions + $(grep -c '<!-- session:begin -->' "$src/$doc")))
  (cd "$work/run" && bash "$script") || true
  for want in "$work"/want.*; do
    n=${want#"$work"/want.}
    if ! diff <(normalise < "$want") <(normalise < "$work/got.$n") > "$work/diff"; then
      echo "$doc: \$ $(cat "$work/cmd.$n")"
      echo "prints otherwise than the document shows (< document, > now):"
      cat "$work/diff"
      status=1
    fi
  done
done
[ $status = 0 ] && echo "$commands commands of $sessions sessions print what the documents show"
exit $status
