#pragma once
// How many fragments a triangular sweep pipelined over ranks is cut in: the model behind
// RankLinks::fragments_for, apart from the collective that gathers its inputs, so that it
// can be checked on any numbers.
#include <solvent/grid/exchange_cost.hpp>
#include <solvent_matm/split_operator.hpp>

namespace solvent::matm {

// D = `depth` ranks in a row, each sweeping its part in `work_s` seconds and passing on
// `strip_bytes` in all over links of `link`: cut in F, the sweep takes about
// (F + D - 1)(work_s / F + a + b V / F), least at F = sqrt((D - 1)(work_s + b V) / a),
// rounded and kept within 1 and `units`. A time below zero or not a number (a stopwatch
// that took a wait for work) counts as none: the count is always one of 1 .. units.
int pipeline_fragments(int depth, index_t units, const LinkFit& link, double work_s,
                       double strip_bytes);

}  // namespace solvent::matm
