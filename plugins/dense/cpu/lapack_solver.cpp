#include "cpu/lapack_solver.hpp"
#include "src/square_matrix.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <cmath>
#include <complex>

namespace solvent::dense {

LapackSolver::LapackSolver(const PluginContext& ctx)
    : DirectSolver(ctx), condition_("lapack", ctx.log) {}

std::vector<OperatorForm> LapackSolver::forms() const {
  return {{OperatorKind::Dense, ScalarKind::Real}, {OperatorKind::Dense, ScalarKind::Complex}};
}

namespace {

// getrf propagates NaN through the factors (or, in some OpenBLAS paths, rejects an
// argument), so a non-finite entry is named before factoring; the scan is O(n^2) against
// the factorisation's O(n^3).
template <class T>
void check_finite(const DenseMatrix<T>& a) {
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    const double re = std::real(a.values[k]), im = std::imag(a.values[k]);
    if (std::isfinite(re) && std::isfinite(im)) continue;
    throw SolverError(fmt::format("lapack: the matrix has a non-finite entry: entry ({}, {}) is {}",
                                  k / a.cols + 1, k % a.cols + 1,
                                  std::isnan(re) || std::isnan(im) ? "NaN" : "infinite"));
  }
}

}  // namespace

void LapackSolver::load(const Operator& op) { square_order(op, "lapack"); }

template <class T>
void LapackSolver::factor_as() {
  const auto& a = std::get<DenseMatrix<T>>(op());
  auto& lu = lu_.get<T>();
  check_finite(a);
  const auto n = static_cast<lapack_int>(a.rows);
  lu = a.values;
  ipiv_.resize(a.rows);
  lapack_int info;
  if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, lu.data(), n, ipiv_.data());
  else
    info = LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n,
                          reinterpret_cast<lapack_complex_double*>(lu.data()), n, ipiv_.data());
  if (info > 0)
    throw SolverError(fmt::format(
        "lapack: singular matrix: getrf found a zero pivot at elimination step {} of {}", info, n));
  if (info < 0) throw SolverError(fmt::format("lapack: getrf rejected argument {}", -info));
  check_factors_finite(std::span<const T>(lu), "lapack");
  // The 1-norm of what getrf factored (A^T), and gecon's estimate from its factors.
  double rcond = 0.0, norm = 0.0;
  if constexpr (std::is_same_v<T, double>) {
    norm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, a.values.data(), n);
    info = LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, lu.data(), n, norm, &rcond);
  } else {
    const auto* values = reinterpret_cast<const lapack_complex_double*>(a.values.data());
    norm = LAPACKE_zlange(LAPACK_COL_MAJOR, '1', n, n, values, n);
    info = LAPACKE_zgecon(LAPACK_COL_MAJOR, '1', n,
                          reinterpret_cast<const lapack_complex_double*>(lu.data()), n, norm,
                          &rcond);
  }
  condition_.note("gecon", info, norm, rcond);
}

Facts LapackSolver::more_facts() const {
  Facts f;
  condition_.add_fact(f);
  return f;
}

void LapackSolver::factor() {
  if (scalar_of(op()) == ScalarKind::Real)
    factor_as<double>();
  else
    factor_as<complex>();
}

template <class T>
void LapackSolver::substitute_as(std::span<const T> b, std::span<T> x) {
  const auto& lu = lu_.get<T>();
  std::copy(b.begin(), b.end(), x.begin());
  const auto n = static_cast<lapack_int>(b.size());
  lapack_int info;
  if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'T', n, 1, lu.data(), n, ipiv_.data(), x.data(), n);
  else
    info = LAPACKE_zgetrs(LAPACK_COL_MAJOR, 'T', n, 1,
                          reinterpret_cast<const lapack_complex_double*>(lu.data()), n,
                          ipiv_.data(), reinterpret_cast<lapack_complex_double*>(x.data()), n);
  if (info != 0) throw SolverError(fmt::format("lapack: getrs rejected argument {}", -info));
}

void LapackSolver::substitute(std::span<const double> b, std::span<double> x) {
  substitute_as(b, x);
}
void LapackSolver::substitute(std::span<const complex> b, std::span<complex> x) {
  substitute_as(b, x);
}

}  // namespace solvent::dense
