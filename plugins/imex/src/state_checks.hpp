#pragma once
#include <solvent/solvent.hpp>

namespace solvent::imex {
// Throws DivergenceError naming the step, time, component and grid point of the first
// non-finite value, so a blow-up is reported where it happened. `what` names the vector
// ("the state", "the right-hand side").
void require_finite(std::span<const double> u, const FieldLayout& layout, std::int64_t step,
                    double t, const char* integrator, const char* what);
}  // namespace solvent::imex
