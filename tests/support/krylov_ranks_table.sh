# The iteration counts that docs/krylov.md's table of iterations against ranks ("Sparse
# systems over ranks") quotes, checked by the tests over ranks that measure them, so that
# the table cannot drift from the runs. Sourced; the test defines fail.
# usage: quoted_iterations "SYSTEM | SOLVER | PRECONDITIONER" RANKS ITERATIONS [PART]
#   PART: which figure of a cell that holds several ("28 / 27"), from 1.
krylov_doc=$(dirname "${BASH_SOURCE[0]}")/../../docs/krylov.md
quoted_iterations() {
  local row=$1 n=$2 value=$3 part=${4:-1} cell
  # Cells split at '|': the row's three labels, then 1, 2, 3 and 4 ranks.
  cell=$(awk -F'|' -v row="| $row |" -v col=$((4 + n)) -v part="$part" '
    index($0, row) == 1 { split($col, figures, " / "); f = figures[part]; gsub(/ /, "", f); print f; exit }' \
    "$krylov_doc")
  [ -n "$cell" ] || fail "docs/krylov.md quotes no iterations for '$row' on $n ranks (the run took $value)"
  [ "$cell" = "$value" ] \
    || fail "docs/krylov.md quotes $cell iterations for '$row' on $n ranks; the run took $value"
}
