#include "src/host_factors.hpp"

namespace solvent::ilu {

void HostFactors::factor(const Operator& a, const char* plugin) {
  clear();
  // Assigned only once built: a factorisation that throws leaves no factors.
  if (const auto* m = std::get_if<CsrMatrix<double>>(&a))
    factors_ = Ilu0<double>(*m, plugin);
  else
    factors_ = Ilu0<complex>(std::get<CsrMatrix<complex>>(a), plugin);
}

bool HostFactors::refactor_in_place(const Operator& a) {
  return refactor_in_place<double>(a) || refactor_in_place<complex>(a);
}

template <class T>
bool HostFactors::refactor_in_place(const Operator& a) {
  auto* f = std::get_if<Ilu0<T>>(&factors_);
  const auto* m = std::get_if<CsrMatrix<T>>(&a);
  if (f == nullptr || m == nullptr || !f->same_pattern(*m)) return false;
  try {
    f->refactor(*m);
  } catch (...) {
    clear();
    throw;
  }
  return true;
}

}  // namespace solvent::ilu
