#include <solvent_dense/gepp_arithmetic.hpp>
#include <solvent_dense/host_substitution.hpp>

namespace solvent::dense {

void back_substitute(const double* lu, std::size_t ld, std::size_t n, const std::int32_t* upper_end,
                     const double* y, double* x) {
  for (std::size_t i = n; i-- > 0;) {
    const double* row = lu + i * ld;
    double acc = y[i];
    const auto end = static_cast<std::size_t>(upper_end[i]);
    for (std::size_t j = i + 1; j <= end; ++j) acc = eliminate(acc, row[j], x[j]);
    x[i] = acc / row[i];
  }
}

void forward_substitute(const double* lu, std::size_t ld, std::size_t n,
                        const std::int32_t* permutation, const std::int32_t* lower_begin,
                        const double* b, double* y) {
  for (std::size_t i = 0; i < n; ++i) {
    const double* row = lu + i * ld;
    double acc = b[permutation[i]];
    for (auto k = static_cast<std::size_t>(lower_begin[i]); k < i; ++k) {
      acc = eliminate(acc, multiplier(row[k], lu[k * ld + k]), y[k]);
    }
    y[i] = acc;
  }
}

}  // namespace solvent::dense
