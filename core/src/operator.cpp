#include <solvent/operator.hpp>

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
template <class M>
struct ScalarOf;
template <template <class> class M, class T>
struct ScalarOf<M<T>> {
  static constexpr ScalarKind value = scalar_kind_of<T>;
};
}  // namespace

OperatorKind kind_of(const Operator& op) {
  return std::visit([](const auto& m) { return Traits<std::decay_t<decltype(m)>>::kind; }, op);
}
ScalarKind scalar_of(const Operator& op) {
  return std::visit([](const auto& m) { return ScalarOf<std::decay_t<decltype(m)>>::value; }, op);
}
std::size_t rows_of(const Operator& op) {
  return std::visit([](const auto& m) { return Traits<std::decay_t<decltype(m)>>::rows(m); }, op);
}

}  // namespace solvent
