# A phrase a document quotes from a run, built by the test from the run's own values, so
# that the text cannot drift from the program (the shell tests' counterpart of
# solvent_test/quoted_figures.hpp). The document is read as one line: a phrase may span
# its line breaks. Sourced; the test defines fail.
# usage: quoted DOC PHRASE
quoted() {
  local text
  text=$(tr '\n' ' ' < "$1" | tr -s ' ')
  [[ "$text" == *"$2"* ]] || fail "${1##*/} does not say: $2"
}
