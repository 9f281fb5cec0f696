# scripts/matm-tuning-fit on the stored H200 measurements: its fits must be the rows
# docs/benchmarks.md shows, and a file that is not the benchmark's is refused by name.
# usage: matm_tuning_fit_test.sh PYTHON SCRIPT CSV DOC WORKDIR
set -u
python=$1 script=$2 csv=$3 doc=$4 work=$5
source "$(dirname "$0")/quoted_text.sh"
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$work"
for sweep in paper warp-scan; do
  row=$("$python" "$script" "$csv" --sweep "$sweep" | grep "^| measured, ") || fail "no fitted row for $sweep"
  quoted "$doc" "$row"
done
printf 'a,b\n1,2\n' > "$work/other.csv"
message=$("$python" "$script" "$work/other.csv" 2>&1) && fail "a foreign CSV was accepted"
[[ "$message" == *"other.csv: not a matm-benchmark --tuning file"* ]] || fail "message: $message"
echo "PASS"
