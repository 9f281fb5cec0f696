#include "src/banded_solver.hpp"

#include <solvent/band_lu.hpp>

#include <fmt/format.h>
#include <lapacke.h>

#include <algorithm>

namespace solvent::banded {

BandedSolver::BandedSolver(const PluginContext& ctx)
    : reuse_(ctx.params.boolean("reuse_factorization")) {}

std::vector<OperatorForm> BandedSolver::forms() const {
  return {{OperatorKind::Banded, ScalarKind::Real}, {OperatorKind::Banded, ScalarKind::Complex}};
}

template <class T>
void BandedSolver::factor(const BandedMatrix<T>& a, std::vector<T>& lu) {
  const auto n = static_cast<lapack_int>(a.n), kl = static_cast<lapack_int>(a.kl),
             ku = static_cast<lapack_int>(a.ku), ldab = static_cast<lapack_int>(a.ldab());
  lu = a.band;
  ipiv_.resize(a.n);
  lapack_int info;
  if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dgbtrf(LAPACK_COL_MAJOR, n, n, kl, ku, lu.data(), ldab, ipiv_.data());
  else
    info = LAPACKE_zgbtrf(LAPACK_COL_MAJOR, n, n, kl, ku,
                          reinterpret_cast<lapack_complex_double*>(lu.data()), ldab, ipiv_.data());
  ++factorizations_;
  if (info > 0)
    throw SolverError(fmt::format(
        "banded: singular matrix: gbtrf found U({0},{0}) = 0 at elimination step {0} of {1}", info,
        n));
  if (info < 0) throw SolverError(fmt::format("banded: gbtrf rejected argument {}", -info));
  interchanges_ = 0;
  for (std::size_t j = 0; j < a.n; ++j) interchanges_ += ipiv_[j] != int(j + 1);
  auto& inverse = inverse_diagonal_.get<T>();
  inverse.resize(a.n);
  u_reach_.resize(a.n);
  band_lu_prepare(lu.data(), a.ldab(), a.n, a.kl, a.ku, inverse.data(), u_reach_.data());
}

void BandedSolver::setup_impl(std::shared_ptr<const Operator> op) {
  const bool real = scalar_of(*op) == ScalarKind::Real;
  const auto check = [](const auto& a) {
    if (a.band.size() != a.ldab() * a.n)
      throw SolverError(fmt::format("banded: band storage holds {} values, {} x {} needs {}",
                                    a.band.size(), a.ldab(), a.n, a.ldab() * a.n));
  };
  if (real)
    check(std::get<BandedMatrix<double>>(*op));
  else
    check(std::get<BandedMatrix<complex>>(*op));
  op_ = std::move(op);
  if (!reuse_) return;
  if (real)
    factor(std::get<BandedMatrix<double>>(*op_), lu_.real);
  else
    factor(std::get<BandedMatrix<complex>>(*op_), lu_.complex);
}

template <class T>
SolveStats BandedSolver::solve_as(std::span<const T> b, std::span<T> x) {
  const auto& a = std::get<BandedMatrix<T>>(*op_);
  auto& lu = lu_.get<T>();
  if (!reuse_) factor(a, lu);
  std::copy(b.begin(), b.end(), x.begin());
  band_lu_substitute(BandLu<T>{lu.data(), a.ldab(), a.n, a.kl, a.ku, ipiv_.data(), u_reach_.data(),
                               inverse_diagonal_.get<T>().data()},
                     x.data());
  return direct_solve_stats();
}

SolveStats BandedSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  return solve_as(b, x);
}
SolveStats BandedSolver::solve_impl(std::span<const complex> b, std::span<complex> x) {
  return solve_as(b, x);
}

Facts BandedSolver::facts() const {
  return {{"factorizations", std::to_string(factorizations_)},
          {"reuse_factorization", reuse_ ? "true" : "false"},
          {"row_interchanges", std::to_string(interchanges_)}};
}

}  // namespace solvent::banded
