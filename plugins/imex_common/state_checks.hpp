#pragma once
#include <solvent/solvent.hpp>

namespace solvent::imex {
// Throws DivergenceError naming the step, time, component and grid point of the first
// non-finite value, so a blow-up of the explicit term is reported where it happened.
void require_finite(std::span<const double> u, const FieldLayout& layout, std::int64_t step,
                    double t, const char* integrator);
}  // namespace solvent::imex
