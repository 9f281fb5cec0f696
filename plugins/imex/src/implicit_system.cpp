#include "src/implicit_system.hpp"

namespace solvent::imex {

// The diagonal is 1 - c Lin(i, i), formed in that order, so a dense or banded copy made from
// this matrix holds the same bits as one assembled directly from Lin.
CsrMatrix<double> implicit_matrix(const CsrMatrix<double>& lin, double c) {
  CsrMatrix<double> s;
  s.rows = lin.rows;
  s.cols = lin.cols;
  s.row_ptr.reserve(lin.rows + 1);
  s.row_ptr.push_back(0);
  for (std::size_t i = 0; i < lin.rows; ++i) {
    bool diagonal = false;
    auto put = [&](std::size_t j, double v) {
      s.col_idx.push_back(std::int32_t(j));
      s.values.push_back(v);
    };
    for (auto k = lin.row_ptr[i]; k < lin.row_ptr[i + 1]; ++k) {
      const auto j = std::size_t(lin.col_idx[k]);
      if (!diagonal && j > i) {
        put(i, 1.0);
        diagonal = true;
      }
      double v = j == i ? 1.0 : 0.0;
      v -= c * lin.values[k];
      put(j, v);
      diagonal = diagonal || j == i;
    }
    if (!diagonal) put(i, 1.0);
    s.row_ptr.push_back(std::int32_t(s.values.size()));
  }
  return s;
}

ImplicitSystem::ImplicitSystem(const ImexProblem& problem, LinearSolver& solver)
    : lin_(problem.linear_operator()), band_ordering_(problem.band_ordering()), solver_(solver) {}

void ImplicitSystem::use(double c) {
  if (c == c_) return;
  solver_.setup(std::make_shared<const Operator>(implicit_matrix(lin_, c)),
                OperatorHints{band_ordering_});
  c_ = c;
}

void ImplicitSystem::explicit_part(std::span<const double> u, std::span<const double> e,
                                   double dt, std::span<double> out) const {
  for (std::size_t i = 0; i < lin_.rows; ++i) {
    out[i] = u[i] + c_ * lin_row(u, i);
    out[i] += dt * e[i];
  }
}

void ImplicitSystem::apply_lin(std::span<const double> u, std::span<double> out) const {
  for (std::size_t i = 0; i < lin_.rows; ++i) out[i] = lin_row(u, i);
}

SolveStats ImplicitSystem::solve(std::span<const double> rhs, std::span<double> u_new) {
  return solver_.solve(rhs, u_new);
}

}  // namespace solvent::imex
