#include <solvent/conversion.hpp>
#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace solvent {

namespace {

// Entries are kept where they are non-zero and on the diagonal, so a converted matrix has the
// pattern an ILU or a band factorisation expects (a zero diagonal entry stays visible).
template <class T>
void push_entry(CsrMatrix<T>& c, std::size_t i, std::size_t j, T v) {
  if (v == T{} && i != j) return;
  c.col_idx.push_back(std::int32_t(j));
  c.values.push_back(v);
}

template <class T>
CsrMatrix<T> start_csr(std::size_t n) {
  CsrMatrix<T> c;
  c.rows = c.cols = n;
  c.row_ptr.reserve(n + 1);
  c.row_ptr.push_back(0);
  return c;
}

template <class T>
CsrMatrix<T> to_csr(const DenseMatrix<T>& a) {
  auto c = start_csr<T>(a.rows);
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < a.cols; ++j) push_entry(c, i, j, a(i, j));
    c.row_ptr.push_back(std::int32_t(c.values.size()));
  }
  return c;
}

template <class T>
CsrMatrix<T> to_csr(const BandedMatrix<T>& a) {
  auto c = start_csr<T>(a.n);
  for (std::size_t i = 0; i < a.n; ++i) {
    const std::size_t first = i > a.kl ? i - a.kl : 0, last = std::min(a.n - 1, i + a.ku);
    for (std::size_t j = first; j <= last; ++j) push_entry(c, i, j, a.at(i, j));
    c.row_ptr.push_back(std::int32_t(c.values.size()));
  }
  return c;
}

// Row m of c0 u(m) - sum c_i u(m_i): neighbours in increasing index order, an inactive node
// (c0 = 0) as the row u(m) = 0 of the stencil's own action.
template <class T>
CsrMatrix<T> to_csr(const Stencil7<T>& a) {
  auto c = start_csr<T>(a.size());
  const std::size_t layer = a.n1 * a.n2;
  for (std::size_t m = 0; m < a.size(); ++m) {
    if (a.c[0][m] == T{}) {
      push_entry(c, m, m, T(1));
    } else {
      const std::size_t i = m % a.n1, j = (m / a.n1) % a.n2, k = m / layer;
      if (k > 0) push_entry(c, m, m - layer, -a.c[5][m]);
      if (j > 0) push_entry(c, m, m - a.n1, -a.c[3][m]);
      if (i > 0) push_entry(c, m, m - 1, -a.c[1][m]);
      push_entry(c, m, m, a.c[0][m]);
      if (i + 1 < a.n1) push_entry(c, m, m + 1, -a.c[2][m]);
      if (j + 1 < a.n2) push_entry(c, m, m + a.n1, -a.c[4][m]);
      if (k + 1 < a.n3) push_entry(c, m, m + layer, -a.c[6][m]);
    }
    c.row_ptr.push_back(std::int32_t(c.values.size()));
  }
  return c;
}

std::string mib(double bytes) { return fmt::format("{:.1f} MiB", bytes / (1 << 20)); }

void guard(double bytes, const ConversionOptions& o, const char* what) {
  if (bytes > double(o.max_bytes))
    throw ConfigError({fmt::format(
        "converting the operator to {} storage for the linear solver would take {}, more than "
        "the limit of {} ([linear_solver] max_conversion_mib); choose a solver that takes the "
        "operator as it is, or raise the limit",
        what, mib(bytes), mib(double(o.max_bytes)))});
}

template <class T>
DenseMatrix<T> to_dense(const CsrMatrix<T>& a, const ConversionOptions& o) {
  guard(double(a.rows) * double(a.cols) * sizeof(T), o, "dense");
  DenseMatrix<T> d(a.rows, a.cols);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      d(i, std::size_t(a.col_idx[k])) = a.values[k];
  return d;
}

// P A P^T in LAPACK band storage, P from `perm` (new -> old).
template <class T>
BandedMatrix<T> to_banded(const CsrMatrix<T>& a, const std::vector<std::int32_t>& perm,
                          const ConversionOptions& o) {
  const std::size_t n = a.rows;
  std::vector<std::size_t> inverse(n);
  for (std::size_t i = 0; i < n; ++i) inverse[std::size_t(perm[i])] = i;
  std::size_t kl = 0, ku = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const std::size_t i = inverse[r], j = inverse[std::size_t(a.col_idx[k])];
      kl = std::max(kl, i > j ? i - j : 0);
      ku = std::max(ku, j > i ? j - i : 0);
    }
  guard(double(2 * kl + ku + 1) * double(n) * sizeof(T), o, "banded");
  BandedMatrix<T> b(n, kl, ku);
  for (std::size_t r = 0; r < n; ++r)
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      b.at(inverse[r], inverse[std::size_t(a.col_idx[k])]) = a.values[k];
  return b;
}

