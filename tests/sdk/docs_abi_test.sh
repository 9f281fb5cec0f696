#!/usr/bin/env bash
# The documents that tell a plugin author which ABI to build for name the one abi.hpp
# defines: each states "plugin ABI N (`SOLVENT_PLUGIN_ABI_VERSION`" once or more, always
# with that N, and a quoted loader message names no other version. Stale numbers there sent
# a plugin author to the wrong headers before.
# usage: docs_abi_test.sh SOURCE_DIR
set -euo pipefail
src=$1
abi=$(sed -n 's/^#define SOLVENT_PLUGIN_ABI_VERSION \([0-9][0-9]*\)u$/\1/p' \
  "$src/core/include/solvent/abi.hpp")
[ -n "$abi" ] || { echo "core/include/solvent/abi.hpp defines no SOLVENT_PLUGIN_ABI_VERSION"; exit 1; }
status=0
for doc in docs/plugin-guide.md docs/architecture.md examples/third-party-plugin/README.md; do
  # Lines joined, so a statement broken over two lines is read whole.
  text=$(tr '\n' ' ' < "$src/$doc" | tr -s ' ')
  stated=$(grep -o 'plugin ABI [0-9]* (`SOLVENT_PLUGIN_ABI_VERSION`' <<< "$text" \
    | grep -o '[0-9][0-9]*' | sort -u | tr '\n' ' ' || true)
  if [ "$stated" != "$abi " ]; then
    echo "$doc: states plugin ABI '${stated% }' where abi.hpp defines $abi" \
      "(write: plugin ABI $abi (\`SOLVENT_PLUGIN_ABI_VERSION\` ...)"
    status=1
  fi
  for n in $(grep -o "this Solvent's ABI version [0-9]*" <<< "$text" | grep -o '[0-9]*$' || true); do
    [ "$n" = "$abi" ] || { echo "$doc: a loader message names ABI version $n, abi.hpp defines $abi"; status=1; }
  done
done
[ $status = 0 ] && echo "the documents name plugin ABI $abi"
exit $status
