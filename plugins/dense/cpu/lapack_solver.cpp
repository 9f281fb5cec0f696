#include "cpu/lapack_solver.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <cmath>
#include <complex>

namespace solvent::dense {

LapackSolver::LapackSolver(const PluginContext& ctx)
    : reuse_(ctx.params.boolean("reuse_factorization")) {}

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
    throw SolverError(fmt::format(
        "lapack: the matrix has a non-finite entry: entry ({}, {}) is {}", k / a.cols + 1,
        k % a.cols + 1, std::isnan(re) || std::isnan(im) ? "NaN" : "infinite"));
  }
}

}  // namespace

template <class T>
void LapackSolver::factor(const DenseMatrix<T>& a, std::vector<T>& lu) {
  if (a.rows != a.cols)
    throw SolverError(fmt::format("lapack: matrix is {} x {}, not square", a.rows, a.cols));
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
  ++factorizations_;
  if (info > 0)
    throw SolverError(fmt::format(
        "lapack: singular matrix: getrf found a zero pivot at elimination step {} of {}", info, n));
  if (info < 0) throw SolverError(fmt::format("lapack: getrf rejected argument {}", -info));
}

void LapackSolver::setup_impl(std::shared_ptr<const Operator> op) {
  op_ = std::move(op);
  if (!reuse_) return;
  if (scalar_of(*op_) == ScalarKind::Real)
    factor(std::get<DenseMatrix<double>>(*op_), lu_.real);
  else
    factor(std::get<DenseMatrix<complex>>(*op_), lu_.complex);
}

template <class T>
SolveStats LapackSolver::solve_as(std::span<const T> b, std::span<T> x) {
  const auto& a = std::get<DenseMatrix<T>>(*op_);
  auto& lu = lu_.get<T>();
  if (!reuse_) factor(a, lu);
  std::copy(b.begin(), b.end(), x.begin());
  const auto n = static_cast<lapack_int>(a.rows);
  lapack_int info;
  if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'T', n, 1, lu.data(), n, ipiv_.data(), x.data(), n);
  else
    info = LAPACKE_zgetrs(LAPACK_COL_MAJOR, 'T', n, 1,
                          reinterpret_cast<const lapack_complex_double*>(lu.data()), n,
                          ipiv_.data(), reinterpret_cast<lapack_complex_double*>(x.data()), n);
  if (info != 0) throw SolverError(fmt::format("lapack: getrs rejected argument {}", -info));
  return direct_solve_stats();
}

SolveStats LapackSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  return solve_as(b, x);
}
SolveStats LapackSolver::solve_impl(std::span<const complex> b, std::span<complex> x) {
  return solve_as(b, x);
}

Facts LapackSolver::facts() const {
  return {{"factorizations", std::to_string(factorizations_)},
          {"reuse_factorization", reuse_ ? "true" : "false"}};
}

}  // namespace solvent::dense
