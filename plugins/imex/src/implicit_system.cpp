#include "src/implicit_system.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace solvent::imex {

namespace {

DenseMatrix<double> dense_system(const CsrMatrix<double>& lin, double half_dt) {
  DenseMatrix<double> s(lin.rows, lin.cols);
  for (std::size_t i = 0; i < lin.rows; ++i) {
    s(i, i) = 1.0;
    for (auto k = lin.row_ptr[i]; k < lin.row_ptr[i + 1]; ++k)
      s(i, std::size_t(lin.col_idx[k])) -= half_dt * lin.values[k];
  }
  return s;
}

BandedMatrix<double> banded_system(const CsrMatrix<double>& lin, double half_dt,
                                   const std::vector<std::int32_t>& perm) {
  const std::size_t n = lin.rows;
  std::vector<std::int32_t> inverse(n);
  for (std::size_t i = 0; i < n; ++i) inverse[std::size_t(perm[i])] = std::int32_t(i);
  std::size_t kl = 0, ku = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (auto k = lin.row_ptr[r]; k < lin.row_ptr[r + 1]; ++k) {
      const auto i = std::size_t(inverse[r]), j = std::size_t(inverse[std::size_t(lin.col_idx[k])]);
      if (i > j) kl = std::max(kl, i - j);
      if (j > i) ku = std::max(ku, j - i);
    }
  BandedMatrix<double> s(n, kl, ku);
  for (std::size_t i = 0; i < n; ++i) s.at(i, i) = 1.0;
  for (std::size_t r = 0; r < n; ++r)
    for (auto k = lin.row_ptr[r]; k < lin.row_ptr[r + 1]; ++k)
      s.at(std::size_t(inverse[r]), std::size_t(inverse[std::size_t(lin.col_idx[k])])) -=
          half_dt * lin.values[k];
  return s;
}

}  // namespace

ImplicitSystem::ImplicitSystem(const ImexProblem& problem, double dt, LinearSolver& solver,
                               const std::string& form)
    : lin_(problem.linear_operator()), half_dt_(0.5 * dt), solver_(solver) {
  const bool can_band = solver.accepts(OperatorKind::Banded, ScalarKind::Real);
  const bool can_dense = solver.accepts(OperatorKind::Dense, ScalarKind::Real);
  if (form == "banded" ||
      (form == "auto" && can_band && !(can_dense && problem.band_ordering().empty()))) {
    if (!can_band)
      throw UnsupportedOperator(
          "operator = \"banded\" was asked for, but the solver takes no real banded matrix");
    perm_ = problem.band_ordering();
    if (perm_.empty()) {
      perm_.resize(lin_.rows);
      for (std::size_t i = 0; i < perm_.size(); ++i) perm_[i] = std::int32_t(i);
    }
    form_ = OperatorKind::Banded;
    b_perm_.resize(lin_.rows);
    x_perm_.resize(lin_.rows);
    solver_.setup(std::make_shared<const Operator>(banded_system(lin_, half_dt_, perm_)));
  } else {
    if (!can_dense)
      throw UnsupportedOperator(fmt::format("the IMEX step needs a real {} matrix",
                                            form == "dense" ? "dense" : "dense or banded"));
    form_ = OperatorKind::Dense;
    solver_.setup(std::make_shared<const Operator>(dense_system(lin_, half_dt_)));
  }
}

void ImplicitSystem::explicit_half(std::span<const double> u, std::span<double> out) const {
  for (std::size_t i = 0; i < lin_.rows; ++i) {
    double s = 0.0;
    for (auto k = lin_.row_ptr[i]; k < lin_.row_ptr[i + 1]; ++k)
      s += lin_.values[k] * u[std::size_t(lin_.col_idx[k])];
    out[i] = u[i] + half_dt_ * s;
  }
}

SolveStats ImplicitSystem::solve(std::span<const double> rhs, std::span<double> u_new) {
  if (form_ == OperatorKind::Dense) return solver_.solve(rhs, u_new);
  for (std::size_t i = 0; i < perm_.size(); ++i) b_perm_[i] = rhs[std::size_t(perm_[i])];
  auto stats = solver_.solve(std::span<const double>(b_perm_), std::span<double>(x_perm_));
  for (std::size_t i = 0; i < perm_.size(); ++i) u_new[std::size_t(perm_[i])] = x_perm_[i];
  return stats;
}

}  // namespace solvent::imex
