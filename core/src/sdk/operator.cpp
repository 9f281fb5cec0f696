#include <solvent/errors.hpp>
#include <solvent/operator.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace solvent {
namespace {
template <class>
struct Traits;
template <class T>
struct Traits<DenseMatrix<T>> {
  static constexpr OperatorKind kind = OperatorKind::Dense;
  static std::size_t rows(const DenseMatrix<T>& m) { return m.rows; }
};
template <class T>
struct Traits<CsrMatrix<T>> {
  static constexpr OperatorKind kind = OperatorKind::Csr;
  static std::size_t rows(const CsrMatrix<T>& m) { return m.rows; }
};
template <class T>
struct Traits<Stencil7<T>> {
  static constexpr OperatorKind kind = OperatorKind::Stencil7;
  static std::size_t rows(const Stencil7<T>& m) { return m.size(); }
};
template <class T>
struct Traits<BandedMatrix<T>> {
  static constexpr OperatorKind kind = OperatorKind::Banded;
  static std::size_t rows(const BandedMatrix<T>& m) { return m.n; }
};
template <class T>
struct Traits<MatrixFree<T>> {
  static constexpr OperatorKind kind = OperatorKind::MatrixFree;
  static std::size_t rows(const MatrixFree<T>& m) { return m ? m->rows() : 0; }
};
template <class M>
struct ScalarOf;
template <template <class> class M, class T>
struct ScalarOf<M<T>> {
  static constexpr ScalarKind value = scalar_kind_of<T>;
};
template <class T>
struct ScalarOf<MatrixFree<T>> {
  static constexpr ScalarKind value = scalar_kind_of<T>;
};
}  // namespace

OperatorKind kind_of(const Operator& op) {
  return std::visit([](const auto& m) { return Traits<std::decay_t<decltype(m)>>::kind; }, op);
}
ScalarKind scalar_of(const Operator& op) {
  return std::visit([](const auto& m) { return ScalarOf<std::decay_t<decltype(m)>>::value; }, op);
}
OperatorForm form_of(const Operator& op) { return {kind_of(op), scalar_of(op)}; }
std::size_t rows_of(const Operator& op) {
  return std::visit([](const auto& m) { return Traits<std::decay_t<decltype(m)>>::rows(m); }, op);
}
std::shared_ptr<const RowDistribution> distributed_rows_of(const Operator& op) {
  return std::visit(
      [](const auto& m) -> std::shared_ptr<const RowDistribution> {
        if constexpr (Traits<std::decay_t<decltype(m)>>::kind == OperatorKind::Csr)
          if (m.distributed()) return m.distribution;
        return nullptr;
      },
      op);
}

namespace {
// y_i = (A x)_i, row by row, for each storage.
template <class T>
T row_product(const DenseMatrix<T>& a, std::size_t i, std::span<const T> x) {
  T s{};
  for (std::size_t j = 0; j < a.cols; ++j) s += a(i, j) * x[j];
  return s;
}
template <class T>
T row_product(const CsrMatrix<T>& a, std::size_t i, std::span<const T> x) {
  T s{};
  for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) s += a.values[p] * x[a.col_idx[p]];
  return s;
}
template <class T>
T row_product(const BandedMatrix<T>& a, std::size_t i, std::span<const T> x) {
  T s{};
  const std::size_t first = i > a.kl ? i - a.kl : 0;
  const std::size_t last = std::min(a.n - 1, i + a.ku);
  for (std::size_t j = first; j <= last; ++j) s += a.at(i, j) * x[j];
  return s;
}
template <class T>
T row_product(const Stencil7<T>& a, std::size_t m, std::span<const T> x) {
  if (a.c[0][m] == T{}) return x[m];  // an inactive node's equation is u = 0
  const std::size_t i = m % a.n1, j = (m / a.n1) % a.n2, k = m / (a.n1 * a.n2);
  const std::size_t layer = a.n1 * a.n2;
  T s = a.c[0][m] * x[m];
  if (i > 0) s -= a.c[1][m] * x[m - 1];
  if (i + 1 < a.n1) s -= a.c[2][m] * x[m + 1];
  if (j > 0) s -= a.c[3][m] * x[m - a.n1];
  if (j + 1 < a.n2) s -= a.c[4][m] * x[m + a.n1];
  if (k > 0) s -= a.c[5][m] * x[m - layer];
  if (k + 1 < a.n3) s -= a.c[6][m] * x[m + layer];
  return s;
}

