#include <solvent_dense/elimination_envelope.hpp>

#include <algorithm>
#include <utility>

namespace solvent::dense {

EliminationEnvelope EliminationEnvelope::dense(std::size_t n) {
  const auto last = static_cast<std::int32_t>(n) - 1;
  return {std::vector<std::int32_t>(n, last), std::vector<std::int32_t>(n, last)};
}

EliminationEnvelope EliminationEnvelope::of_matrix(const double* a, std::size_t n) {
  const auto ni = static_cast<std::int32_t>(n);
  std::vector<std::int32_t> first(n), last(n);
  for (std::int32_t i = 0; i < ni; ++i) {
    const double* row = a + static_cast<std::size_t>(i) * n;
    std::int32_t f = 0;
    while (f < ni && row[f] == 0.0) ++f;
    std::int32_t l = ni - 1;
    while (l >= 0 && row[l] == 0.0) --l;
    first[i] = f;
    last[i] = l;
  }
  return of_row_extents(first, last);
}

EliminationEnvelope EliminationEnvelope::of_row_extents(const std::vector<std::int32_t>& first,
                                                        const std::vector<std::int32_t>& last) {
  const std::size_t n = first.size();
  const auto ni = static_cast<std::int32_t>(n);
  // last_row_starting_at[c]: the largest row whose first nonzero is in column c.
  std::vector<std::int32_t> last_row_starting_at(n, -1);
  std::vector<std::int32_t> last_col_up_to(n, -1);  // max last nonzero column of rows <= i
  std::int32_t running_last = -1;
  for (std::int32_t i = 0; i < ni; ++i) {
    if (first[i] < ni) last_row_starting_at[first[i]] = i;
    running_last = std::max(running_last, last[i]);
    last_col_up_to[i] = running_last;
  }
  EliminationEnvelope env{std::vector<std::int32_t>(n), std::vector<std::int32_t>(n)};
  std::int32_t reach = -1;
  for (std::int32_t k = 0; k < ni; ++k) {
    reach = std::max(reach, last_row_starting_at[k]);
    env.row_end[k] = std::max(k, reach);
    env.col_end[k] = std::max(k, last_col_up_to[env.row_end[k]]);
  }
  return env;
}

double EliminationEnvelope::update_count() const {
  double count = 0.0;
  for (std::size_t k = 0; k < row_end.size(); ++k) {
    count += static_cast<double>(row_end[k] - static_cast<std::int32_t>(k)) *
             static_cast<double>(col_end[k] - static_cast<std::int32_t>(k));
  }
  return count;
}

FactorProfile FactorProfile::of(const EliminationEnvelope& env,
                                const std::vector<std::int32_t>& pivots) {
  const auto n = static_cast<std::int32_t>(pivots.size());
  FactorProfile p{std::vector<std::int32_t>(pivots.size()), env.col_end};
  // A row first meets the elimination at the step whose range reaches it; from then on
  // it can carry multipliers, and row swaps move that starting column with it.
  std::int32_t reached = -1;
  for (std::int32_t k = 0; k < n; ++k) {
    for (std::int32_t i = reached + 1; i <= env.row_end[k]; ++i) p.lower_begin[i] = k;
    reached = std::max(reached, env.row_end[k]);
    std::swap(p.lower_begin[k], p.lower_begin[pivots[k]]);
  }
  return p;
}

}  // namespace solvent::dense
