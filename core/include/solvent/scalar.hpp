#pragma once
// The two scalar types every operator, vector and solver speaks.
#include <complex>
#include <string_view>

namespace solvent {

using complex = std::complex<double>;

enum class ScalarKind { Real, Complex };

template <class T>
inline constexpr ScalarKind scalar_kind_of = ScalarKind::Real;
template <>
inline constexpr ScalarKind scalar_kind_of<complex> = ScalarKind::Complex;

constexpr std::string_view to_string(ScalarKind k) {
  return k == ScalarKind::Real ? "real" : "complex";
}

}  // namespace solvent
