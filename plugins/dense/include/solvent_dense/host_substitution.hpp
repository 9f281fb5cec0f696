#pragma once
// Substitution on the host, as De Luca et al. do it after copying the triangular factor back:
// row by row, each row a dot product with the already known unknowns.
#include <cstddef>
#include <cstdint>

namespace solvent::dense {

// Solves U x = y, U the upper triangle of the row-major array lu (leading dimension ld);
// row i of U is zero right of upper_end[i].
void back_substitute(const double* lu, std::size_t ld, std::size_t n, const std::int32_t* upper_end,
                     const double* y, double* x);

// y = L^-1 P b with L_ik = lu_ik / lu_kk (the unscaled multipliers the elimination left
// below the diagonal); row i of L is zero left of lower_begin[i]. permutation[i] is the
// index of b that row swaps brought to position i.
void forward_substitute(const double* lu, std::size_t ld, std::size_t n,
                        const std::int32_t* permutation, const std::int32_t* lower_begin,
                        const double* b, double* y);

}  // namespace solvent::dense
