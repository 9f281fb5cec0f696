# The iteration counts that docs/krylov.md's tables of iterations against ranks quote
# ("Sparse systems over ranks", and the cabin's cycles under BiCGSTAB(l)), checked by the
# tests over ranks that measure them, so that the tables cannot drift from the runs.
# Sourced; the test defines fail.
# usage: quoted_iterations "SYSTEM | SOLVER | PRECONDITIONER" RANKS ITERATIONS [PART]
#   PART: which figure of a cell that holds several ("28 / 27"), from 1.
krylov_doc=$(dirname "${BASH_SOURCE[0]}")/../../docs/krylov.md
quoted_iterations() {
  quoted_cell "$1" $((3 + $2)) "${4:-1}" "$3" "iterations for '$1' on $2 ranks"
}
# usage: quoted_cell ROW_START COLUMN PART VALUE WHAT
#   The figure PART (from 1) of cell COLUMN (from 1: the row's first) of the docs/krylov.md
#   table row that starts with "| ROW_START |" (indented or not) must be VALUE.
quoted_cell() {
  local row=$1 col=$2 part=$3 value=$4 what=$5 cell
  cell=$(awk -F'|' -v row="| $row |" -v col=$((col + 1)) -v part="$part" '
    { line = $0; sub(/^ +/, "", line) }
    index(line, row) == 1 { split(line, cells, "|"); split(cells[col], figures, " / ")
      f = figures[part]; gsub(/ /, "", f); print f; exit }' "$krylov_doc")
  [ -n "$cell" ] || fail "docs/krylov.md quotes no $what (the run took $value)"
  [ "$cell" = "$value" ] || fail "docs/krylov.md quotes $cell $what; the run took $value"
}