template <class M, class T>
void apply_rows(const M& a, std::span<const T> x, std::span<T> y) {
  if constexpr (Traits<M>::kind == OperatorKind::Stencil7) {
    if (a.distributed()) {
      HaloExchange<T> halo(*a.block, HaloExchange<T>::Layout::Block);
      halo.pack(x);
      halo.transfer();
      for (std::size_t i = 0; i < y.size(); ++i) y[i] = row_product(a, i, x);
      subtract_face_couplings(a, halo, y);
      return;
    }
  }
  if constexpr (Traits<M>::kind == OperatorKind::Csr) {
    if (a.distributed()) {
      // The rank's values, then its ghosts' from their owners.
      std::vector<T> ext(a.cols);
      std::copy(x.begin(), x.end(), ext.begin());
      GhostExchange<T>(a.distribution).exchange(ext);
      for (std::size_t i = 0; i < y.size(); ++i) y[i] = row_product(a, i, std::span<const T>(ext));
      return;
    }
  }
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = row_product(a, i, x);
}

// The ranks an operator's rows are spread over: a distributed stencil's or CSR matrix's,
// else this one.
const Communicator& ranks_of(const Operator& op) {
  return std::visit(
      [](const auto& a) -> const Communicator& {
        using M = std::decay_t<decltype(a)>;
        if constexpr (Traits<M>::kind == OperatorKind::Stencil7) {
          if (a.distributed()) return *a.block->comm;
        } else if constexpr (Traits<M>::kind == OperatorKind::Csr) {
          if (a.distributed()) return *a.distribution->comm;
        }
        return single_rank();
      },
      op);
}

// The one product every storage shares: rows one at a time for the assembled storages, the
// model's own action for a matrix-free one.
template <class T>
void apply_any(const Operator& op, std::span<const T> x, std::span<T> y) {
  const std::size_t n = rows_of(op);
  if (x.size() != n || y.size() != n)
    throw SolverError("apply: vectors of length " + std::to_string(x.size()) + " and " +
                      std::to_string(y.size()) + " for an operator of " + std::to_string(n) +
                      " rows");
  std::visit(
      [&](const auto& a) {
        using M = std::decay_t<decltype(a)>;
        if constexpr (ScalarOf<M>::value != scalar_kind_of<T>)
          throw UnsupportedOperator("apply: the vectors' scalar type is not the operator's");
        else if constexpr (Traits<M>::kind == OperatorKind::MatrixFree)
          a->apply(x, y);
        else
          apply_rows(a, x, y);
      },
      op);
}

// sum_i |v_i|^2 by f(i) = v_i with a scale, as LAPACK's nrm2 does: for sums whose squares
// overflow (entries beyond 1e154, as in a state that is blowing up but still finite), so
// that a finite residual is never reported as NaN.
template <class F>
double scaled_norm(std::size_t n, F f) {
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(f(i)));
  if (!std::isfinite(scale) || scale == 0) return scale;
  double s2 = 0;
  for (std::size_t i = 0; i < n; ++i) s2 += std::norm(f(i) / scale);
  return scale * std::sqrt(s2);
}

struct Norms {
  double f, g;
};

// ||f||_2 and ||g||_2 over i < n (f(i) = v_i), each summed in the plain way in the order of
// i, and again by scaled_norm where the squares overflowed. Both sums go in one pass: each
// is a chain of dependent additions, and side by side the two chains overlap.
template <class F, class G>
Norms norms_of(std::size_t n, F f, G g) {
  double sf = 0, sg = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sf += std::norm(f(i));
    sg += std::norm(g(i));
  }
  return {std::isfinite(sf) ? std::sqrt(sf) : scaled_norm(n, f),
          std::isfinite(sg) ? std::sqrt(sg) : scaled_norm(n, g)};
}

