#include "src/host_factors.hpp"

#include <solvent/sparse/row_distribution.hpp>

namespace solvent::ilu {
namespace {

// The matrix to factor: over several ranks the rank's diagonal block (block Jacobi, one
// ILU(0) per rank, no messages in an apply), else a itself.
template <class T>
const CsrMatrix<T>& own_rows(const CsrMatrix<T>& a, CsrMatrix<T>& block) {
  if (!a.distributed()) return a;
  block = diagonal_block(a);
  return block;
}

}  // namespace

void HostFactors::factor(const Operator& a, const char* plugin) {
  clear();
  // Assigned only once built: a factorisation that throws leaves no factors.
  if (const auto* m = std::get_if<CsrMatrix<double>>(&a)) {
    CsrMatrix<double> block;
    factors_ = Ilu0<double>(own_rows(*m, block), plugin);
  } else {
    CsrMatrix<complex> block;
    factors_ = Ilu0<complex>(own_rows(std::get<CsrMatrix<complex>>(a), block), plugin);
  }
}

bool HostFactors::refactor_in_place(const Operator& a) {
  return refactor_in_place<double>(a) || refactor_in_place<complex>(a);
}

template <class T>
bool HostFactors::refactor_in_place(const Operator& a) {
  auto* f = std::get_if<Ilu0<T>>(&factors_);
  const auto* given = std::get_if<CsrMatrix<T>>(&a);
  if (f == nullptr || given == nullptr) return false;
  CsrMatrix<T> block;
  const CsrMatrix<T>& m = own_rows(*given, block);
  if (!f->same_pattern(m)) return false;
  try {
    f->refactor(m);
  } catch (...) {
    clear();
    throw;
  }
  return true;
}

}  // namespace solvent::ilu
