# Sourced by the shell tests of sweeps (after they define fail MESSAGE); works in the cwd.
# without_wall CSV: sweep.csv without its wall_s column (the one column that differs between
# two sweeps).
without_wall() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != w) out = out (out == "" ? "" : ",") $i; print out }' "$1"
}
# same_csv DIR1 DIR2 WHAT: the two sweeps' sweep.csv agree but for wall times, else fail.
same_csv() {
  diff <(without_wall "$1/sweep.csv") <(without_wall "$2/sweep.csv") > diff.txt \
    || { cat diff.txt; fail "$3: sweep.csv differs"; }
}