// Assembled storages row by row, with no temporary (the core checks every direct solve with
// it, so it runs once per time step); a matrix-free operator, and a distributed stencil
// (which needs its neighbours' values), through its action. Over several ranks the squared
// norms are summed over them in rank order (Communicator::sum), so every rank returns the
// same number.
template <class T>
double residual_of(const Operator& op, std::span<const T> b, std::span<const T> x) {
  if (b.size() != rows_of(op) || x.size() != rows_of(op))
    throw SolverError("relative_residual: vectors of length " + std::to_string(b.size()) + " and " +
                      std::to_string(x.size()) + " for an operator of " +
                      std::to_string(rows_of(op)) + " rows");
  const std::size_t n = b.size();
  const Communicator& ranks = ranks_of(op);
  const auto rhs = [&](std::size_t i) { return b[i]; };
  Norms norms{};
  std::visit(
      [&](const auto& a) {
        using M = std::decay_t<decltype(a)>;
        if constexpr (ScalarOf<M>::value != scalar_kind_of<T>) {
          throw UnsupportedOperator(
              "relative_residual: the vectors' scalar type is not the operator's");
        } else if (Traits<M>::kind == OperatorKind::MatrixFree || ranks.size() > 1) {
          std::vector<T> ax(n);
          apply_any<T>(op, x, ax);
          norms = norms_of(n, [&](std::size_t i) { return b[i] - ax[i]; }, rhs);
        } else if constexpr (Traits<M>::kind != OperatorKind::MatrixFree) {
          norms = norms_of(n, [&](std::size_t i) { return b[i] - row_product(a, i, x); }, rhs);
        }
      },
      op);
  double r = norms.f, bn = norms.g;
  if (ranks.size() > 1) {
    double squares[2] = {r * r, bn * bn};
    ranks.sum(squares);
    r = std::sqrt(squares[0]);
    bn = std::sqrt(squares[1]);
  }
  return bn > 0 ? r / bn : r;
}

// Whether every v[i] of n is finite: v * 0 is 0 for a finite entry and NaN for inf or NaN,
// so the sum of those products is 0 exactly when all are. The sum is kept in eight partial
// sums (whether it is 0 does not depend on the order), which the compiler vectorises; one
// running sum would be a chain of n dependent additions. Large vectors are checked in chunks
// by all threads (a GiB takes one core about 0.1 s, which every solve pays twice).
bool all_finite_serial(const double* v, std::size_t n) {
  constexpr std::size_t lanes = 8;
  double partial[lanes] = {};
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes)
    for (std::size_t k = 0; k < lanes; ++k) partial[k] += v[i + k] * 0.0;
  double sum = 0;
  for (; i < n; ++i) sum += v[i] * 0.0;
  for (double p : partial) sum += p;
  return sum == 0.0;
}

bool all_finite(const double* v, std::size_t n) {
  constexpr std::size_t chunk = std::size_t(1) << 20;
  if (n <= chunk) return all_finite_serial(v, n);
  const auto chunks = static_cast<std::int64_t>((n + chunk - 1) / chunk);
  std::int64_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t first = std::size_t(c) * chunk;
    bad += all_finite_serial(v + first, std::min(chunk, n - first)) ? 0 : 1;
  }
  return bad == 0;
}

}  // namespace

void apply(const Operator& a, std::span<const double> x, std::span<double> y) {
  apply_any<double>(a, x, y);
}
void apply(const Operator& a, std::span<const complex> x, std::span<complex> y) {
  apply_any<complex>(a, x, y);
}

double relative_residual(const Operator& a, std::span<const double> b, std::span<const double> x) {
  return residual_of<double>(a, b, x);
}
double relative_residual(const Operator& a, std::span<const complex> b,
                         std::span<const complex> x) {
  return residual_of<complex>(a, b, x);
}

std::size_t first_non_finite(std::span<const double> v) {
  if (all_finite(v.data(), v.size())) return v.size();
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) return i;
  return v.size();
}
std::size_t first_non_finite(std::span<const complex> v) {
  // A complex<double> is an array of its two parts (the standard guarantees the layout).
  if (all_finite(reinterpret_cast<const double*>(v.data()), 2 * v.size())) return v.size();
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i].real()) || !std::isfinite(v[i].imag())) return i;
  return v.size();
}

}  // namespace solvent
