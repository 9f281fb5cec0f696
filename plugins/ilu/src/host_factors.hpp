#pragma once
// The ILU(0) factors of either scalar type as both ILU plugins keep them on the host, with the
// rules they share: no factors until a factorisation succeeds, none after one fails.
#include <solvent_ilu/ilu0.hpp>

#include <solvent/operator.hpp>

#include <variant>

namespace solvent::ilu {

class HostFactors {
 public:
  // Factors a, a CSR operator of either scalar type; `plugin` starts the error messages.
  void factor(const Operator& a, const char* plugin);
  // When a has the kept pattern and scalar type, refactors its values in place and returns
  // true; otherwise changes nothing and returns false (a refresh then sets up anew).
  bool refactor_in_place(const Operator& a);
  void clear() { factors_ = std::monostate{}; }

  template <class T>
  const Ilu0<T>* get() const {
    return std::get_if<Ilu0<T>>(&factors_);
  }
  // Calls f with the factors held, an Ilu0<double> or an Ilu0<complex>.
  template <class F>
  void visit(F&& f) const {
    if (const auto* d = get<double>())
      f(*d);
    else if (const auto* c = get<complex>())
      f(*c);
  }

 private:
  template <class T>
  bool refactor_in_place(const Operator& a);

  std::variant<std::monostate, Ilu0<double>, Ilu0<complex>> factors_;
};

}  // namespace solvent::ilu
