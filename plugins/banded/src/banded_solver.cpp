#include "src/banded_solver.hpp"

#include <solvent/numerics/band_lu.hpp>

#include <fmt/format.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>

namespace solvent::banded {

BandedSolver::BandedSolver(const PluginContext& ctx)
    : DirectSolver(ctx), condition_("banded", ctx.log) {}

std::vector<OperatorForm> BandedSolver::forms() const {
  return {{OperatorKind::Banded, ScalarKind::Real}, {OperatorKind::Banded, ScalarKind::Complex}};
}

template <class T>
void BandedSolver::factor_as(const BandedMatrix<T>& a) {
  auto& lu = lu_.get<T>();
  const auto n = static_cast<lapack_int>(a.n), kl = static_cast<lapack_int>(a.kl),
             ku = static_cast<lapack_int>(a.ku), ldab = static_cast<lapack_int>(a.ldab());
  lu = a.band;
  ipiv_.resize(a.n);
  lapack_int info;
  if constexpr (std::is_same_v<T, double>) {
    // gbtrf's algorithm without its BLAS call a column; the batched integrators factor their
    // members with it too.
    info = band_lu_factor(lu.data(), a.ldab(), a.n, a.kl, a.ku, ipiv_.data());
  } else {
    info = LAPACKE_zgbtrf(LAPACK_COL_MAJOR, n, n, kl, ku,
                          reinterpret_cast<lapack_complex_double*>(lu.data()), ldab, ipiv_.data());
  }
  if (info > 0)
    throw SolverError(fmt::format(
        "banded: singular matrix: gbtrf found U({0},{0}) = 0 at elimination step {0} of {1}", info,
        n));
  // Argument 6 is the band: LAPACKE's check and band_lu_factor refuse a NaN in it.
  if (info == -6) throw SolverError("banded: the matrix holds a NaN (not a number)");
  if (info < 0) throw SolverError(fmt::format("banded: gbtrf rejected argument {}", -info));
  check_factors_finite(std::span<const T>(lu), "banded");
  interchanges_ = 0;
  for (std::size_t j = 0; j < a.n; ++j) interchanges_ += ipiv_[j] != int(j + 1);
  // The 1-norm of the band (its largest column sum; LAPACKE has no langb), and gbcon's
  // estimate from the factors.
  double norm = 0.0;
  for (std::size_t j = 0; j < a.n; ++j) {
    double column = 0.0;
    for (std::size_t i = j > a.ku ? j - a.ku : 0; i <= std::min(a.n - 1, j + a.kl); ++i)
      column += std::abs(a.at(i, j));
    norm = std::max(norm, column);
  }
  double rcond = 0.0;
  if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dgbcon(LAPACK_COL_MAJOR, '1', n, kl, ku, lu.data(), ldab, ipiv_.data(), norm,
                          &rcond);
  else
    info = LAPACKE_zgbcon(LAPACK_COL_MAJOR, '1', n, kl, ku,
                          reinterpret_cast<const lapack_complex_double*>(lu.data()), ldab,
                          ipiv_.data(), norm, &rcond);
  condition_.note("gbcon", info, norm, rcond);
  auto& inverse = inverse_diagonal_.get<T>();
  inverse.resize(a.n);
  u_reach_.resize(a.n);
  band_lu_prepare(lu.data(), a.ldab(), a.n, a.kl, a.ku, inverse.data(), u_reach_.data());
}

void BandedSolver::load(const Operator& op) {
  const auto check = [](const auto& a) {
    if (a.band.size() != a.ldab() * a.n)
      throw SolverError(fmt::format("banded: band storage holds {} values, {} x {} needs {}",
                                    a.band.size(), a.ldab(), a.n, a.ldab() * a.n));
  };
  if (scalar_of(op) == ScalarKind::Real)
    check(std::get<BandedMatrix<double>>(op));
  else
    check(std::get<BandedMatrix<complex>>(op));
}

void BandedSolver::factor() {
  if (scalar_of(op()) == ScalarKind::Real)
    factor_as(std::get<BandedMatrix<double>>(op()));
  else
    factor_as(std::get<BandedMatrix<complex>>(op()));
}

template <class T>
void BandedSolver::substitute_as(std::span<const T> b, std::span<T> x) {
  const auto& a = std::get<BandedMatrix<T>>(op());
  std::copy(b.begin(), b.end(), x.begin());
  band_lu_substitute(BandLu<T>{lu_.get<T>().data(), a.ldab(), a.n, a.kl, a.ku, ipiv_.data(),
                               u_reach_.data(), inverse_diagonal_.get<T>().data()},
                     x.data());
}

void BandedSolver::substitute(std::span<const double> b, std::span<double> x) {
  substitute_as(b, x);
}
void BandedSolver::substitute(std::span<const complex> b, std::span<complex> x) {
  substitute_as(b, x);
}

Facts BandedSolver::more_facts() const {
  Facts f{{"row_interchanges", std::to_string(interchanges_)}};
  condition_.add_fact(f);
  return f;
}

}  // namespace solvent::banded
