#!/usr/bin/env bash
# config/sweep-helmholtz-cabin.toml as docs/models/helmholtz.md quotes it: every member
# converges, in the range of BiCGSTAB(8) cycles the page gives, and the sound level at the
# driver's ear peaks at the frequencies and levels it gives, then falls to its minimum; and
# the size its own comment gives.
# usage: cabin_sweep_test.sh SOLVENT CONFIG MODEL_DOC WORK_DIR
set -uo pipefail
solvent=$1 config=$2 doc=$3 work=$4
fail() { echo "FAIL: $*"; cat "$work.log"; exit 1; }
. "$(dirname "$0")/../../support/quoted_text.sh"
"$solvent" run "$config" --jobs 2 --output "$work" --overwrite --no-progress > "$work.log" 2>&1 \
  || fail "the sweep: exit $?"
# member,model.frequency,status,...: the columns by name.
table=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { print $c["model.frequency"], $c["status"], $c["solver_status"], $c["iterations"], $c["probe_spl_db"] }' \
  "$work/sweep.csv")
[ "$(echo "$table" | awk '$2 != "ok" || $3 != "converged"' | wc -l)" -eq 0 ] \
  || fail "members that did not converge: $(echo "$table" | awk '$2 != "ok" || $3 != "converged"')"
cycles=$(echo "$table" | awk 'NR == 1 || $4 < lo { lo = $4 } NR == 1 || $4 > hi { hi = $4 } END { print lo "-" hi }')
# The peaks (a level above both neighbours') and the lowest level after the last of them.
levels=$(echo "$table" | awk '{ f[NR] = $1; d[NR] = $5 } END {
  for (i = 2; i < NR; i++) if (d[i] > d[i - 1] && d[i] > d[i + 1]) { n++; pf[n] = f[i]; pd[n] = d[i]; last = i }
  low = last + 1; for (i = last + 1; i <= NR; i++) if (d[i] < d[low]) low = i
  printf "peaks near %g Hz and %g Hz at %.0f and %.0f dB and falls to %.0f dB at %g Hz", pf[1], pf[2], pd[1], pd[2], d[low], f[low]
  if (n != 2) printf " (%d peaks)", n }')
quoted "$doc" "every member converged in $cycles BiCGSTAB(8) cycles with ILU(0); the level at the ear $levels."
# The config's comment: the members, the unknowns to the thousand, and the points per
# wavelength at the highest frequency as its member's log gives them (2 pi / (k h_max)).
members=$(echo "$table" | wc -l)
top=$(awk -F, 'NR > 1 && (best == "" || $2 + 0 > best) { best = $2 + 0; m = $1 } END { printf "%04d", m }' "$work/sweep.csv")
nodes=$(sed -n "s/^nodes = '\(.*\)'$/\1/p" "$work/members/$top/record.toml")
points=$(sed -n 's/.*, \([0-9.]*\) points per wavelength$/\1/p' "$work/members/$top/log.txt")
quoted "$config" "$members members at 15 cells per metre (about $(( (nodes + 500) / 1000 )) 000 unknowns, $(printf %.0f "$points") points per wavelength"
echo "the cabin sweep as the model's page quotes it: $cycles cycles, $levels"
