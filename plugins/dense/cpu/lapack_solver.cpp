#include "cpu/lapack_solver.hpp"

#include <fmt/format.h>
#include <lapacke.h>

namespace solvent::dense {

LapackSolver::LapackSolver(const PluginContext& ctx)
    : reuse_(ctx.params.boolean("reuse_factorization")) {}

std::vector<OperatorForm> LapackSolver::forms() const {
  return {{OperatorKind::Dense, ScalarKind::Real}, {OperatorKind::Dense, ScalarKind::Complex}};
}

template <class T>
void LapackSolver::factor(const DenseMatrix<T>& a, std::vector<T>& lu) {
  if (a.rows != a.cols)
    throw SolverError(fmt::format("lapack: matrix is {} x {}, not square", a.rows, a.cols));
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
