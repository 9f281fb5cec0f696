#!/usr/bin/env bash
# scripts/make-meshes on the cabin at the two coarsest sizes (about 4 s): the node counts it
# prints are the ones docs/models/helmholtz.md quotes. Skipped (77) without gmsh.
# usage: make_meshes_test.sh MAKE_MESHES HELMHOLTZ_DOC WORK_DIR
set -uo pipefail
make_meshes=$1 doc=$2 work=$3
fail() { echo "FAIL: $*"; cat "$work.log"; exit 1; }
command -v gmsh > /dev/null || { echo "skipped: no gmsh (apt-get install gmsh)"; exit 77; }
. "$(dirname "$0")/../../support/quoted_text.sh"
rm -rf "$work" && mkdir -p "$work"
"$make_meshes" -o "$work" -h "0.1 0.05" cabin > "$work.log" 2>&1 || fail "make-meshes: exit $?"
# "DIR/cabin-0.msh: h = 0.1, 4216 nodes", written as the page groups digits: "4 216".
nodes() { sed -n "s/.*cabin-$1.msh: h = [0-9.]*, \([0-9]*\) nodes$/\1/p" "$work.log" | sed ':a;s/\B[0-9]\{3\}\>/ &/;ta'; }
coarse=$(nodes 0) fine=$(nodes 1)
[ -n "$coarse" ] && [ -n "$fine" ] || fail "make-meshes printed no node counts"
quoted "$doc" "h = 0.1 and 0.05 give $coarse and $fine nodes for the cabin"
echo "make-meshes: the cabin at h = 0.1 and 0.05 has $coarse and $fine nodes, as the page says"