template <class T>
CsrMatrix<T> csr_of(const Operator& a) {
  return std::visit(
      [](const auto& m) -> CsrMatrix<T> {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, CsrMatrix<T>>)
          return m;
        else if constexpr (std::is_same_v<M, DenseMatrix<T>> ||
                           std::is_same_v<M, BandedMatrix<T>> || std::is_same_v<M, Stencil7<T>>)
          return to_csr(m);
        else
          throw UnsupportedOperator("internal: csr_of called on a matrix-free or mixed operator");
      },
      a);
}

template <class T>
Converted convert_as(const Operator& a, OperatorKind to, const ConversionOptions& o) {
  const auto from = std::string(to_string(kind_of(a)));
  if (const auto* s = std::get_if<Stencil7<T>>(&a); s && s->distributed())
    throw UnsupportedOperator(fmt::format(
        "a stencil7 operator distributed over {} ranks cannot be converted to {}: each rank "
        "holds only its block; use a solver that takes the stencil7 form",
        s->block->comm->size(), to_string(to)));
  if (const auto* c = std::get_if<CsrMatrix<T>>(&a); c && c->distributed())
    throw UnsupportedOperator(fmt::format(
        "a csr operator distributed over {} ranks cannot be converted to {}: each rank "
        "holds only its rows; use a solver that takes the csr form",
        c->distribution->comm->size(), to_string(to)));
  if (to == OperatorKind::Csr) return {csr_of<T>(a), {}, from + " -> csr"};
  if (to == OperatorKind::Dense) {
    // The guard comes before anything of the size of the result is built.
    guard(double(rows_of(a)) * double(rows_of(a)) * sizeof(T), o, "dense");
    return {to_dense(csr_of<T>(a), o), {}, from + " -> dense"};
  }
  auto csr = csr_of<T>(a);
  std::vector<std::int32_t> perm = o.band_ordering;
  const bool given = !perm.empty();
  if (!given) {
    perm.resize(csr.rows);
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = std::int32_t(i);
  } else if (perm.size() != csr.rows) {
    throw UnsupportedOperator(
        fmt::format("the band ordering has {} entries for {} rows", perm.size(), csr.rows));
  }
  auto band = to_banded(csr, perm, o);
  auto text = fmt::format("{} -> banded (kl = {}, ku = {}, {})", from, band.kl, band.ku,
                          given ? "the producer's band ordering" : "natural ordering");
  return {std::move(band), given ? std::move(perm) : std::vector<std::int32_t>{}, std::move(text)};
}

}  // namespace

bool can_convert(OperatorForm from, OperatorKind to) {
  if (from.kind == to) return true;
  if (from.kind == OperatorKind::MatrixFree) return false;
  return to == OperatorKind::Csr || to == OperatorKind::Dense || to == OperatorKind::Banded;
}

std::string describe_forms(const std::vector<OperatorForm>& forms) {
  std::string s;
  for (const auto& f : forms)
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", to_string(f.scalar), to_string(f.kind));
  return s.empty() ? "none" : s;
}

std::optional<OperatorForm> reachable_form(const std::vector<OperatorForm>& forms,
                                           OperatorForm given) {
  for (const auto& f : forms)
    if (f == given) return f;
  for (const auto& f : forms)
    if (f.scalar == given.scalar && can_convert(given, f.kind)) return f;
  return std::nullopt;
}

Converted convert(const Operator& a, OperatorKind to, const ConversionOptions& options) {
  const auto from = form_of(a);
  if (!can_convert(from, to))
    throw UnsupportedOperator(fmt::format(
        "a {} operator cannot be converted to {} storage{}", to_string(from.kind), to_string(to),
        from.kind == OperatorKind::MatrixFree ? " (it has no entries, only an action)"
                                              : " (nothing is converted to a stencil)"));
  if (from.kind == to) return {a, {}, ""};
  return from.scalar == ScalarKind::Real ? convert_as<double>(a, to, options)
                                         : convert_as<complex>(a, to, options);
}

}  // namespace solvent
